// Agent tier, I-110: a closed or deleted session releases what it held — heap (after a forced
// GC), file descriptors and child processes — also under storms of concurrent closes and deletes.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { startFakeModelServer, type FakeModelServer } from "../support/fakeModelServer";
import { modelEnv, spawnAgent, tempDir, type AgentProcess } from "../support/agentProcess";

interface MemoryReport {
  heapUsed: number;
  rss: number;
  agents: number;
  sessions: number;
  records: number;
}

const MiB = 1024 * 1024;

/**
 * Open descriptors other than sockets: log files, pipes to children, watchers. Sockets are left out
 * because the model client's HTTP keep-alive pool holds some for a while, sized by concurrency, not by sessions.
 */
function fdCount(pid: number): number {
  let n = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (!readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith("socket:")) n++;
    } catch {
      // closed while we looked
    }
  }
  return n;
}

/** Descriptors still open on a session log (any file in the data dir). */
function openLogs(pid: number, dataDir: string): string[] {
  const out: string[] = [];
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (target.startsWith(dataDir)) out.push(target);
    } catch {
      // closed while we looked
    }
  }
  return out;
}

/** Every live descendant of `pid` (from /proc/<n>/stat parent links). */
function descendants(pid: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parent.set(Number(name), ppid);
    } catch {
      // the process ended while we looked
    }
  }
  const out: number[] = [];
  for (const p of parent.keys()) {
    for (let q = parent.get(p); q !== undefined && q > 1; q = parent.get(q)) {
      if (q === pid) {
        out.push(p);
        break;
      }
    }
  }
  return out;
}

