// 2. Fan-out: agent CPU per model chunk of one streaming session while 1, 100 or 1,000 sessions are
// live in its process. One agent process per step, all started first; then the runs are interleaved
// round-robin (1, 100, 1,000, 1, 100, …) so that the shared machine's drift falls on every step alike,
// and each step's spread over the runs is reported beside its median.
// The raw client is used so the client's own parsing does not hide the agent's cost.
import type { BenchContext, Benchmark } from "./lib/bench";
import type { Table } from "./lib/table";
import { manifoldBundle } from "./lib/agents";
import type { AgentHandle } from "./lib/agent";
import { startFakeProcess } from "./lib/fakeProcess";
import { tempDir } from "./lib/paths";
import { chunkText, createSessions, prompt, startAgent } from "./lib/session";
import { cpuMs } from "./lib/proc";
import { summarize, type Summary } from "./lib/stats";

const STAMP = /t=\d+/g;

interface Step {
  live: number;
  runs: RunResult[];
  cpuUsPerChunk: Summary;
  usPerChunk: Summary;
}

interface RunResult {
  updates: number;
  chunks: number;
  /** Wall time per chunk: prompt request → response at the client. */
  usPerChunk: number;
  /** Agent CPU (user + sys) per model chunk delivered: independent of what else the shared machine runs. */
  cpuUsPerChunk: number;
}

async function streamOnce(h: AgentHandle, sessionId: string, chunks: number): Promise<RunResult> {
  let updates = 0;
  let delivered = 0;
  h.onUpdate = (u) => {
    const text = u.sessionId === sessionId ? chunkText(u) : "";
    if (!text) return;
    updates++;
    delivered += text.match(STAMP)?.length ?? 0;
  };
  const cpu0 = cpuMs(h.pid);
  const t0 = process.hrtime.bigint();
  await prompt(h, sessionId, `chunks=${chunks}`);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = cpuMs(h.pid) - cpu0;
  h.onUpdate = () => undefined;
  return {
    updates,
    chunks: delivered,
    usPerChunk: delivered ? (ms * 1000) / delivered : Number.NaN,
    cpuUsPerChunk: delivered ? (cpu * 1000) / delivered : Number.NaN,
  };
}

/** Whether two steps' p10–p90 ranges are apart (a real difference) or overlap (not told apart). */
function apart(a: Summary, b: Summary): boolean {
  return a.p90 < b.p10 || b.p90 < a.p10;
}

function verdict(steps: readonly Step[]): string {
  const base = steps[0]?.cpuUsPerChunk;
  if (!base) return "—";
  const parts = steps.slice(1).map((s) => {
    const ratio = s.cpuUsPerChunk.p50 / base.p50;
    const within = Math.abs(ratio - 1) <= 0.1;
    const sep = apart(s.cpuUsPerChunk, base);
    const what = within ? "within 10%" : sep ? "outside 10%, ranges apart" : "outside 10% at the median, ranges overlap";
    return `${s.live}: ${ratio.toFixed(2)}× (${what})`;
  });
  const flat = steps.slice(1).every((s) => Math.abs(s.cpuUsPerChunk.p50 / base.p50 - 1) <= 0.1);
  return `${flat ? "flat" : "not flat"} — ${parts.join("; ")}`;
}

/** Starts one agent per size, then streams `reps` rounds of runs interleaved across them: each step's runs. */
async function measure(ctx: BenchContext, sizes: readonly number[], chunks: number, reps: number): Promise<Step[]> {
  const fake = await startFakeProcess();
  const cwd = tempDir("ws");
  const agents: Array<{ live: number; h: AgentHandle; streamer: string }> = [];
  const runs = new Map<number, RunResult[]>(sizes.map((n) => [n, []]));
  try {
    for (const live of sizes) {
      const h = await startAgent(manifoldBundle(fake.baseUrl), "raw");
      agents.push({ live, h, streamer: "" });
      const [streamer] = await createSessions(h, 1, cwd);
      if (!streamer) throw new Error("no session");
      agents[agents.length - 1]!.streamer = streamer;
      if (live > 1) await createSessions(h, live - 1, cwd, 4);
      await streamOnce(h, streamer, ctx.quick ? 500 : 2000); // warm-up: model client, JIT
      ctx.log(`  agent with ${live} live sessions ready`);
    }
    for (let i = 0; i < reps; i++) {
      for (const a of agents) runs.get(a.live)?.push(await streamOnce(a.h, a.streamer, chunks));
    }
  } finally {
    await Promise.all(agents.map((a) => a.h.close()));
    await fake.close();
  }
  return sizes.map((live) => {
    const rs = runs.get(live) ?? [];
    return {
      live,
      runs: rs,
      cpuUsPerChunk: summarize(rs.map((r) => r.cpuUsPerChunk)),
      usPerChunk: summarize(rs.map((r) => r.usPerChunk)),
    };
  });
}

function fanoutTable(steps: readonly Step[], chunks: number, reps: number, text: string): Table {
  const base = steps[0]?.cpuUsPerChunk.p50 ?? Number.NaN;
  const wallBase = steps[0]?.usPerChunk.p50 ?? Number.NaN;
  return {
    title: fanout.title,
    headers: [
      "live sessions",
      "runs",
      "chunks / run",
      "updates / run p50",
      "agent CPU µs / chunk p50",
      "p10",
      "p90",
      "min",
      "max",
      "CPU ratio vs 1",
      "wall µs / chunk p50",
      "wall ratio vs 1",
    ],
    rows: steps.map((s) => [
      s.live,
      s.runs.length,
      s.runs[0]?.chunks,
      summarize(s.runs.map((r) => r.updates)).p50,
      s.cpuUsPerChunk.p50,
      s.cpuUsPerChunk.p10,
      s.cpuUsPerChunk.p90,
      s.cpuUsPerChunk.min,
      s.cpuUsPerChunk.max,
      `${(s.cpuUsPerChunk.p50 / base).toFixed(2)}×`,
      s.usPerChunk.p50,
      `${(s.usPerChunk.p50 / wallBase).toFixed(2)}×`,
    ]),
    notes: [
      `one agent process per step, each holding that many live sessions; one session streams ${chunks} model chunks per run; ${reps} runs per step, interleaved round-robin across the steps. Agent CPU = user + sys of that agent process over the prompt (from /proc, 10 ms ticks) / chunks delivered; wall = prompt request → response / chunks (chunks, not updates: the agent coalesces a session's deltas). On a shared machine the CPU column is the one to compare.`,
      `target (DESIGN §7): flat from 1 to 1,000 live sessions (within 10%). This run: ${text}.`,
    ],
  };
}

export const fanout: Benchmark = {
  id: "fanout",
  title: "2. Fan-out — agent CPU per model chunk vs live idle sessions",
  async run(ctx) {
    // Enough chunks per run that 10 ms CPU ticks are ≤ 1% of a run's CPU even at ~15 µs a chunk.
    const chunks = ctx.quick ? 20_000 : 100_000;
    const reps = ctx.quick ? 5 : 7;
    const steps = await measure(ctx, [1, 100, 1000], chunks, reps);
    for (const s of steps) ctx.log(`  ${s.live} live sessions: ${s.cpuUsPerChunk.p50.toFixed(2)} µs CPU/chunk`);
    const text = verdict(steps);
    return { tables: [fanoutTable(steps, chunks, reps, text)], data: { chunksPerRun: chunks, reps, steps, verdict: text } };
  },
};
