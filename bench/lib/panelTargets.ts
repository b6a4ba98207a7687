// The panel's targets (benchmark 10), read from its results entry for the run's targets table
// (targets.ts): first open against an empty session's, the host loop meanwhile, reopen, the
// 50,000-event session's open and scroll, and what a long panel costs the renderer (over a bare
// webview, the floor) and the host.
import type { PanelData } from "./panelPhases";
import { growth } from "./panelTables";
import { median } from "./stats";
import { ms, notMeasured, ratioRow, type Reader, type Row } from "./targets";

const mib = (v: number): string => `${v.toFixed(2)} MiB`;

/** An absolute target: met when value ≤ max. */
function atMost(target: string, value: number, max: number, unit: (v: number) => string, floor = "—"): Row {
  const verdict = Number.isFinite(value) ? (value <= max ? "met" : "missed") : "not measured";
  return { target, value: unit(value), floor, ratio: "—", goal: `≤ ${unit(max)}`, verdict };
}

const TARGETS = [
  "panel: first open of 10,000 events, latest message painted",
  "panel: the same against an empty session's first open",
  "panel: host loop p99 while it opens",
  "panel: reopen against an empty session's reopen (median)",
  "panel: first open of 50,000 events",
  "panel: scripted scroll of the 50,000-event panel to its first entry and back, longest frame",
  "panel: renderer per 10,000-event panel, over a bare webview",
  "panel: host heap per 10,000-event panel",
];

function isPanelData(data: unknown): data is PanelData {
  const d = data as Partial<PanelData> | undefined;
  return !!d && !!d.empty?.load && !!d.full?.load && !!d.huge?.load && Array.isArray(d.memory?.rows) && Array.isArray(d.floor?.rows);
}

export const panelTargets: Reader = (data) => {
  if (!isPanelData(data)) return TARGETS.map((target) => notMeasured(target, "—"));
  const d = data;
  const reopen = (runs: readonly { ready: number }[]): number => median(runs.map((r) => r.ready));
  const long = growth(d.memory.rows);
  const floor = growth(d.floor.rows);
  const first = d.memory.rows[0];
  const last = d.memory.rows[d.memory.rows.length - 1];
  const hostPerPanel =
    first && last && last.panels > first.panels ? (last.hostHeapMiB - first.hostHeapMiB) / (last.panels - first.panels) : Number.NaN;
  const over = long && floor ? long.js - floor.js : Number.NaN;
  const [t0, t1, t2, t3, t4, t5, t6, t7] = TARGETS as [string, string, string, string, string, string, string, string];
  return [
    atMost(t0, d.full.load.painted, 1000, ms),
    ratioRow(t1, d.full.load.painted, d.empty.load.painted, 1.5, "empty session"),
    { ...atMost(t2, d.full.load.loop.p99, 50, ms), goal: "< 50 ms" },
    ratioRow(t3, reopen(d.full.runs), reopen(d.empty.runs), 1.2, "empty session"),
    atMost(t4, d.huge.load.painted, 1500, ms),
    {
      ...atMost(t5, d.huge.scroll.max, 50, ms),
      value: `${ms(d.huge.scroll.max)} (${d.huge.scroll.over50} of ${d.huge.scroll.frames} frames over 50 ms)${d.huge.scroll.top === false ? "; the first entry was not reached" : ""}`,
      // A scroll that never reached the first entry has not shown the target holds.
      ...(d.huge.scroll.top === false ? { verdict: "missed" as const } : {}),
    },
    atMost(t6, over, 2, mib, floor ? `${mib(floor.js)} per bare webview; Manifold ${mib(long?.js ?? Number.NaN)}` : "—"),
    atMost(t7, hostPerPanel, 1, mib),
  ];
};
