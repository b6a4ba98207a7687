// 8. Session churn: a long run of session/new → one prompt → session/close (every other one
// session/delete) in one agent process, sampling RSS and the heap (after a forced GC, through the
// test-only `_manifold/debug/memory` method) every `step` sessions. A leak shows as a slope.
import { join } from "node:path";
import type { Benchmark, BenchContext } from "./lib/bench";
import { pool } from "./lib/bench";
import { manifoldBundle } from "./lib/agents";
import { startFakeProcess } from "./lib/fakeProcess";
import { tempDir } from "./lib/paths";
import { treeRssMiB } from "./lib/proc";
import { prompt, startAgent } from "./lib/session";
import type { Cell } from "./lib/table";

interface MemoryReport {
  heapUsed: number;
  rss: number;
  agents: number;
}

interface Sample {
  sessions: number;
  seconds: number;
  heapMiB: number;
  rssMiB: number;
  treeRssMiB: number;
  live: number;
}

const MiB = 1024 * 1024;

/** Least-squares slope of y over x. */
function slope(xs: number[], ys: number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

export const churn: Benchmark = {
  id: "churn",
  title: "8. Session churn: heap and RSS over a long create/prompt/close run",
  async run(ctx: BenchContext) {
    const total = ctx.quick ? 500 : 3000;
    const step = ctx.quick ? 50 : 250;
    const fake = await startFakeProcess();
    const cwd = tempDir("ws");
    const spec = manifoldBundle(fake.baseUrl, join(tempDir("churn"), "data"));
    spec.name = "manifold (bundle, --expose-gc)";
    spec.args = ["--expose-gc", ...spec.args];
    spec.env = { ...spec.env, MANIFOLD_DEBUG_MEMORY: "1" };
    const h = await startAgent(spec);
    const samples: Sample[] = [];
    const t0 = Date.now();
    const sample = async (sessions: number): Promise<void> => {
      const m = await h.request<MemoryReport>("_manifold/debug/memory", {});
      samples.push({
        sessions,
        seconds: (Date.now() - t0) / 1000,
        heapMiB: m.heapUsed / MiB,
        rssMiB: m.rss / MiB,
        treeRssMiB: treeRssMiB([h.pid]).mib,
        live: m.agents,
      });
    };
    try {
      await sample(0);
      for (let done = 0; done < total; done += step) {
        await pool(Array.from({ length: step }), 4, async (_, i) => {
          const id = await h.newSession(cwd);
          await prompt(h, id, "chunks=20 churn");
          await h.request(done + i === 0 || (done + i) % 2 === 0 ? "session/close" : "session/delete", { sessionId: id });
        });
        await sample(done + step);
        ctx.log(`churn: ${done + step}/${total} sessions, heap ${samples.at(-1)!.heapMiB.toFixed(1)} MiB`);
      }
    } finally {
      await h.close();
      await fake.close();
    }
    // The slope after the first step (warm-up: JIT, pools, caches) is what a leak would show.
    const warm = samples.slice(1);
    const heapKiBPerSession = slope(
      warm.map((s) => s.sessions),
      warm.map((s) => s.heapMiB * 1024),
    );
    const rssKiBPerSession = slope(
      warm.map((s) => s.sessions),
      warm.map((s) => s.rssMiB * 1024),
    );
    const rows: Cell[][] = samples.map((s) => [s.sessions, s.seconds.toFixed(1), s.heapMiB.toFixed(2), s.rssMiB.toFixed(1), s.live]);
    return {
      tables: [
        {
          title: `8. Session churn (${total} sessions: new → prompt → close/delete, 4 at a time; heap after forced GC)`,
          headers: ["sessions done", "s", "heap MiB", "RSS MiB", "live agents"],
          rows,
        },
        {
          title: "8. Session churn: slope after warm-up",
          headers: ["heap KiB / session", "RSS KiB / session"],
          rows: [[heapKiBPerSession.toFixed(2), rssKiBPerSession.toFixed(2)]],
        },
      ],
      data: { total, step, samples, heapKiBPerSession, rssKiBPerSession },
    };
  },
};
