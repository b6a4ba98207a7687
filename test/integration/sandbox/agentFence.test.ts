// I-118, the whole agent confined: a scripted third-party agent (fencedAgentProbe.mjs, a plain Node
// script) is started the way the extension starts one — `fenceFor` of agentProfiles.ts for two
// workspace folders (each a real git repo with a `.vscode/`) and a fake home full of secrets, then
// the detected backend's `fenceAgent`, spawned by `spawnTree` — and tries every attack with its own
// fs/net and through its shell. The oracle is the host: what landed on disk, what a listener
// received, which processes are left; the probe's own report only says how each attempt failed.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import { FencedConfigGuard } from "../../../extension/agent/configGuard";
import { workDirOf } from "../../../sandbox/agentFence";
import type { WrappedCommand } from "../../../sandbox/types";
import { asWho } from "./fixture";
import {
  fenceSetup,
  MARK,
  PARENT_SECRETS,
  AGENT_KEY,
  SECRETS,
  fx,
  skip,
  world,
  startProbe,
  resultOf,
  listen,
  read,
  failed,
  type ProbeResult,
  type World,
  type Listener,
} from "./agentFenceWorld";

fenceSetup();

describe(`I-118: a third-party agent's whole process tree inside the fence (bubblewrap, ${asWho})`, () => {
  let w: World;
  let r: ProbeResult;
  let out = "";
  let wrapped: WrappedCommand;
  let guard: FencedConfigGuard;
  const etcFile = `/etc/manifold-agent-fence-${process.pid}`;
  const listeners: Listener[] = [];
  let unixOutside = "";
  let unixInside = "";
  let tcp = "";
  const before_: Record<string, string | undefined> = {};

  before(async () => {
    if (skip) return;
    w = world();
    // A symlink the host (or an earlier unconfined run) left in the folder, pointing outside.
    fs.symlinkSync(w.outside, path.join(w.a, "link-out"));
    const ul = await listen(path.join(fx.dir("run"), "agent.sock"));
    const il = await listen(path.join(w.a, "host.sock"));
    const tl = await listen("127.0.0.1:0");
    listeners.push(ul, il, tl);
    [unixOutside, unixInside, tcp] = [ul.address, il.address, tl.address];
    const state = path.join(w.home, ".probe-agent");
    const tmp = w.fence.tmpDir;
    for (const root of [w.a, w.b])
      for (const rel of [".git/config", ".vscode/settings.json"]) before_[path.join(root, rel)] = read(path.join(root, rel));
    const writes: Record<string, string> = {
      "folder A": path.join(w.a, "landed.txt"),
      "folder B": path.join(w.b, "landed.txt"),
      "state dir": path.join(state, "landed.txt"),
      TMPDIR: path.join(tmp, "landed.txt"),
      "sibling dir": path.join(w.outside, "pwned"),
      "fake home": path.join(w.home, "pwned"),
      "/etc": etcFile,
      "hidden ~/.ssh": path.join(w.home, ".ssh", "authorized_keys"),
      "storage dir": path.join(w.storage, "pwned"),
      "through a host-made symlink to outside": path.join(w.a, "link-out", "through-host"),
    };
    for (const [name, root] of [
      ["A", w.a],
      ["B", w.b],
    ] as const) {
      writes[`${name} .git/hooks/pre-commit`] = path.join(root, ".git", "hooks", "pre-commit");
      writes[`${name} .git/config`] = path.join(root, ".git", "config");
      writes[`${name} .vscode/settings.json`] = path.join(root, ".vscode", "settings.json");
      writes[`${name} x.code-workspace`] = path.join(root, "x.code-workspace");
      writes[`${name} new .claude/settings.json`] = path.join(root, ".claude", "settings.json");
    }
    const plan = {
      writes,
      reads: {
        "~/.ssh/id_x": path.join(w.home, ".ssh", "id_x"),
        "~/.aws/credentials": path.join(w.home, ".aws", "credentials"),
        "~/.netrc": path.join(w.home, ".netrc"),
        "~/.codex/auth.json": path.join(w.home, ".codex", "auth.json"),
        "storage dir": path.join(w.storage, "sessions.jsonl"),
        control: path.join(w.home, "notes.txt"),
      },
      renames: {
        "folder A → sibling dir": [path.join(w.a, "mv-src"), path.join(w.outside, "mv-dst")],
        "TMPDIR → fake home": [path.join(tmp, "mv-src"), path.join(w.home, "mv-dst")],
      },
      symlinks: { "agent-made symlink to outside": [path.join(w.a, "agent-link"), w.outside] },
      privilegedDir: path.join(w.a, "mnt"),
      sockets: [unixOutside, unixInside, tcp],
    };
    // The extension's guard of missing config entries, as AgentFencing sets it up when the agent starts fenced.
    guard = new FencedConfigGuard([w.a, w.b], path.join(w.storage, "held-config"));
    const started = startProbe(w, plan);
    wrapped = started.wrapped;
    const { exitCode } = await started.p.ended;
    out = started.output();
    assert.equal(exitCode, 0, out);
    r = resultOf(out);
  });
  after(async () => {
    for (const l of listeners) await l.close();
    fs.rmSync(etcFile, { force: true });
  });

  it("I-118: writes in both workspace folders, the agent's state dir and its TMPDIR land", (t) => {
    if (skip) return t.skip(skip);
    for (const name of ["folder A", "folder B", "state dir", "TMPDIR"]) {
      const b = r.writes[name];
      assert.ok(b, name);
      assert.equal(b.node, "ok", `${name}: ${JSON.stringify(b)}`);
      assert.equal(b.shell.code, 0, `${name}: ${JSON.stringify(b)}`);
    }
    assert.equal(read(path.join(w.a, "landed.txt")), `${MARK} shell\n`);
    assert.equal(read(path.join(w.b, "landed.txt")), `${MARK} shell\n`);
    assert.equal(read(path.join(w.home, ".probe-agent", "landed.txt")), `${MARK} shell\n`);
    assert.equal(read(path.join(w.fence.tmpDir, "landed.txt")), `${MARK} shell\n`);
    assert.equal(r.env.node.TMPDIR, fs.realpathSync(w.fence.tmpDir), "TMPDIR is the agent's temp area");
    assert.equal(r.cwd, fs.realpathSync(workDirOf(w.fence)), "the agent starts in its first folder");
  });

  it("I-118: writes outside every writable place fail — a sibling dir, the fake home, /etc, hidden dirs, storage, through symlinks, by rename", (t) => {
    if (skip) return t.skip(skip);
    for (const name of ["sibling dir", "fake home", "/etc", "hidden ~/.ssh", "storage dir", "through a host-made symlink to outside"]) {
      const b = r.writes[name];
      assert.ok(b && failed(b), `${name} was written: ${JSON.stringify(b)}`);
    }
    for (const [name, b] of [...Object.entries(r.renames), ...Object.entries(r.symlinks)])
      assert.ok(failed(b), `${name} landed: ${JSON.stringify(b)}`);
    // The host's view: nothing new outside, whatever the probe said.
    assert.deepEqual(fs.readdirSync(w.outside), [], "the sibling dir changed");
    assert.deepEqual(
      fs.readdirSync(w.home).sort(),
      [".aws", ".cache", ".codex", ".config", ".local", ".netrc", ".probe-agent", ".ssh", "notes.txt"],
      "the fake home changed",
    );
    assert.deepEqual(fs.readdirSync(path.join(w.home, ".ssh")), ["id_x"], "~/.ssh changed");
    assert.deepEqual(fs.readdirSync(w.storage), ["sessions.jsonl"], "the storage dir changed");
    assert.equal(fs.existsSync(etcFile), false, "/etc was written");
  });

  it("I-118: secrets of the home folder, another agent's credentials and the storage dir are not readable", (t) => {
    if (skip) return t.skip(skip);
    for (const secret of Object.values(SECRETS)) assert.doesNotMatch(out, new RegExp(secret), `${secret} was read`);
    for (const [name, b] of Object.entries(r.reads)) {
      if (name === "control") continue;
      // A hidden dir is empty (ENOENT); a hidden file is /dev/null bound on a nodev mount (EACCES).
      assert.ok(b.node === "ENOENT" || b.node === "EACCES" || b.node === "", `${name}: ${JSON.stringify(b)}`);
      assert.notEqual(b.shell.code, 0, `${name}: ${JSON.stringify(b)}`);
    }
    // Reads work at all: the control file in the same home is read by both.
    assert.equal(r.reads.control?.node, "READABLE-CONTROL\n");
    assert.equal(r.reads.control?.shell.out, "READABLE-CONTROL");
  });

  it("I-118: git hooks and config and the protected config (I-112) of each folder are read-only", (t) => {
    if (skip) return t.skip(skip);
    for (const [name, root] of [
      ["A", w.a],
      ["B", w.b],
    ] as const) {
      for (const rel of [".git/hooks/pre-commit", ".git/config", ".vscode/settings.json"]) {
        const b = r.writes[`${name} ${rel}`];
        assert.ok(b && failed(b), `${name} ${rel} was written: ${JSON.stringify(b)}`);
      }
      assert.equal(fs.existsSync(path.join(root, ".git", "hooks", "pre-commit")), false, `${name}: a hook was planted`);
      assert.equal(read(path.join(root, ".git", "config")), before_[path.join(root, ".git/config")], `${name}: .git/config changed`);
      assert.equal(
        read(path.join(root, ".vscode", "settings.json")),
        before_[path.join(root, ".vscode/settings.json")],
        `${name}: .vscode/settings.json changed`,
      );
    }
  });

  // A missing config entry has nothing to bind, so the fence lets the agent create it; the
  // extension's guard (extension/agent/configGuard.ts) moves it out of the folder after the turn.
  it("I-118, I-112: a new *.code-workspace or .claude/ the agent creates at a folder's top level is moved out of the folder after its turn", (t) => {
    if (skip) return t.skip(skip);
    const held = guard.check();
    assert.deepEqual(
      held.map((h) => `${path.basename(h.folder)}/${h.name}`).sort(),
      [
        `${path.basename(w.a)}/.claude`,
        `${path.basename(w.a)}/x.code-workspace`,
        `${path.basename(w.b)}/.claude`,
        `${path.basename(w.b)}/x.code-workspace`,
      ].sort(),
    );
    for (const h of held) {
      assert.equal(fs.existsSync(path.join(h.folder, h.name)), false, `${h.name} is still in ${h.folder}`);
      assert.ok(fs.existsSync(h.heldAt), `${h.name} was lost instead of held`);
    }
    // The folders' own config, there before the agent started, stays where it is.
    for (const root of [w.a, w.b]) assert.ok(fs.existsSync(path.join(root, ".vscode", "settings.json")));
    assert.deepEqual(guard.check(), [], "a second check holds nothing more");
  });

  it("I-118: no capability and no_new_privs, for the agent and its shell, and mount/unshare fail", (t) => {
    if (skip) return t.skip(skip);
    for (const who of ["node", "shell"] as const) {
      const s = r.status[who];
      for (const cap of ["CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"]) assert.equal(s[cap], "0000000000000000", `${who} ${cap}`);
      assert.equal(s.NoNewPrivs, "1", `${who} NoNewPrivs`);
    }
    assert.deepEqual(Object.keys(r.privileged).sort(), [
      "mountBind",
      "mountTmpfs",
      "remountRw",
      "unshareMapRoot",
      "unshareMount",
      "unshareUser",
    ]);
    for (const [name, a] of Object.entries(r.privileged)) assert.notEqual(a.code, 0, `${name} succeeded: ${a.out}`);
    assert.deepEqual(fs.readdirSync(path.join(w.a, "mnt")), [], "something was mounted or written at the mount point");
  });

  it("I-118: unix sockets are refused outside and inside the folder; TCP to loopback works (network stays on)", (t) => {
    if (skip) return t.skip(skip);
    const [outsideL, insideL, tcpL] = listeners;
    assert.ok(outsideL && insideL && tcpL);
    for (const [where, l] of [
      ["outside", outsideL],
      ["inside the folder", insideL],
    ] as const) {
      const s = r.sockets[l.address];
      assert.ok(s, where);
      assert.match(s.node, /^(EACCES|EPERM)$/, `${where}, node: ${JSON.stringify(s)}`);
      assert.doesNotMatch(s.curl?.out ?? "", /HELLO|rc=(0|52|56)\b/, `${where}, curl: ${JSON.stringify(s)}`);
      assert.deepEqual(l.seen(), { connections: 0, data: "" }, `${where}: the host listener was reached`);
    }
    const s = r.sockets[tcpL.address];
    assert.ok(s);
    assert.equal(s.node, "connected: HELLO-FROM-HOST", JSON.stringify(s));
    assert.equal(s.devTcp?.out, "HELLO-FROM-HOST", JSON.stringify(s));
    assert.equal(tcpL.seen().connections, 3, JSON.stringify(tcpL.seen()));
    assert.match(tcpL.seen().data, new RegExp(`${MARK} node`));
    assert.match(tcpL.seen().data, /PROBE devtcp/);
  });

  it("I-118: the agent's environment is exactly the command's env plus TMPDIR, nothing of the extension's", (t) => {
    if (skip) return t.skip(skip);
    const expected = { ...w.env, TMPDIR: fs.realpathSync(w.fence.tmpDir) };
    assert.deepEqual(wrapped.env, expected, "the spawned bwrap's own environment");
    const { PWD: _pwd, ...seen } = r.env.node; // the start-up shell's working dir, set by sh itself
    assert.deepEqual(seen, expected);
    for (const name of Object.keys(PARENT_SECRETS)) assert.ok(!r.env.shell.includes(name), `${name} reached the shell`);
    assert.ok(!wrapped.args.join("\0").includes(AGENT_KEY), "the agent's key is in bwrap's argv");
    for (const value of Object.values(PARENT_SECRETS)) {
      assert.doesNotMatch(out, new RegExp(value));
      assert.ok(!wrapped.args.join("\0").includes(value), "a parent secret is in bwrap's argv");
    }
  });
});

/** The probe's tree (held open), then the process group killed as the extension kills an agent. */
