// Agent tier, I-111: the real built server under a hostile session. While session A drives each
// blocking attack on file reads through its tools (FIFOs, devices, a huge sparse file, a
// catastrophic regex), session B's prompt and a bash call stay responsive, and cancelling A frees
// what A's call held.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startFakeModelServer, type FakeModelServer } from "../support/fakeModelServer";
import { modelEnv, spawnAgent, tempDir, type AgentProcess } from "../support/agentProcess";

/** Generous bound for "not blocked": a prompt with one bash call takes ~0.1 s when nothing blocks. */
const RESPONSIVE_MS = 3_000;

/** Waits for a condition on state the client already collects (bounded; fails instead of hanging). */
async function until(what: string, cond: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** CPU time (ms) the process used, from /proc. */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

describe("I-111: a hostile session cannot stall the others (spawned server)", { skip: process.platform !== "linux" }, () => {
  let server: FakeModelServer;
  let agent: AgentProcess;
  const wsA = tempDir("manifold-hostile-a-");
  const wsB = tempDir("manifold-hostile-b-");
  let a: string;
  let b: string;
  let n = 0;

  before(async () => {
    execFileSync("mkfifo", [join(wsA.path, "fifo")]);
    fs.symlinkSync("fifo", join(wsA.path, "fifo-link"));
    fs.mkdirSync(join(wsA.path, "tree"));
    execFileSync("mkfifo", [join(wsA.path, "tree", "pipe")]);
    const fd = fs.openSync(join(wsA.path, "tree", "sparse.bin"), "w");
    fs.ftruncateSync(fd, 600 * 1024 * 1024);
    fs.closeSync(fd);
    fs.writeFileSync(join(wsA.path, "evil.txt"), `${"a".repeat(40)}!\n`.repeat(5));
    server = await startFakeModelServer();
    agent = spawnAgent({ env: modelEnv(server.url) });
    await agent.initialize();
    agent.onPermission((req) => {
      const allow = req.options.find((o) => o.kind === "allow_once");
      return { outcome: allow ? { outcome: "selected", optionId: allow.optionId } : { outcome: "cancelled" } };
    });
    a = (await agent.newSession(wsA.path)).sessionId;
    b = (await agent.newSession(wsB.path)).sessionId;
  });
  after(async () => {
    await Promise.race([agent.close(), new Promise((r) => setTimeout(r, 5_000))]);
    agent.cleanup();
    await server.close();
    wsA.cleanup();
    wsB.cleanup();
  });

  /** B: one prompt that runs `bash` and answers; returns how long it took. */
  async function bResponds(): Promise<number> {
    const marker = `[B${++n}]`;
    server.route(marker, { toolCalls: [{ name: "bash", args: { command: `echo alive-${n}` } }] }, { text: "B ok" });
    const t = performance.now();
    const res = await agent.prompt(b, marker);
    const took = performance.now() - t;
    assert.equal(res.stopReason, "end_turn");
    const results = agent
      .updatesOf(b)
      .flatMap((u) => (u.sessionUpdate === "tool_call_update" && u.status === "completed" ? [JSON.stringify(u.content)] : []));
    assert.ok(
      results.some((c) => c.includes(`alive-${n}`)),
      "B's bash did not run",
    );
    return took;
  }

  const attacks: Array<[string, { name: string; args: unknown }]> = [
    ["write_file onto a FIFO", { name: "write_file", args: { path: "fifo", content: "x" } }],
    ["write_file onto a symlink to a FIFO", { name: "write_file", args: { path: "fifo-link", content: "x" } }],
    ["read_file of a FIFO", { name: "read_file", args: { path: "fifo" } }],
    ["grep of a FIFO", { name: "grep", args: { pattern: "x", path: "fifo" } }],
    ["read_file of /dev/zero", { name: "read_file", args: { path: "/dev/zero" } }],
    ["read_file of a 600 MB sparse file", { name: "read_file", args: { path: "tree/sparse.bin" } }],
    ["grep over a tree with a FIFO and a 600 MB sparse file", { name: "grep", args: { pattern: "needle", path: "tree" } }],
    ["grep with a catastrophic regex", { name: "grep", args: { pattern: "(a+)+$", path: "evil.txt" } }],
  ];

  for (const [label, call] of attacks) {
    it(`I-111: B stays responsive while A does: ${label}; cancelling A frees it`, async () => {
      await bResponds(); // warm (first bash spawns the sandbox's helpers)
      const marker = `[A${++n}]`;
      // After its tool call, A's model hangs: A's turn stays open until it is cancelled.
      server.route(marker, { toolCalls: [{ name: call.name, args: call.args }] }, { hang: true });
      const before = agent.updatesOf(a).length;
      const aTurn = agent.prompt(a, marker);
      await until("A's tool call", () =>
        agent
          .updatesOf(a)
          .slice(before)
          .some((u) => u.sessionUpdate === "tool_call"),
      );
      // Bounded: a blocked server never answers, and the test must fail rather than hang.
      const took = await Promise.race([bResponds(), new Promise<number>((r) => setTimeout(() => r(Infinity), 4 * RESPONSIVE_MS))]);
      assert.ok(took < RESPONSIVE_MS, `B took ${Math.round(took)} ms while A ran ${label}`);
      const t = performance.now();
      await agent.agent.notify(acp.methods.agent.session.cancel, { sessionId: a });
      assert.deepEqual(await aTurn, { stopReason: "cancelled" });
      assert.ok(performance.now() - t < RESPONSIVE_MS, "cancel of A took too long");
      // Nothing of A's keeps running: the server is idle again (a spinning regex worker would burn a core).
      const pid = agent.child.pid!;
      const cpu0 = cpuMs(pid);
      await new Promise((r) => setTimeout(r, 500));
      assert.ok(cpuMs(pid) - cpu0 < 250, `the server kept burning CPU after A was cancelled (${label})`);
      assert.ok(fs.lstatSync(join(wsA.path, "fifo")).isFIFO());
    });
  }
});
