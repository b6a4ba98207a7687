// 5. Cold start: spawn → `initialize` answered. Our bundle vs the same code unbundled (tsx) vs the
// SDK-minimal floor, interleaved run by run so machine noise hits all three alike.
import type { Benchmark } from "./lib/bench";
import type { AgentSpec } from "./lib/agent";
import { spawnAgent, withTimeout } from "./lib/agent";
import { manifoldBundle, manifoldMinified, manifoldOnNode, manifoldTsx, newerNode, sdkMinimal } from "./lib/agents";
import { cpuMs, rssKiB } from "./lib/proc";
import { tempDir } from "./lib/paths";
import { summarize } from "./lib/stats";

/** Spawn → `initialize` answered (and, given a folder, → its first `session/new` answered). */
export async function coldStartOnce(
  spec: AgentSpec,
  timeoutMs = 30_000,
  cwd?: string,
): Promise<{ ms: number; rssMiB: number; cpuMs: number; firstSessionMs: number }> {
  const h = spawnAgent(spec, "raw");
  try {
    await withTimeout(h.initialize(), timeoutMs, `${spec.name} initialize`);
    const ms = Number(process.hrtime.bigint() - h.spawnedAt) / 1e6;
    const at = { rssMiB: rssKiB(h.pid) / 1024, cpuMs: cpuMs(h.pid) };
    if (cwd !== undefined) await withTimeout(h.newSession(cwd), timeoutMs, `${spec.name} session/new`);
    const firstSessionMs = cwd === undefined ? Number.NaN : Number(process.hrtime.bigint() - h.spawnedAt) / 1e6;
    return { ms, ...at, firstSessionMs };
  } finally {
    await h.close();
  }
}

export const coldstart: Benchmark = {
  id: "coldstart",
  title: "5. Cold start — spawn → initialize answered",
  async run(ctx) {
    const runs = ctx.quick ? 2 : 15;
    const url = "http://127.0.0.1:9/v1"; // never contacted by initialize
    // Quick runs keep the bundle, the floor and the Node 24 pair; the minified and unbundled rows are full-run only.
    const specs: AgentSpec[] = ctx.quick
      ? [manifoldBundle(url), await sdkMinimal()]
      : [manifoldBundle(url), await manifoldMinified(url), manifoldTsx(url), await sdkMinimal()];
    const node = newerNode();
    if (node) specs.push(manifoldOnNode(node, url, false), manifoldOnNode(node, url, true));
    const ms = specs.map(() => [] as number[]);
    const rss = specs.map(() => [] as number[]);
    const cpu = specs.map(() => [] as number[]);
    const first = specs.map(() => [] as number[]);
    const cwd = tempDir("coldstart-ws");
    for (const s of specs) await coldStartOnce(s, undefined, cwd); // warm the page cache and tsx's transform cache
    for (let i = 0; i < runs; i++) {
      for (const [k, s] of specs.entries()) {
        const r = await coldStartOnce(s, undefined, cwd);
        ms[k]?.push(r.ms);
        rss[k]?.push(r.rssMiB);
        cpu[k]?.push(r.cpuMs);
        first[k]?.push(r.firstSessionMs);
      }
    }
    const rows = specs.map((s, k) => ({
      agent: s.name,
      ms: summarize(ms[k] ?? []),
      rssMiB: summarize(rss[k] ?? []),
      cpuMs: summarize(cpu[k] ?? []),
      firstSessionMs: summarize(first[k] ?? []),
    }));
    ctx.log(`  ${rows.map((r) => `${r.agent}: ${r.ms.p50.toFixed(0)} ms`).join(", ")}`);
    const base = rows[0]?.ms.p50 ?? Number.NaN;
    return {
      tables: [
        {
          title: coldstart.title,
          headers: [
            "agent",
            "n",
            "median ms",
            "p10",
            "p90",
            "vs bundle",
            "CPU ms to init (median)",
            "RSS after init MiB",
            "ms to first session/new (median)",
          ],
          rows: rows.map((r) => [
            r.agent,
            r.ms.n,
            r.ms.p50,
            r.ms.p10,
            r.ms.p90,
            `${(r.ms.p50 / base).toFixed(2)}×`,
            r.cpuMs.p50,
            r.rssMiB.p50,
            r.firstSessionMs.p50,
          ]),
          notes: [
            "interleaved run by run after one warm-up each (which also fills the compile cache); the minified bundle is built into a temp dir the way `npm run build:production` builds it.",
            "Node 24 rows (when a Node 24 binary is found, see bench/README.md): the same bundle on the runtime VS Code uses, with and without NODE_COMPILE_CACHE.",
            "CPU ms: user + sys of the agent process when initialize was answered (10 ms ticks) — what start-up costs regardless of machine load.",
            "first session/new: spawn → initialize → one session/new in a temp folder answered; Manifold's core is loaded between the two (it is not on the initialize path).",
            "target (DESIGN §7): ≤ 100 ms for the bundle.",
          ],
        },
      ],
      data: { runs, rows },
    };
  },
};
