// The Landlock fallback backend, forced with MANIFOLD_SANDBOX=landlock. Optional: skipped when the
// kernel has no Landlock (bubblewrap is the backend CI requires, see bwrap.test.ts).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import { detectSandbox, probeLandlock } from "../../../sandbox/detect";
import { createLandlockSandbox } from "../../../sandbox/landlock";
import { LANDLOCK_HELPER_SOURCE } from "../../../sandbox/landlockHelper";
import { spawnTree } from "../../../sandbox/processTree";
import type { AgentFence, CommandSandbox, SandboxContext } from "../../../sandbox/types";
import { sessionContext } from "./fixture";
import { runIn } from "./run";

const KEY = "sk-landlock-test-key-0123";
const available =
  process.platform === "linux" &&
  fs.existsSync("/usr/bin/python3") &&
  spawnSync("/usr/bin/python3", ["-I", "-c", LANDLOCK_HELPER_SOURCE, "0", "-", "/nonexistent", "--", "/bin/true"]).status === 0;
let sb: CommandSandbox;
let base: string;
let rootA: string;
let rootB: string;

const ctxFor = (id: string, root: string, extra: Partial<SandboxContext> = {}): SandboxContext => sessionContext(base, id, root, extra);

describe("Landlock backend", { skip: !available && "needs Linux with Landlock and /usr/bin/python3" }, () => {
  before(async () => {
    assert.deepEqual(await probeLandlock("/usr/bin/python3"), { ok: true, reason: "" });
    sb = await detectSandbox({ ...process.env, MANIFOLD_SANDBOX: "landlock", OPENAI_API_KEY: KEY }, { log: () => {} });
    base = fs.realpathSync(fs.mkdtempSync(path.join("/var/tmp", "mf-landlock-")));
    rootA = path.join(base, "a");
    rootB = path.join(base, "b");
    fs.mkdirSync(rootA);
    fs.mkdirSync(rootB);
  });
  after(() => base && fs.rmSync(base, { recursive: true, force: true }));

  it("is selected when forced", () => {
    assert.equal(sb.backend, "landlock");
  });

  it("I-66 I-72: writes only inside the root and the session temp area; reads anywhere", async () => {
    const r = await runIn(
      sb,
      ctxFor("a", rootA),
      `echo a > own.txt && echo OWN; { echo a > ${rootB}/x; } 2>/dev/null || echo OTHER-DENIED; echo t > "$TMPDIR/t" && echo TMP-OK; head -c0 /etc/hostname && echo READ-OK; mv own.txt ${rootB}/ 2>/dev/null || echo MV-DENIED`,
    );
    assert.equal(r.out, "OWN\nOTHER-DENIED\nTMP-OK\nREAD-OK\nMV-DENIED\n");
    assert.equal(fs.existsSync(path.join(rootB, "x")), false);
  });

  it("I-74: read-only writes only the session temp area", async () => {
    const r = await runIn(
      sb,
      ctxFor("ro", rootA, { mode: "read-only" }),
      `{ echo x > ro.txt; } 2>/dev/null || echo DENIED; echo t > "$TMPDIR/t" && echo TMP-OK`,
    );
    assert.equal(r.out, "DENIED\nTMP-OK\n");
  });

  it("no capability is left to a command, root or not", async () => {
    const r = await runIn(sb, ctxFor("c", rootA), `grep -E '^Cap(Inh|Prm|Eff|Amb):' /proc/self/status | tr -d '\t'`);
    assert.equal(r.out, "CapInh:0000000000000000\nCapPrm:0000000000000000\nCapEff:0000000000000000\nCapAmb:0000000000000000\n");
  });

  it("TCP is blocked unless network is allowed; no key in the environment", async () => {
    const server = net.createServer((s) => s.end("host\n"));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as net.AddressInfo).port;
    const probe = `{ exec 3<>/dev/tcp/127.0.0.1/${port}; } 2>/dev/null && head -1 <&3 || echo BLOCKED; env | grep -c ${KEY} || true`;
    try {
      const off = await runIn(sb, ctxFor("n", rootA), probe);
      const on = await runIn(sb, ctxFor("n", rootA, { network: true }), probe);
      assert.deepEqual([off.out, on.out], ["BLOCKED\n0\n", "host\n0\n"]);
    } finally {
      server.close();
    }
  });

  it("with the network off no socket is created, unix ones included; a stream socketpair still works", async () => {
    const sock = path.join(base, "host.sock");
    let connections = 0;
    const server = net.createServer((s) => (connections++, s.end()));
    await new Promise<void>((r) => server.listen(sock, r));
    const py = (code: string) => `/usr/bin/python3 -c '${code}' 2>/dev/null || echo REFUSED`;
    try {
      const r = await runIn(
        sb,
        ctxFor("u", rootA),
        [
          py(`import socket; s=socket.socket(socket.AF_UNIX); s.connect("${sock}"); print("CONNECTED")`),
          py(`import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"x", ("127.0.0.1", 9)); print("UDP SENT")`),
          py(`import socket; a,b=socket.socketpair(); a.sendall(b"x"); print("pair", b.recv(1).decode())`),
        ].join("; "),
      );
      assert.equal(r.out, "REFUSED\nREFUSED\npair x\n");
      assert.equal(connections, 0);
    } finally {
      server.close();
    }
  });

  describe("I-118: a fenced agent", () => {
    let fence: AgentFence;
    let ws: string;
    let state: string;
    let outside: string;
    before(() => {
      const d = (name: string) => (fs.mkdirSync(path.join(base, name), { recursive: true }), path.join(base, name));
      ws = d("agent-ws");
      state = path.join(base, "agent-home", ".agent");
      outside = d("agent-outside");
      fs.writeFileSync(path.join(base, "agent-state.json"), "{}\n");
      fence = {
        folders: [ws],
        stateDirs: [state],
        stateFiles: [path.join(base, "agent-state.json")],
        tmpDir: path.join(base, "agent-tmp"),
        hidden: [],
      };
    });

    /** Runs `script` with bash as the whole agent process in `fence`. */
    async function runFenced(script: string): Promise<string> {
      const wrapped = sb.fenceAgent!(
        { command: "/bin/bash", args: ["-c", script], env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } },
        fence,
      );
      let out = "";
      await spawnTree(wrapped, (c) => (out += c)).exited;
      return out;
    }

    it("I-118: writes land in a folder, a state dir (created), a state file and its temp area (its TMPDIR), with the first folder its cwd, and nowhere else", async () => {
      const out = await runFenced(
        [
          `echo w > ${ws}/own.txt && echo FOLDER`,
          `echo s > ${state}/auth.json && echo STATE`,
          `echo '{"a":1}' > ${base}/agent-state.json && echo STATE-FILE`,
          `echo t > "$TMPDIR/t" && [ "$PWD" = "${ws}" ] && echo TMP`,
          `{ echo x > ${outside}/x; } 2>/dev/null || echo OUTSIDE-DENIED`,
          `{ echo x > ${base}/agent-home/x; } 2>/dev/null || echo STATE-PARENT-DENIED`,
          `mv ${ws}/own.txt ${outside}/ 2>/dev/null || echo MV-DENIED`,
        ].join("; "),
      );
      assert.equal(out, "FOLDER\nSTATE\nSTATE-FILE\nTMP\nOUTSIDE-DENIED\nSTATE-PARENT-DENIED\nMV-DENIED\n");
      assert.equal(fs.readFileSync(path.join(state, "auth.json"), "utf8"), "s\n");
      assert.deepEqual(fs.readdirSync(outside), []);
    });

    it("I-118: the network stays on, unix sockets are off, and no capability is left (root or not)", async () => {
      const server = net.createServer((s) => s.end("host\n"));
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      const port = (server.address() as net.AddressInfo).port;
      const sock = path.join(base, "agent-host.sock");
      let unixConnections = 0;
      const unix = net.createServer((s) => (unixConnections++, s.end()));
      await new Promise<void>((r) => unix.listen(sock, r));
      try {
        const out = await runFenced(
          [
            `{ exec 3<>/dev/tcp/127.0.0.1/${port}; } && head -1 <&3`,
            `/usr/bin/python3 -c 'import socket; s=socket.socket(socket.AF_UNIX); s.connect("${sock}"); print("CONNECTED")' 2>/dev/null || echo UNIX-REFUSED`,
            `grep -E '^Cap(Eff|Prm|Amb):' /proc/self/status | tr -d '\t'`,
          ].join("; "),
        );
        assert.equal(out, "host\nUNIX-REFUSED\nCapPrm:0000000000000000\nCapEff:0000000000000000\nCapAmb:0000000000000000\n");
        assert.equal(unixConnections, 0);
      } finally {
        server.close();
        unix.close();
      }
    });

    it("I-118: refuses a helper the agent could have rewritten (inside a folder or a state dir)", () => {
      const planted = path.join(ws, "python3");
      fs.copyFileSync("/usr/bin/python3", planted);
      try {
        const evil = createLandlockSandbox({ python: planted, env: process.env });
        assert.throws(() => evil.fenceAgent!({ command: "/bin/true", args: [], env: {} }, fence), /lies inside/);
        const viaState = createLandlockSandbox({ python: path.join(state, "python3"), env: process.env });
        assert.throws(() => viaState.fenceAgent!({ command: "/bin/true", args: [], env: {} }, fence), /lies inside/);
      } finally {
        fs.rmSync(planted);
      }
    });
  });
});
