// Real bubblewrap runs. On Linux these FAIL (not skip) when bubblewrap is missing or broken.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import { releaseDescriptors } from "../../../sandbox/bindFds";
import { detectSandbox } from "../../../sandbox/detect";
import type { CommandSandbox, SandboxContext } from "../../../sandbox/types";
import { sessionContext } from "./fixture";
import { runIn } from "./run";

const linux = process.platform === "linux";
const KEY = "sk-manifold-test-0123456789abcdef";
let sb: CommandSandbox;
let base: string;
let rootA: string;
let rootB: string;
let outside: string;
const silent = () => {};

const ctxFor = (id: string, root: string, extra: Partial<SandboxContext> = {}): SandboxContext => sessionContext(base, id, root, extra);

before(async () => {
  sb = await detectSandbox(
    { ...process.env, OPENAI_API_KEY: KEY, MANIFOLD_TEST_TOKEN: KEY, MY_SECRET: KEY, MANIFOLD_SANDBOX: "" },
    { log: silent },
  );
  // Outside the host /tmp on purpose: /tmp is private inside the sandbox, which would hide the fixtures.
  base = fs.realpathSync(fs.mkdtempSync(path.join(fs.existsSync("/var/tmp") ? "/var/tmp" : os.tmpdir(), "mf-bwrap-")));
  rootA = path.join(base, "a");
  rootB = path.join(base, "b");
  outside = path.join(base, "outside");
  for (const d of [rootA, rootB, outside]) fs.mkdirSync(d);
  fs.writeFileSync(path.join(outside, "read-me.txt"), "outside content\n");
});
after(() => fs.rmSync(base, { recursive: true, force: true }));

