// 7. Peers: Manifold beside third-party ACP agents from npm, offline — cold start, idle RSS per
// session and session/new latency (one at a time and a burst of 20), in one table.
import type { Benchmark, BenchContext } from "./lib/bench";
import { errorText, pool } from "./lib/bench";
import type { AgentHandle, AgentSpec } from "./lib/agent";
import { withTimeout } from "./lib/agent";
import { manifoldBundle, sdkMinimal } from "./lib/agents";
import { coldStartOnce } from "./coldstart";
import { startFakeProcess } from "./lib/fakeProcess";
import { tempDir } from "./lib/paths";
import { settledRss, startAgent } from "./lib/session";
import { median, summarize } from "./lib/stats";
import type { Cell } from "./lib/table";
import { peerSpecs } from "./peers/specs";

interface PeerRow {
  agent: string;
  startMs?: number;
  rssInitMiB?: number;
  newP50Ms?: number;
  perSessionMiB?: number;
  burstWallMs?: number;
  burstP99Ms?: number;
  rssAllMiB?: number;
  sessions?: number;
  status: string;
}

const OP_TIMEOUT = 60_000; // generous: on a loaded 2-core machine a big CLI can take 20 s to start

async function measure(
  spec: AgentSpec,
  quick: boolean,
  log: BenchContext["log"],
  afterInit?: (h: AgentHandle) => Promise<unknown>,
): Promise<PeerRow> {
  const row: PeerRow = { agent: spec.name, status: "ok" };
  let step = "initialize";
  try {
    const starts: number[] = [];
    for (let i = 0; i < (quick ? 0 : 4); i++) starts.push((await coldStartOnce(spec, OP_TIMEOUT)).ms);
    const h = await startAgent(spec, "sdk", OP_TIMEOUT);
    if (quick) starts.push(Number(process.hrtime.bigint() - h.spawnedAt) / 1e6); // one start: this one
    row.startMs = median(starts);
    try {
      if (afterInit) {
        step = "authenticate";
        await withTimeout(afterInit(h), OP_TIMEOUT, "authenticate");
      }
      const settle = quick ? 600 : 1500;
      row.rssInitMiB = (await settledRss([h.pid], settle)).mib;
      const cwd = tempDir("ws");
      step = "session/new";
      const lat: number[] = [];
      const seqN = quick ? 1 : 10;
      for (let i = 0; i < seqN; i++) {
        const t0 = process.hrtime.bigint();
        await withTimeout(h.newSession(cwd), OP_TIMEOUT, "session/new");
        lat.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
      row.newP50Ms = median(lat);
      const rss10 = await settledRss([h.pid], settle);
      row.perSessionMiB = (rss10.mib - row.rssInitMiB) / seqN;
      step = "burst of 20 session/new";
      const deadlineMs = quick ? 10_000 : 60_000;
      if (quick) {
        row.status = "burst: full run only";
      } else if (row.newP50Ms > 1000) {
        row.status = `burst skipped: session/new takes ${(row.newP50Ms / 1000).toFixed(1)} s each`;
      } else {
        const burst: number[] = [];
        const b0 = process.hrtime.bigint();
        const answered = await Promise.race([
          pool(Array.from({ length: 20 }), 20, async () => {
            const t0 = process.hrtime.bigint();
            await h.newSession(cwd);
            burst.push(Number(process.hrtime.bigint() - t0) / 1e6);
          }).then(
            () => true,
            () => false, // a late rejection (the connection closed on a hung burst) must not go unhandled
          ),
          new Promise<false>((r) => setTimeout(() => r(false), deadlineMs)),
        ]);
        if (answered) {
          row.burstWallMs = Number(process.hrtime.bigint() - b0) / 1e6;
          row.burstP99Ms = summarize(burst).p99;
        } else row.status = `burst of 20: ${burst.length}/20 answered within ${deadlineMs / 1000} s`;
      }
      const all = await settledRss([h.pid], settle);
      row.rssAllMiB = all.mib;
      row.sessions = seqN + 20;
      if (all.processes > 1) row.status += ` (${all.processes} processes)`;
    } finally {
      await h.close();
    }
  } catch (e) {
    row.status = `failed at ${step}: ${errorText(e)}`;
  }
  log(`  ${spec.name}: ${row.status}`);
  return row;
}

export const peers: Benchmark = {
  id: "peers",
  title: "7. Peers — Manifold beside third-party ACP agents (offline)",
  async run(ctx) {
    const fake = await startFakeProcess();
    const rows: PeerRow[] = [];
    try {
      rows.push(await measure(manifoldBundle(fake.baseUrl), ctx.quick, ctx.log));
      rows.push(await measure(await sdkMinimal(), ctx.quick, ctx.log));
      for (const p of peerSpecs()) {
        if (!p.spec) rows.push({ agent: p.version ? `peer ${p.version}` : "peer", status: p.missing ?? "missing" });
        else rows.push(await measure(p.spec, ctx.quick, ctx.log, p.afterInit));
      }
    } finally {
      await fake.close();
    }
    const table: Cell[][] = rows.map((r) => [
      r.agent,
      r.startMs,
      r.rssInitMiB,
      r.newP50Ms,
      r.perSessionMiB,
      r.burstWallMs,
      r.burstP99Ms,
      r.rssAllMiB,
      r.status,
    ]);
    return {
      tables: [
        {
          title: peers.title,
          headers: [
            "agent",
            "start ms",
            "RSS init MiB",
            "session/new p50 ms",
            "MiB / idle session",
            "burst 20 wall ms",
            "burst 20 p99 ms",
            "RSS at end MiB",
            "status",
          ],
          rows: table,
          notes: [
            "start: spawn → initialize answered (median of 4; quick: the one start that is then measured). MiB / idle session = (RSS after 10 (quick 1) sequential session/new − RSS after initialize) / 10, whole process tree.",
            "burst: 20 concurrent session/new, given 60 s (not in quick runs); skipped where one session/new takes over 1 s. RSS at end: after the burst.",
            "peers run with a private HOME, dummy API keys and no network; a failure names the step and the agent's error.",
          ],
        },
      ],
      data: { rows },
    };
  },
};
