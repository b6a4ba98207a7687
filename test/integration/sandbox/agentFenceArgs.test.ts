// I-118, the bwrap half of the agent fence as argv: where each hidden entry is masked relative to
// the writable binds, each folder's git and config protection, the readable exceptions, the
// privileges and the checked tail; and `settleFence`, which every backend runs first. Real temp
// dirs (the binds open verified descriptors), nothing spawned.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import { execLine, settleFence, writableOf } from "../../../sandbox/agentFence";
import { BindFds } from "../../../sandbox/bindFds";
import { bwrapFenceArgs } from "../../../sandbox/bwrap";
import { protectionPlan } from "../../../sandbox/configPaths";
import { MOUNT_CHECK } from "../../../sandbox/mountCheck";
import type { AgentCommand, AgentFence } from "../../../sandbox/types";

const linux = process.platform === "linux";
let base: string;
const at = (...p: string[]) => path.join(base, ...p);

before(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "mf-fence-")));
});
after(() => base && fs.rmSync(base, { recursive: true, force: true }));

describe("I-118: the bwrap fence argv", { skip: !linux && "bwrap binds by /proc/self/fd descriptors (Linux)" }, () => {
  const cmd: AgentCommand = {
    command: "/opt/agent/bin/agent",
    args: ["--acp", "it's"],
    env: { PATH: "/usr/bin", AGENT_API_KEY: "sk-fence-test-0123" },
  };
  let fence: AgentFence;
  let args: string[];
  let fds: BindFds;

  before(() => {
    // A folder with a git repo and a config folder, a folder nested in it, state, and hidden
    // entries of every kind: a dir holding the temp area, a dir holding nothing writable, a file.
    for (const d of ["ws/.git/hooks", "ws/.git/objects", "ws/.git/refs", "ws/.vscode", "ws/sub", "home/.ssh", "storage/agents/x"])
      fs.mkdirSync(at(d), { recursive: true });
    fs.writeFileSync(at("ws/.git/HEAD"), "ref: refs/heads/main\n");
    fs.writeFileSync(at("ws/.git/config"), "[core]\n");
    fs.writeFileSync(at("home/.netrc"), "machine x password y\n");
    fs.writeFileSync(at("home/.agent.json"), "{}\n");
    fence = settleFence({
      folders: [at("ws/sub"), at("ws")],
      stateDirs: [at("home/.agent")],
      stateFiles: [at("home/.agent.json")],
      readable: [at("storage/agents/x")],
      tmpDir: at("storage/tmp/agent"),
      hidden: [at("storage"), at("home/.ssh"), at("home/.netrc")],
    });
    fds = new BindFds();
    args = bwrapFenceArgs(cmd, fence, fds, { disableUserns: true, seccomp: true });
  });
  after(() => fds.close());

  /** Index of the option `opt` whose destination (last operand) is `dest`. */
  const idx = (opt: string, dest: string): number => {
    const width = opt === "--tmpfs" || opt === "--remount-ro" ? 1 : 2;
    const i = args.findIndex((a, j) => a === opt && args[j + width] === dest);
    assert.notEqual(i, -1, `${opt} … ${dest} missing`);
    return i;
  };
  const dash = () => args.indexOf("--");
  const binds = () => writableOf(fence).map((w) => idx("--bind-fd", w));

  it("I-118: a hidden dir holding a writable entry is masked before the writable binds, the others after them", () => {
    assert.ok(idx("--tmpfs", at("storage")) < Math.min(...binds()));
    assert.ok(idx("--tmpfs", at("home/.ssh")) > Math.max(...binds()));
    // A hidden file reads as /dev/null, bound after the writable binds too.
    assert.ok(idx("--ro-bind-fd", at("home/.netrc")) > Math.max(...binds()));
  });

  it("I-118: every hidden dir ends read-only (after every mask and bind), a hidden file gets no remount", () => {
    const lastMount = Math.max(...args.slice(0, dash()).flatMap((a, i) => (/^--(tmpfs|bind-fd|ro-bind-fd)$/.test(a) ? [i] : [])));
    for (const h of [at("storage"), at("home/.ssh")]) assert.ok(idx("--remount-ro", h) > lastMount, h);
    assert.equal(
      args.some((a, i) => a === "--remount-ro" && args[i + 1] === at("home/.netrc")),
      false,
    );
  });

  it("I-118: each folder is bound writable, then its git metadata and protected config read-only over it (I-112)", () => {
    for (const root of [at("ws"), at("ws/sub")]) {
      const rootAt = idx("--bind-fd", root);
      const plan = protectionPlan(root);
      for (const p of plan.pinned) assert.ok(idx("--bind-fd", p) > rootAt, p);
      for (const p of plan.readOnly) assert.ok(idx("--ro-bind-fd", p) > rootAt, p);
    }
    const ws = protectionPlan(at("ws"));
    for (const p of [".git/hooks", ".git/config", ".vscode"]) assert.ok(ws.readOnly.includes(at("ws", p)), p);
    // The outer folder first: the nested one's own bind comes after the outer one's plan.
    assert.ok(idx("--bind-fd", at("ws/sub")) > idx("--ro-bind-fd", at("ws/.vscode")));
  });

  it("I-118: a readable dir inside a hidden one is bound back read-only after the masks", () => {
    const r = idx("--ro-bind-fd", at("storage/agents/x"));
    assert.ok(r > idx("--tmpfs", at("storage")) && r > idx("--tmpfs", at("home/.ssh")));
    assert.equal(
      args.some((a, i) => a === "--bind-fd" && args[i + 2] === at("storage/agents/x")),
      false,
    );
  });

  it("I-118: no capability, no nested user namespace, the network kept, unix sockets refused by seccomp", () => {
    const head = args.slice(0, dash());
    assert.equal(head[head.indexOf("--cap-drop") + 1], "ALL");
    assert.ok(head.includes("--disable-userns"));
    assert.ok(head.includes("--unshare-user") && head.includes("--unshare-pid"));
    assert.equal(head.includes("--unshare-net"), false);
    const s = head.indexOf("--seccomp");
    assert.match(head[s + 1] ?? "", /^\d+$/);
    // Without the filter (an arch it does not know) there is no --seccomp at all.
    const plain = new BindFds();
    try {
      assert.equal(bwrapFenceArgs(cmd, fence, plain, { disableUserns: false, seccomp: false }).includes("--seccomp"), false);
    } finally {
      plain.close();
    }
  });

  it("I-118: the agent runs in its first folder, its env never in the argv, after the mount check, as exec of its quoted argv", () => {
    assert.equal(args[args.indexOf("--chdir") + 1], fence.folders[0] ?? fence.tmpDir);
    // The env reaches bwrap through its own environment (the spawner's): every process of the user can read an argv.
    assert.equal(
      args.some((a) => a.includes("sk-fence-test-0123")),
      false,
    );
    const tail = args.slice(dash());
    assert.deepEqual(tail.slice(0, 7), ["--", "/bin/sh", "-c", MOUNT_CHECK, "manifold-sandbox", "/bin/sh", execLine(cmd)]);
    assert.equal(execLine(cmd), `exec '/opt/agent/bin/agent' '--acp' 'it'\\''s'`);
    // What the mount check may find writable: the writable entries and the pins, never a hidden one.
    const dests = tail.slice(7);
    for (const w of writableOf(fence)) assert.ok(dests.includes(w), w);
    for (const h of fence.hidden) assert.equal(dests.includes(h), false, h);
    // The quoting survives a real shell.
    const r = spawnSync("/bin/sh", ["-c", execLine({ command: "/usr/bin/printf", args: ["%s|", "it's", "$HOME", "a b"], env: {} })]);
    assert.equal(r.stdout.toString(), "it's|$HOME|a b|");
  });
});

