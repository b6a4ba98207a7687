// A CPU profile of the extension host (CDP Profiler through lib/panelInspector.ts) summed by script:
// self time per bundle or runtime part, and the hottest functions. Opt-in
// (MANIFOLD_BENCH_PANEL_PROFILE=1): sampling costs the host a little, so the default run leaves it off
// and its loop-delay figures stay comparable with earlier runs.
import { z } from "zod";

const CpuProfile = z.object({
  nodes: z.array(
    z.object({
      id: z.number(),
      callFrame: z.object({ functionName: z.string(), url: z.string(), lineNumber: z.number() }),
    }),
  ),
  samples: z.array(z.number()),
  timeDeltas: z.array(z.number()),
});

export interface HostProfile {
  totalMs: number;
  byScript: Array<{ script: string; ms: number }>;
  top: Array<{ fn: string; script: string; ms: number }>;
}

/** Which part of the host a frame belongs to: Manifold's bundle, VS Code's extension host, Node, V8. */
export function scriptOf(url: string, functionName: string): string {
  if (url === "") return functionName.startsWith("(") ? functionName : "(native)";
  if (url.includes("manifold-dev.manifold"))
    return url.includes("/dist/") ? `manifold ${url.slice(url.lastIndexOf("/dist/") + 1)}` : "manifold";
  if (url.startsWith("node:")) return "node internals";
  const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (m?.[1]) return `node_modules ${m[1]}`;
  if (url.includes("/out/vs/")) return `vscode ${url.slice(url.lastIndexOf("/out/vs/") + 5)}`;
  return url.slice(url.lastIndexOf("/") + 1);
}

export function summarizeHostProfile(raw: unknown, top = 12): HostProfile {
  const p = CpuProfile.parse(raw);
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const perScript = new Map<string, number>();
  const perFn = new Map<string, { fn: string; script: string; ms: number }>();
  let total = 0;
  p.samples.forEach((id, i) => {
    const node = byId.get(id);
    const ms = (p.timeDeltas[i] ?? 0) / 1000;
    if (!node || node.callFrame.functionName === "(idle)") return;
    total += ms;
    const script = scriptOf(node.callFrame.url, node.callFrame.functionName);
    perScript.set(script, (perScript.get(script) ?? 0) + ms);
    const fn = `${node.callFrame.functionName || "(anonymous)"}:${node.callFrame.lineNumber + 1}`;
    const key = `${script} ${fn}`;
    const row = perFn.get(key) ?? { fn, script, ms: 0 };
    row.ms += ms;
    perFn.set(key, row);
  });
  return {
    totalMs: total,
    byScript: [...perScript].map(([script, ms]) => ({ script, ms })).sort((a, b) => b.ms - a.ms),
    top: [...perFn.values()].sort((a, b) => b.ms - a.ms).slice(0, top),
  };
}
