// 1. Idle session cost: one agent-server holding N sessions vs N agent-servers holding one each.
// RSS is summed over each process tree (/proc/<pid>/status VmRSS) after the processes settle.
import type { Benchmark, BenchContext } from "./lib/bench";
import { pool } from "./lib/bench";
import type { AgentHandle, AgentSpec } from "./lib/agent";
import { manifoldBundle, sdkMinimal } from "./lib/agents";
import { startFakeProcess } from "./lib/fakeProcess";
import { tempDir } from "./lib/paths";
import { createSessions, settledRss, startAgent } from "./lib/session";
import type { Cell } from "./lib/table";

interface Row {
  agent: string;
  layout: "one process" | "process per session";
  sessions: number;
  rssMiB: number;
  perSessionMiB: number;
  /** (RSS with N − RSS with 1) / (N − 1): the marginal cost once the first session's one-time set-up is paid. */
  marginalMiB: number;
  processes: number;
}

async function oneProcess(spec: AgentSpec, ns: number[], cwd: string, settleMs: number, log: BenchContext["log"]): Promise<Row[]> {
  const h = await startAgent(spec);
  const rows: Row[] = [];
  try {
    const base = await settledRss([h.pid], settleMs);
    rows.push({
      agent: spec.name,
      layout: "one process",
      sessions: 0,
      rssMiB: base.mib,
      perSessionMiB: Number.NaN,
      marginalMiB: Number.NaN,
      processes: base.processes,
    });
    let have = 0;
    let one = Number.NaN;
    for (const n of ns) {
      await createSessions(h, n - have, cwd);
      have = n;
      const r = await settledRss([h.pid], settleMs);
      if (n === 1) one = r.mib;
      const marginalMiB = n > 1 ? (r.mib - one) / (n - 1) : Number.NaN;
      rows.push({
        agent: spec.name,
        layout: "one process",
        sessions: n,
        rssMiB: r.mib,
        perSessionMiB: (r.mib - base.mib) / n,
        marginalMiB,
        processes: r.processes,
      });
      log(`  ${spec.name}: ${n} sessions in one process → ${r.mib.toFixed(1)} MiB`);
    }
  } finally {
    await h.close();
  }
  return rows;
}

async function processPerSession(makeSpec: () => AgentSpec, n: number, cwd: string, settleMs: number): Promise<Row> {
  const handles: AgentHandle[] = [];
  try {
    await pool(Array.from({ length: n }), 4, async () => {
      const h = await startAgent(makeSpec());
      handles.push(h);
      await createSessions(h, 1, cwd);
    });
    const r = await settledRss(
      handles.map((h) => h.pid),
      settleMs,
    );
    return {
      agent: handles[0]?.spec.name ?? "?",
      layout: "process per session",
      sessions: n,
      rssMiB: r.mib,
      perSessionMiB: r.mib / n,
      marginalMiB: Number.NaN,
      processes: r.processes,
    };
  } finally {
    await Promise.all(handles.map((h) => h.close()));
  }
}

export const idle: Benchmark = {
  id: "idle",
  title: "1. Idle session cost — one process with N sessions vs N processes",
  async run(ctx) {
    const ns = [1, 10, 50];
    const perProcessNs = ctx.quick ? [1, 10] : [1, 10, 50];
    const settleMs = ctx.quick ? 400 : 1500;
    const fake = await startFakeProcess();
    const cwd = tempDir("ws");
    const rows: Row[] = [];
    try {
      rows.push(...(await oneProcess(manifoldBundle(fake.baseUrl), ns, cwd, settleMs, ctx.log)));
      for (const n of perProcessNs) {
        rows.push(await processPerSession(() => manifoldBundle(fake.baseUrl), n, cwd, settleMs));
        ctx.log(`  manifold: ${n} processes → ${rows[rows.length - 1]?.rssMiB.toFixed(1)} MiB`);
      }
      rows.push(...(await oneProcess(await sdkMinimal(), ns, cwd, settleMs, ctx.log)));
    } finally {
      await fake.close();
    }
    const one = (n: number) => rows.find((r) => r.agent.startsWith("manifold") && r.layout === "one process" && r.sessions === n);
    const per = (n: number) => rows.find((r) => r.agent.startsWith("manifold") && r.layout === "process per session" && r.sessions === n);
    const table: Cell[][] = rows.map((r) => {
      const other = r.layout === "one process" ? per(r.sessions) : one(r.sessions);
      const ratio = r.agent.startsWith("manifold") && r.layout === "process per session" && other ? r.rssMiB / other.rssMiB : undefined;
      return [
        r.agent,
        r.layout,
        r.sessions,
        r.rssMiB,
        r.perSessionMiB,
        r.marginalMiB,
        r.processes,
        ratio === undefined ? "" : `${ratio.toFixed(1)}×`,
      ];
    });
    return {
      tables: [
        {
          title: idle.title,
          headers: [
            "agent",
            "layout",
            "sessions",
            "total RSS MiB",
            "MiB / session",
            "MiB / extra session after the 1st",
            "processes",
            "vs one process",
          ],
          rows: table,
          notes: [
            "one process: MiB/session = (RSS with N sessions − RSS with 0) / N; extra session after the 1st = (RSS N − RSS 1) / (N − 1); process per session: total / N.",
            "target (DESIGN §7): ≤ 0.2 MiB per extra idle session; 50 idle sessions ≤ 100 MiB for the whole process.",
          ],
        },
      ],
      data: { settleMs, rows },
    };
  },
};