describe("bubblewrap backend", { skip: !linux && "Linux only" }, () => {
  it("detects bubblewrap on Linux (fails, not skips, when bwrap is missing or broken)", () => {
    assert.equal(sb.backend, "bubblewrap");
  });

  it("I-66: write inside succeeds; write, rm, mv and ln outside fail; a read outside succeeds", async () => {
    const ctx = ctxFor("s1", rootA);
    fs.writeFileSync(path.join(outside, "victim.txt"), "v");
    const r = await runIn(
      sb,
      ctx,
      [
        "echo in > inside.txt && echo W-IN-OK",
        `{ echo out > ${outside}/new.txt; } 2>/dev/null || echo W-OUT-DENIED`,
        `rm ${outside}/victim.txt 2>/dev/null || echo RM-DENIED`,
        `mv ${outside}/victim.txt ./stolen 2>/dev/null || echo MV-DENIED`,
        `ln ${outside}/victim.txt ./hl 2>/dev/null || echo LN-DENIED`,
        `cat ${outside}/read-me.txt`,
      ].join("; "),
    );
    assert.equal(r.out, "W-IN-OK\nW-OUT-DENIED\nRM-DENIED\nMV-DENIED\nLN-DENIED\noutside content\n");
    assert.equal(fs.readFileSync(path.join(rootA, "inside.txt"), "utf8"), "in\n");
    assert.equal(fs.existsSync(path.join(outside, "new.txt")), false);
    assert.equal(fs.existsSync(path.join(outside, "victim.txt")), true);
  });

  it("I-69: a symlink inside the root pointing outside cannot be written through", async () => {
    fs.symlinkSync(outside, path.join(rootA, "link"));
    const r = await runIn(sb, ctxFor("s1", rootA), "{ echo x > link/x; } 2>/dev/null || echo DENIED");
    assert.equal(r.out, "DENIED\n");
    assert.equal(fs.existsSync(path.join(outside, "x")), false);
  });

  it("I-72: concurrent commands of two sessions cannot write into each other's roots", async () => {
    const a = ctxFor("sa", rootA);
    const b = ctxFor("sb", rootB);
    const [ra, rb] = await Promise.all([
      runIn(sb, a, `echo a > mine.txt; { echo a > ${rootB}/from-a.txt; } 2>/dev/null || echo A-DENIED`),
      runIn(sb, b, `echo b > mine.txt; { echo b > ${rootA}/from-b.txt; } 2>/dev/null || echo B-DENIED`),
    ]);
    assert.deepEqual([ra.out, rb.out], ["A-DENIED\n", "B-DENIED\n"]);
    assert.deepEqual([fs.existsSync(path.join(rootB, "from-a.txt")), fs.existsSync(path.join(rootA, "from-b.txt"))], [false, false]);
    assert.deepEqual(
      [fs.readFileSync(path.join(rootA, "mine.txt"), "utf8"), fs.readFileSync(path.join(rootB, "mine.txt"), "utf8")],
      ["a\n", "b\n"],
    );
  });

  it("I-76: /tmp is the session's own area, kept across commands, invisible to another session", async () => {
    const a = ctxFor("ta", rootA);
    const b = ctxFor("tb", rootB);
    await runIn(sb, a, "echo secret-of-a > /tmp/secret.txt");
    const again = await runIn(sb, a, "cat /tmp/secret.txt; echo TMPDIR=$TMPDIR");
    assert.equal(again.out, "secret-of-a\nTMPDIR=/tmp\n");
    assert.equal(fs.readFileSync(path.join(a.tmpDir, "secret.txt"), "utf8"), "secret-of-a\n");
    const fromB = await runIn(
      sb,
      b,
      `cat /tmp/secret.txt 2>/dev/null || echo NO-SUCH; cat ${a.tmpDir}/secret.txt 2>/dev/null || echo HIDDEN; ls /tmp`,
    );
    assert.equal(fromB.out, "NO-SUCH\nHIDDEN\n");
  });

  it("network is off by default: a loopback listener in the test process is unreachable; network on reaches it", async () => {
    const server = net.createServer((s) => s.end("hello-from-host\n"));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as net.AddressInfo).port;
    const probe = `{ exec 3<>/dev/tcp/127.0.0.1/${port}; } 2>/dev/null && head -1 <&3 || echo UNREACHABLE`;
    try {
      const off = await runIn(sb, ctxFor("n1", rootA), probe);
      const on = await runIn(sb, ctxFor("n1", rootA, { network: true }), probe);
      assert.deepEqual([off.out, on.out], ["UNREACHABLE\n", "hello-from-host\n"]);
    } finally {
      server.close();
    }
  });

  it("`.git/hooks/x` cannot be created and `.git/config` cannot be changed; other .git writes work", async () => {
    const root = path.join(base, "repo");
    fs.mkdirSync(path.join(root, ".git", "objects"), { recursive: true });
    fs.writeFileSync(path.join(root, ".git", "config"), "[core]\n");
    const r = await runIn(
      sb,
      ctxFor("g1", root),
      "{ echo evil > .git/hooks/x; } 2>/dev/null || echo HOOK-DENIED; { echo x >> .git/config; } 2>/dev/null || echo CONFIG-DENIED; echo o > .git/objects/o && echo OBJ-OK",
    );
    assert.equal(r.out, "HOOK-DENIED\nCONFIG-DENIED\nOBJ-OK\n");
    assert.equal(fs.existsSync(path.join(root, ".git", "hooks", "x")), false);
    assert.equal(fs.readFileSync(path.join(root, ".git", "config"), "utf8"), "[core]\n");
  });

  it("a repo without .git/config gets it masked read-only", async () => {
    const root = path.join(base, "repo2");
    fs.mkdirSync(path.join(root, ".git"), { recursive: true });
    const r = await runIn(sb, ctxFor("g2", root), "{ echo '[core] fsmonitor = evil' > .git/config; } 2>/dev/null || echo CONFIG-DENIED");
    assert.equal(r.out, "CONFIG-DENIED\n");
  });

  it("the root cannot be widened by a path like root/../", async () => {
    const r = await runIn(sb, ctxFor("w1", rootA), `{ echo x > ${rootA}/../widened.txt; } 2>/dev/null || echo DENIED`);
    assert.equal(r.out, "DENIED\n");
    assert.equal(fs.existsSync(path.join(base, "widened.txt")), false);
  });

  it("I-98: API keys, tokens and secrets of the server env never reach the command; /proc/<server>/environ is unreadable", async () => {
    const r = await runIn(sb, ctxFor("e1", rootA), `env; cat /proc/${process.pid}/environ 2>/dev/null || echo NO-ENVIRON`);
    assert.equal(r.out.includes(KEY), false);
    assert.match(r.out, /NO-ENVIRON\n$/);
    assert.doesNotMatch(r.out, /API_KEY|_TOKEN|SECRET/);
    const unconfined = await runIn(sb, ctxFor("e1", rootA), "env", true);
    assert.equal(unconfined.out.includes(KEY), false);
  });

  it("I-74: read-only mode writes nowhere except the session temp area", async () => {
    const ctx = ctxFor("ro", rootA, { mode: "read-only" });
    const r = await runIn(sb, ctx, "{ echo x > ro.txt; } 2>/dev/null || echo ROOT-DENIED; echo t > /tmp/t && echo TMP-OK; cat mine.txt");
    assert.equal(r.out, "ROOT-DENIED\nTMP-OK\na\n");
    assert.equal(fs.existsSync(path.join(rootA, "ro.txt")), false);
  });

  it("an unconfined (approved) command can write outside the root", async () => {
    const r = await runIn(sb, ctxFor("u1", rootA), `echo x > ${outside}/approved.txt && echo OK`, true);
    assert.equal(r.out, "OK\n");
    assert.equal(fs.readFileSync(path.join(outside, "approved.txt"), "utf8"), "x\n");
  });

  it("a root under /tmp stays visible and writable although /tmp is private", async () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join("/tmp", "mf-bwrap-root-")));
    try {
      const r = await runIn(sb, ctxFor("v1", root), "pwd; echo x > f && cat f; ls /tmp");
      // (bwrap creates the root's mount point inside the session's own /tmp)
      assert.equal(r.out, `${root}\nx\n${path.basename(root)}\n`);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it("the argv is what reference/sandbox.md describes (namespaces, /tmp before the root, clean env)", () => {
    const w = sb.wrap("true", ctxFor("argv", rootA), { cwd: rootA, unconfined: false });
    releaseDescriptors(w); // inspected, never spawned
    const a = w.args;
    for (const flag of [
      "--new-session",
      "--die-with-parent",
      "--unshare-user",
      "--unshare-pid",
      "--unshare-ipc",
      "--unshare-uts",
      "--unshare-net",
      "--clearenv",
    ])
      assert.ok(a.includes(flag), flag);
    const tmpAt = a.indexOf("/tmp");
    const rootAt = a.lastIndexOf(rootA);
    assert.ok(tmpAt > 0 && rootAt > tmpAt, "session tmp is bound at /tmp before the root");
    // The command runs after the mount check (mountCheck.ts), which is given the writable mount points.
    const tail = a.slice(a.indexOf("--"));
    assert.deepEqual(tail.slice(0, 3), ["--", "/bin/bash", "-c"]);
    assert.deepEqual(tail.slice(4, 7), ["manifold-sandbox", "/bin/bash", "true"]);
    const tmpfs = a.flatMap((x, i) => (x === "--tmpfs" ? [a[i + 1]] : []));
    assert.deepEqual(tail.slice(7).sort(), ["/tmp", rootA, ...tmpfs].sort());
    for (const flag of ["--cap-drop", "--seccomp"]) assert.ok(a.includes(flag), flag);
    // The absolute bwrap; with the network off the seccomp filter is the child's fd 3 (the first of `fds`).
    const bwrap = w.file;
    assert.ok(path.isAbsolute(bwrap));
    assert.equal(execFileSync(bwrap, ["--version"]).toString().startsWith("bubblewrap"), true);
    assert.equal(a[a.indexOf("--seccomp") + 1], "3");
    // Bind sources go by descriptor (I-112): the root is `--bind-fd N root`, never a path bind.
    assert.equal(a[a.indexOf(rootA) - 2], "--bind-fd");
    assert.equal(a.includes("--bind"), false);
  });
});