describe("I-110: closed sessions are freed (spawned, --expose-gc)", { skip: process.platform !== "linux" ? "reads /proc" : false }, () => {
  let server: FakeModelServer;
  let agent: AgentProcess;
  const ws = tempDir();

  const memory = (): Promise<MemoryReport> => agent.agent.request("_manifold/debug/memory", {}) as Promise<MemoryReport>;
  const close = (sessionId: string) => agent.agent.request(acp.methods.agent.session.close, { sessionId });
  const remove = (sessionId: string) => agent.agent.request(acp.methods.agent.session.delete, { sessionId });

  /**
   * Creates, prompts and ends `n` sessions, `parallel` at a time. With `task`, each turn starts a
   * background task (`sleep 600`) that closing must kill; else it runs a foreground tool.
   */
  async function churn(
    n: number,
    parallel: number,
    tag: string,
    opts: { task: boolean; end: "close" | "delete" | "mixed" },
  ): Promise<void> {
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let i = next++; i < n; i = next++) {
        const { sessionId } = await agent.newSession(ws.path);
        const marker = `[${tag}-${i}]`;
        const call = opts.task
          ? { name: "bash", args: { command: "sleep 600", background: true } }
          : { name: "list_files", args: { path: "." } };
        server.route(marker, { toolCalls: [call] }, { text: `reply ${i} ${"r".repeat(20_000)}` });
        assert.equal((await agent.prompt(sessionId, `${marker} go ${"p".repeat(20_000)}`)).stopReason, "end_turn");
        const del = opts.end === "delete" || (opts.end === "mixed" && i % 2 === 1);
        await (del ? remove(sessionId) : close(sessionId));
      }
    };
    await Promise.all(Array.from({ length: parallel }, worker));
  }

  before(async () => {
    server = await startFakeModelServer();
    agent = spawnAgent({
      env: { ...modelEnv(server.url), MANIFOLD_DEBUG_MEMORY: "1", MANIFOLD_SANDBOX: "none" },
      nodeArgs: ["--expose-gc"],
    });
    await agent.initialize();
    agent.onPermission((req) => ({
      outcome: { outcome: "selected", optionId: req.options.find((o) => o.kind === "allow_once")!.optionId },
    }));
  });
  after(async () => {
    agent.cleanup();
    await server.close();
    ws.cleanup();
  });

  it("I-110: the debug method exists only with --expose-gc and MANIFOLD_DEBUG_MEMORY=1", async () => {
    const plain = spawnAgent({ env: { ...modelEnv(server.url), MANIFOLD_DEBUG_MEMORY: "1" } });
    try {
      await plain.initialize();
      await assert.rejects(
        plain.agent.request("_manifold/debug/memory", {}),
        (e: unknown) => e instanceof acp.RequestError && e.code === -32601,
      );
    } finally {
      await plain.close();
      plain.cleanup();
    }
  });

  it("I-110: 300 sessions created, prompted and closed leave the heap at baseline (after a forced GC) and no log open", async () => {
    await churn(30, 3, "warm", { task: false, end: "close" }); // JIT, caches, pools: warm before the baseline
    const base = await memory();
    const baseFds = fdCount(agent.child.pid!);
    await churn(300, 4, "run", { task: false, end: "mixed" });
    const end = await memory();
    assert.deepEqual([end.agents, end.sessions, end.records], [0, 0, 0], "nothing registered");
    const grown = end.heapUsed - base.heapUsed;
    // A leaked session holds its ~40 KB log; what stays per session after the fix is ≈2 KiB (bench 8).
    assert.ok(
      grown < 3 * MiB,
      `heap grew ${(grown / MiB).toFixed(2)} MiB over 300 closed sessions (baseline ${(base.heapUsed / MiB).toFixed(1)} MiB)`,
    );
    assert.ok(fdCount(agent.child.pid!) <= baseFds + 2, `fds ${fdCount(agent.child.pid!)} vs ${baseFds}`);
    assert.deepEqual(openLogs(agent.child.pid!, agent.dataDir), []);
  });

  it("I-110: 100 sessions that each start a background task, then are closed or deleted, leave no child process, no fd, no heap", async () => {
    const baseKids = descendants(agent.child.pid!).length;
    const baseFds = fdCount(agent.child.pid!);
    await churn(10, 2, "task-warm", { task: true, end: "mixed" });
    // Closed (not deleted) sessions keep their finished task records for a resumed agent (I-60); a
    // record must hold only its bounded output, never the session's agent, log or history (each
    // session here carries ~40 KB of prompt and reply: a retained agent shows as ≈70 KiB each).
    const base = await memory();
    await churn(100, 4, "task-close", { task: true, end: "close" });
    const closed = await memory();
    assert.deepEqual([closed.agents, closed.sessions, closed.records], [0, 0, 0]);
    assert.ok(
      closed.heapUsed - base.heapUsed < 3 * MiB,
      `heap grew ${((closed.heapUsed - base.heapUsed) / MiB).toFixed(2)} MiB over 100 closed task sessions`,
    );
    await churn(100, 4, "task-mixed", { task: true, end: "mixed" });
    const end = await memory();
    assert.deepEqual([end.agents, end.sessions, end.records], [0, 0, 0]);
    assert.ok(
      end.heapUsed - base.heapUsed < 3 * MiB,
      `heap grew ${((end.heapUsed - base.heapUsed) / MiB).toFixed(2)} MiB over 200 task sessions`,
    );
    assert.equal(descendants(agent.child.pid!).length, baseKids, "no child process of a closed session remains");
    assert.ok(fdCount(agent.child.pid!) <= baseFds + 2, `fds ${fdCount(agent.child.pid!)} vs ${baseFds}`);
    assert.deepEqual(openLogs(agent.child.pid!, agent.dataDir), []);
  });

  it("I-110: a storm of 60 concurrent closes and deletes of running sessions: all answered, nothing left", async () => {
    const base = await memory();
    const baseFds = fdCount(agent.child.pid!);
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) ids.push((await agent.newSession(ws.path)).sessionId);
    const prompts = ids.map((id, i) => {
      server.route(`[storm-${i}]`, { hang: true });
      return agent.prompt(id, `[storm-${i}] hang`);
    });
    await server.waitForHang(60);
    // Each id is closed and deleted at once, some twice: every request answers, no error but "not found" for repeats.
    const ops = ids.flatMap((id, i) =>
      i % 3 === 0 ? [close(id), remove(id), close(id)] : i % 3 === 1 ? [remove(id), remove(id)] : [close(id)],
    );
    const results = await Promise.allSettled(ops);
    for (const r of results) if (r.status === "rejected") assert.fail(`a close or delete failed: ${JSON.stringify(r.reason)}`);
    for (const r of await Promise.allSettled(prompts))
      assert.deepEqual(r.status === "fulfilled" ? r.value : JSON.stringify(r.reason), { stopReason: "cancelled" });
    const end = await memory();
    assert.deepEqual([end.agents, end.sessions, end.records], [0, 0, 0]);
    assert.ok(end.heapUsed - base.heapUsed < 2 * MiB, `heap grew ${((end.heapUsed - base.heapUsed) / MiB).toFixed(2)} MiB`);
    assert.ok(fdCount(agent.child.pid!) <= baseFds + 2, `fds ${fdCount(agent.child.pid!)} vs ${baseFds}`);
    assert.deepEqual(openLogs(agent.child.pid!, agent.dataDir), []);
    const list = await agent.agent.request(acp.methods.agent.session.list, {});
    for (const id of ids.filter((_, i) => i % 3 !== 2)) assert.ok(!list.sessions.some((s) => s.sessionId === id), `${id} deleted`);
  });
});
