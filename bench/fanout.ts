// 2. Fan-out: cost per `session/update` of one streaming session while 1, 100, 1,000 sessions are live.
// The same process grows its idle sessions between steps, so the ratio vs 1 isolates the per-session cost.
// The raw client is used so the client's own parsing does not hide the agent's cost.
import type { Benchmark } from "./lib/bench";
import { pool } from "./lib/bench";
import { manifoldBundle } from "./lib/agents";
import type { AgentHandle } from "./lib/agent";
import { startFakeProcess } from "./lib/fakeProcess";
import { tempDir } from "./lib/paths";
import { chunkText, createSessions, prompt, startAgent } from "./lib/session";
import { cpuMs } from "./lib/proc";
import { summarize, type Summary } from "./lib/stats";

interface Step {
  live: number;
  label: string;
  runs: RunResult[];
  usPerUpdate: Summary;
  cpuUsPerUpdate: Summary;
}

interface RunResult {
  updates: number;
  ms: number;
  usPerUpdate: number;
  /** Agent CPU (user + sys) per update: independent of what else the shared machine runs. */
  cpuUsPerUpdate: number;
}

async function streamOnce(h: AgentHandle, sessionId: string, chunks: number): Promise<RunResult> {
  let updates = 0;
  let first = 0n;
  let last = 0n;
  h.onUpdate = (u) => {
    if (u.sessionId !== sessionId || !chunkText(u)) return;
    const now = process.hrtime.bigint();
    if (updates === 0) first = now;
    last = now;
    updates++;
  };
  const cpu0 = cpuMs(h.pid);
  await prompt(h, sessionId, `chunks=${chunks}`);
  const cpu = cpuMs(h.pid) - cpu0;
  h.onUpdate = () => undefined;
  const ms = Number(last - first) / 1e6;
  return {
    updates,
    ms,
    usPerUpdate: updates > 1 ? (ms * 1000) / (updates - 1) : Number.NaN,
    cpuUsPerUpdate: updates ? (cpu * 1000) / updates : Number.NaN,
  };
}

export const fanout: Benchmark = {
  id: "fanout",
  title: "2. Fan-out — cost per session/update vs live idle sessions",
  async run(ctx) {
    const chunks = ctx.quick ? 800 : 5000;
    const reps = ctx.quick ? 2 : 5;
    const steps = ctx.quick ? [1, 100, 1000] : [1, 100, 1000];
    const fake = await startFakeProcess();
    const cwd = tempDir("ws");
    const h = await startAgent(manifoldBundle(fake.baseUrl), "raw");
    const results: Step[] = [];
    try {
      const ids = await createSessions(h, 1, cwd);
      const [streamer] = ids;
      if (!streamer) throw new Error("no session");
      await streamOnce(h, streamer, ctx.quick ? 500 : 2000); // warm-up: model client, JIT
      let live = 1;
      for (const target of steps) {
        if (target > live) ids.push(...(await createSessions(h, target - live, cwd, 4)));
        live = target;
        const runs = [];
        for (let i = 0; i < reps; i++) runs.push(await streamOnce(h, streamer, chunks));
        const s = summarize(runs.map((r) => r.usPerUpdate));
        results.push({ live, label: String(live), runs, usPerUpdate: s, cpuUsPerUpdate: summarize(runs.map((r) => r.cpuUsPerUpdate)) });
        ctx.log(`  ${live} live sessions: ${s.p50.toFixed(2)} µs/update (${runs[0]?.updates} updates per run)`);
      }
      // A-B-A: close the idle sessions and measure 1 again, so drift over the run shows as a changed baseline.
      const idleIds = ids.filter((id) => id !== streamer);
      try {
        await pool(idleIds, 8, (id) => h.request("session/close", { sessionId: id }));
        const runs = [];
        for (let i = 0; i < reps; i++) runs.push(await streamOnce(h, streamer, chunks));
        results.push({
          live: 1,
          label: "1 (others closed)",
          runs,
          usPerUpdate: summarize(runs.map((r) => r.usPerUpdate)),
          cpuUsPerUpdate: summarize(runs.map((r) => r.cpuUsPerUpdate)),
        });
      } catch (e) {
        ctx.log(`  session/close failed, no A-B-A row: ${e instanceof Error ? e.message : String(e)}`);
      }
    } finally {
      await h.close();
      await fake.close();
    }
    const base = results[0]?.usPerUpdate.p50 ?? Number.NaN;
    const cpuBase = results[0]?.cpuUsPerUpdate.p50 ?? Number.NaN;
    return {
      tables: [
        {
          title: fanout.title,
          headers: [
            "live sessions",
            "updates / run",
            "wall µs / update p50",
            "min",
            "max",
            "ratio vs 1",
            "agent CPU µs / update p50",
            "min",
            "max",
            "CPU ratio vs 1",
          ],
          rows: results.map((r) => [
            r.label,
            r.runs[0]?.updates,
            r.usPerUpdate.p50,
            r.usPerUpdate.min,
            r.usPerUpdate.max,
            `${(r.usPerUpdate.p50 / base).toFixed(2)}×`,
            r.cpuUsPerUpdate.p50,
            r.cpuUsPerUpdate.min,
            r.cpuUsPerUpdate.max,
            `${(r.cpuUsPerUpdate.p50 / cpuBase).toFixed(2)}×`,
          ]),
          notes: [
            `one session streams ${chunks} model chunks per run, ${reps} runs per step; wall time per update = (last − first update at the client) / (updates − 1); agent CPU = user + sys of the agent process over the prompt (from /proc, 10 ms ticks) / updates. On a shared machine the CPU column is the one to compare.`,
            "target (DESIGN §7): flat from 1 to 1,000 live sessions (within 10%).",
          ],
        },
      ],
      data: { chunksPerRun: chunks, reps, steps: results },
    };
  },
};