describe("sandbox detection overrides", () => {
  it("I-73: MANIFOLD_SANDBOX=none gives the `none` backend, which refuses to run a confined command", async () => {
    const lines: string[] = [];
    const none = await detectSandbox({ ...process.env, MANIFOLD_SANDBOX: "none" }, { log: (l) => lines.push(l) });
    assert.equal(none.backend, "none");
    assert.match(lines.join("\n"), /backend: none/);
    const ctx = ctxFor("x", rootA);
    assert.throws(() => none.wrap("touch should-not-exist", ctx, { cwd: rootA, unconfined: false }), /No command sandbox is available/);
    assert.equal(fs.existsSync(path.join(rootA, "should-not-exist")), false);
  });

  it(
    "a bwrap missing from PATH and the system dirs gives `none` when bubblewrap is demanded",
    { skip: fs.existsSync("/usr/bin/bwrap") && "bwrap is in /usr/bin here" },
    async () => {
      const none = await detectSandbox({ PATH: "/nonexistent", MANIFOLD_SANDBOX: "bubblewrap" }, { log: silent });
      assert.equal(none.backend, "none");
    },
  );

  it("logs the chosen backend to the given log (stderr by default)", async () => {
    const lines: string[] = [];
    const s = await detectSandbox(process.env, { log: (l) => lines.push(l) });
    assert.deepEqual(lines.length, 1);
    assert.match(lines[0] ?? "", new RegExp(`^\\[sandbox\\] backend: ${s.backend}`));
  });
});

describe("bubblewrap: hidden host directories", { skip: !linux && "Linux only" }, () => {
  it("directories passed as `hide` (the data dir with every session's log) are empty inside the sandbox", async () => {
    const dataDir = path.join(base, "data");
    fs.mkdirSync(path.join(dataDir, ".tmp"), { recursive: true });
    fs.writeFileSync(path.join(dataDir, "other-session.jsonl"), "transcript of another session\n");
    const hidden = await detectSandbox({ ...process.env, MANIFOLD_SANDBOX: "" }, { log: silent, hide: [dataDir] });
    const ctx = ctxFor("h1", rootA, { tmpDir: path.join(dataDir, ".tmp", "h1") });
    const r = await runIn(
      hidden,
      ctx,
      `ls -A ${dataDir}; cat ${dataDir}/other-session.jsonl 2>/dev/null || echo HIDDEN; echo own > /tmp/own && cat /tmp/own`,
    );
    assert.equal(r.out, ".tmp\nHIDDEN\nown\n"); // only the mount point of the (masked) temp areas
  });
});