describe("I-118: settleFence", () => {
  it("I-118: creates the state dirs and the temp area, keeps only existing state files, real paths deduplicated", () => {
    fs.mkdirSync(at("s/real"), { recursive: true });
    fs.symlinkSync(at("s/real"), at("s/link"));
    fs.writeFileSync(at("s/state.json"), "{}");
    const f = settleFence({
      folders: [at("s/link"), at("s/real")],
      stateDirs: [at("s/new/deep/.agent")],
      stateFiles: [at("s/state.json"), at("s/missing.json"), at("s/real")],
      tmpDir: at("s/tmp/agent"),
      hidden: [],
    });
    assert.ok(fs.statSync(at("s/new/deep/.agent")).isDirectory());
    assert.equal(fs.statSync(at("s/tmp/agent")).mode & 0o777, 0o700);
    assert.deepEqual(f.folders, [at("s/real")]);
    assert.deepEqual(f.stateFiles, [at("s/state.json")]);
    assert.equal(f.tmpDir, at("s/tmp/agent"));
  });

  it("I-118: drops missing hidden entries and `/`, sorts folders outer-first", () => {
    fs.mkdirSync(at("h/a/b/c"), { recursive: true });
    fs.mkdirSync(at("h/secret"));
    const f = settleFence({
      folders: [at("h/a/b/c"), at("h/a"), at("h/a/b")],
      stateDirs: [],
      tmpDir: at("h/tmp"),
      hidden: [at("h/secret"), at("h/missing"), "/"],
    });
    assert.deepEqual(f.folders, [at("h/a"), at("h/a/b"), at("h/a/b/c")]);
    assert.deepEqual(f.hidden, [at("h/secret")]);
  });
});
