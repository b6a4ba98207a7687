// Summarizes a V8 .cpuprofile (from `node --cpu-prof`): self time by function and by package.
import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { fileURLToPath } from "node:url";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
}

export interface ProfileSummary {
  totalMs: number;
  byFunction: { name: string; ms: number; pct: number }[];
  byPackage: { name: string; ms: number; pct: number }[];
}

function packageOf(url: string): string {
  if (!url) return "(native / V8)";
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + "node_modules/".length).split("/");
    return rest[0]?.startsWith("@") ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith("node:")) {
    const parts = url.slice(5).split("/");
    return parts[0] === "internal" ? `node:internal/${parts[1] ?? ""}` : `node:${parts[0]}`;
  }
  const m = /\/(agent-server|bench|dist)\/(.*)$/.exec(url);
  if (m) return m[1] === "agent-server" ? `agent-server/${(m[2] ?? "").split("/")[0]}` : (m[1] as string);
  return url;
}

const maps = new Map<string, SourceMap | null>();

/** Maps a frame of a bundled file (with a linked .map beside it) back to its original source file. */
function originalFrame(frame: ProfileNode["callFrame"]): ProfileNode["callFrame"] {
  if (!frame.url.startsWith("file://") || !frame.url.endsWith(".js")) return frame;
  let map = maps.get(frame.url);
  if (map === undefined) {
    const mapFile = fileURLToPath(frame.url) + ".map";
    map = existsSync(mapFile)
      ? new SourceMap(JSON.parse(readFileSync(mapFile, "utf8")) as ConstructorParameters<typeof SourceMap>[0])
      : null;
    maps.set(frame.url, map);
  }
  if (!map) return frame;
  const e = map.findEntry(frame.lineNumber, frame.columnNumber) as { originalSource?: string; originalLine?: number };
  if (!e.originalSource) return frame;
  return { ...frame, url: e.originalSource, lineNumber: e.originalLine ?? frame.lineNumber };
}

export function summarizeProfile(file: string, top = 15): ProfileSummary {
  const p = JSON.parse(readFileSync(file, "utf8")) as Profile;
  for (const n of p.nodes) n.callFrame = originalFrame(n.callFrame);
  const totalHits = p.nodes.reduce((a, n) => a + (n.hitCount ?? 0), 0) || 1;
  const totalMs = (p.endTime - p.startTime) / 1000;
  const msPerHit = totalMs / totalHits;
  const fn = new Map<string, number>();
  const pkg = new Map<string, number>();
  for (const n of p.nodes) {
    const hits = n.hitCount ?? 0;
    if (!hits) continue;
    const short = n.callFrame.url.replace(/^file:\/\//, "").replace(/^.*node_modules\//, "");
    const name =
      `${n.callFrame.functionName || "(anonymous)"} ${short ? `${short.split("/").slice(-2).join("/")}:${n.callFrame.lineNumber + 1}` : ""}`.trim();
    fn.set(name, (fn.get(name) ?? 0) + hits);
    const k = n.callFrame.functionName === "(idle)" ? "(idle)" : packageOf(n.callFrame.url);
    pkg.set(k, (pkg.get(k) ?? 0) + hits);
  }
  const rank = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, hits]) => ({ name, ms: hits * msPerHit, pct: (100 * hits) / totalHits }));
  return { totalMs, byFunction: rank(fn), byPackage: rank(pkg) };
}
