// The panel benchmark's numbers as tables (bench/README.md, "panel", says how to read each).
import type { OpenResult, PanelData, PanelPlan } from "./panelPhases";
import type { HostProfile } from "./panelProfile";
import type { Cell, Table } from "./table";

const tasks = (t: { count: number; totalMs: number; maxMs: number }): Cell[] => [t.count, t.totalMs, t.maxMs];

/** The row's name by its history's size. */
function sizeName(plan: PanelPlan, events: number): string {
  return events === plan.emptyEvents ? "empty" : events === plan.hugeEvents ? "huge" : "long";
}

function openTable(plan: PanelPlan, data: PanelData): Table {
  const results = [data.empty, data.full, data.huge];
  const sizes = [plan.emptyEvents, plan.events, plan.hugeEvents];
  const rows = results.flatMap((r: OpenResult) =>
    r.runs.map((x): Cell[] => [
      `${sizeName(plan, x.events)}: reopen`,
      x.events,
      x.firstInDom,
      x.inDom,
      x.painted,
      x.composer,
      x.ready,
      x.loop.p99,
      x.loop.max,
      ...tasks(x.webview),
      x.workbench.count,
      x.cpu.agentMs,
      x.cpu.hostMs,
      x.cpu.rendererMs,
    ]),
  );
  const loads = results.map((r: OpenResult, i): Cell[] => [
    `${sizeName(plan, sizes[i] as number)}: load`,
    sizes[i] as number,
    "—",
    "—",
    r.load.painted,
    "—",
    r.load.painted,
    r.load.loop.p99,
    r.load.loop.max,
    "—",
    "—",
    "—",
    "—",
    r.load.cpu.agentMs,
    r.load.cpu.hostMs,
    r.load.cpu.rendererMs,
  ]);
  rows.push(...loads);
  return {
    title: "panel 1: open a session's panel (ms from the click on the folder)",
    headers: [
      "history",
      "events",
      "first msg in DOM",
      "last msg in DOM",
      "painted",
      "composer usable",
      "ready",
      "host loop p99",
      "host loop max",
      "webview long tasks",
      "total ms",
      "longest ms",
      "workbench long tasks",
      "agent CPU ms",
      "host CPU ms",
      "renderer CPU ms",
    ],
    rows,
    notes: [
      "ready = max(painted, composer usable); the panel was closed and reopened, which re-attaches its bound session (one row per run)",
      "load rows: the first bind, Switch Session… to the seeded session in an open panel (a session/load of the latest turns, older ones paged in on scrolling up (I-123); ms from the click on its title; the composer stays usable meanwhile)",
      "first msg in DOM: — when the panel holds only the latest entries (the history's first message arrives only on scrolling up)",
      "host loop: extension-host event-loop delay beyond its 10 ms timer (perf_hooks) over the open; CPU: used from the click to ready, by process",
    ],
  };
}

function scrollTable(data: PanelData): Table {
  const row = (name: string, r: OpenResult): Cell[] => [
    name,
    r.scroll.height,
    r.scroll.top === false ? "no" : "yes",
    r.scroll.frames,
    r.scroll.p50,
    r.scroll.p95,
    r.scroll.max,
    r.scroll.over50,
    ...tasks(r.scroll.webview),
    r.scroll.workbench.count,
  ];
  return {
    title:
      "panel 1b: scripted scroll to the session's first entry (earlier pages load on the way) and back, one step per frame (a viewport or 1/150 of what is held)",
    headers: [
      "history",
      "scroll px",
      "first entry reached",
      "frames",
      "frame p50 ms",
      "frame p95 ms",
      "frame max ms",
      "frames > 50 ms",
      "webview long tasks",
      "total ms",
      "longest ms",
      "workbench long tasks",
    ],
    rows: [row("empty", data.empty), row("long", data.full), row("huge", data.huge)],
  };
}

function streamTable(plan: PanelPlan, data: PanelData): Table {
  const b = data.baseline;
  const s = data.streaming;
  return {
    title: `panel 2: ${s.panels} visible panels streaming ${plan.rate} chunks/s each`,
    headers: [
      "phase",
      "seconds",
      "host loop p50",
      "host loop p99",
      "host loop max",
      "webview long tasks",
      "worst panel",
      "longest ms",
      "workbench long tasks",
      "renderer heap MiB",
      "host heap MiB",
    ],
    rows: [
      [
        "idle, no panel",
        b.seconds,
        b.loop.p50,
        b.loop.p99,
        b.loop.max,
        null,
        null,
        null,
        null,
        b.memory.rendererHeapMiB,
        b.memory.hostHeapMiB,
      ],
      [`${s.panels} panels, before`, null, null, null, null, null, null, null, null, s.before.rendererHeapMiB, s.before.hostHeapMiB],
      [
        `${s.panels} panels streaming`,
        s.seconds,
        s.loop.p50,
        s.loop.p99,
        s.loop.max,
        s.webview.count,
        s.worstPanelCount,
        s.webview.maxMs,
        s.workbench.count,
        s.after.rendererHeapMiB,
        s.after.hostHeapMiB,
      ],
    ],
    notes: [
      `${s.chunksPerPanel} chunks per panel; ${s.visible} of ${s.panels} panels on screen; heaps after a forced GC; "after" is once every stream has ended`,
    ],
  };
}

type MemoryRow = PanelData["memory"]["rows"][number];
type Memory = Omit<MemoryRow, "panels" | "visible">;

function memoryTable(plan: PanelPlan, data: PanelData): Table {
  const m = (label: string, x: Memory, visible: number | null = null): Cell[] => [
    label,
    visible,
    x.rendererHeapMiB,
    x.rendererDomMiB,
    x.hostHeapMiB,
    x.hostRssMiB,
    x.agentRssMiB,
  ];
  const long = data.memory.rows;
  const rows: Cell[][] = [
    m("no panel", data.baseline.memory),
    m(`${data.streaming.panels} new sessions`, data.streaming.before),
    ...long.map((r) => m(`${r.panels} × ${plan.events.toLocaleString("en-US")} events`, r, r.visible)),
    ...data.floor.rows
      .slice(1)
      .map((r) =>
        m(`${long[long.length - 1]?.panels ?? 0} × ${plan.events.toLocaleString("en-US")} events + ${r.panels} bare`, r, r.visible),
      ),
  ];
  const notes: string[] = data.memory.error ? [`did not reach ${plan.memoryPanels} panels: ${data.memory.error}`] : [];
  if (data.floor.error) notes.push(`floor: ${data.floor.error}`);
  const hidden = data.floor.rows.some((r, i) => i > 0 && r.visible !== (data.floor.rows[i - 1]?.visible ?? 0) + 1);
  if (hidden) notes.push("floor: a bare webview did not add one webview on screen (it hid another): its per-panel figure is not a floor");
  const first = long[0];
  const last = long[long.length - 1];
  if (first && last && last.panels > first.panels) {
    const per = (k: "rendererHeapMiB" | "hostHeapMiB" | "agentRssMiB"): string =>
      ((last[k] - first[k]) / (last.panels - first.panels)).toFixed(1);
    notes.push(
      `per added long panel: renderer heap +${per("rendererHeapMiB")} MiB, host heap +${per("hostHeapMiB")} MiB, agent RSS +${per("agentRssMiB")} MiB`,
    );
  }
  const own = data.full.ownHeapMiB;
  notes.push(
    own === null
      ? "the webviews run in the workbench's renderer (same origin): their heap is in the renderer columns; each panel opens beside the last, so every one is on screen with its webview alive"
      : `a long panel's own renderer heap: ${own.toFixed(1)} MiB`,
  );
  notes.push(
    "bare: a webview panel with an empty document under a CSP that allows nothing, no script (bench/fixtures/bareWebview), each opened in a new editor group after the long panels",
  );
  return {
    title: "panel 3: memory as panels are added (after a forced GC)",
    headers: [
      "panels open",
      "webviews on screen",
      "renderer heap MiB",
      "renderer DOM MiB",
      "host heap MiB",
      "host RSS MiB",
      "agent RSS MiB",
    ],
    rows,
    notes,
  };
}

export interface PerPanel {
  added: number;
  js: number;
  dom: number;
}

/** The renderer's growth per panel between two memory readings. */
function perPanel(from: Memory | undefined, to: Memory | undefined, added: number): PerPanel | undefined {
  if (!from || !to || added <= 0) return undefined;
  return { added, js: (to.rendererHeapMiB - from.rendererHeapMiB) / added, dom: (to.rendererDomMiB - from.rendererDomMiB) / added };
}

export const growth = (rows: readonly MemoryRow[]): PerPanel | undefined => {
  const first = rows[0];
  const last = rows[rows.length - 1];
  return first && last ? perPanel(first, last, last.panels - first.panels) : undefined;
};

function floorTable(plan: PanelPlan, data: PanelData): Table {
  const floor = growth(data.floor.rows);
  const fresh = perPanel(data.baseline.memory, data.streaming.before, data.streaming.panels);
  const long = growth(data.memory.rows);
  const row = (label: string, p: PerPanel | undefined): Cell[] =>
    p ? [label, p.added, p.js, p.dom, floor ? p.js / floor.js : null] : [label, null, null, null, null];
  const over = (label: string, p: PerPanel | undefined): Cell[] =>
    p && floor ? [label, null, p.js - floor.js, p.dom - floor.dom, null] : [label, null, null, null, null];
  const events = plan.events.toLocaleString("en-US");
  return {
    title: "panel 3b: the renderer's cost per panel, Manifold's and a bare webview's (the floor, same run)",
    headers: ["panel", "panels added", "JS heap MiB / panel", "DOM MiB / panel", "JS heap × floor"],
    rows: [
      row("bare webview (floor)", floor),
      row("Manifold, new session", fresh),
      row(`Manifold, ${events} events`, long),
      over("Manifold new session over the floor", fresh),
      over(`Manifold ${events} events over the floor`, long),
    ],
    notes: [
      "per panel: the growth of the renderer's heaps (after a forced GC) over the panels added, divided by their number",
      `new sessions: the ${data.streaming.panels} panels of scenario 2 before streaming, over the idle reading; ${events} events: the rows of panel 3; the floor: its bare rows`,
    ],
  };
}

function profileTable(title: string, p: HostProfile | undefined, seconds: number): Table[] {
  if (!p) return [];
  const pct = (ms: number): number => (p.totalMs > 0 ? (100 * ms) / p.totalMs : 0);
  return [
    {
      title,
      headers: ["script or function", "ms", "% of busy"],
      rows: [
        ...p.byScript.slice(0, 10).map((r): Cell[] => [r.script, r.ms, pct(r.ms)]),
        ...p.top.map((r): Cell[] => [`  ${r.script}: ${r.fn}`, r.ms, pct(r.ms)]),
      ],
      notes: [`busy ${p.totalMs.toFixed(0)} ms over ${seconds.toFixed(1)} s; sampled every 1 ms (MANIFOLD_BENCH_PANEL_PROFILE=1)`],
    },
  ];
}

export function panelTables(plan: PanelPlan, data: PanelData): Table[] {
  const open = data.full.runs[0];
  return [
    openTable(plan, data),
    ...profileTable(
      "panel 1c: the extension host's CPU while a long session opens (self time, idle excluded)",
      open?.profile,
      (open?.ready ?? 0) / 1000,
    ),
    ...profileTable(
      "panel 1d: the extension host's CPU while a long session is first loaded (Switch Session…, self time, idle excluded)",
      data.full.load.profile,
      data.full.load.painted / 1000,
    ),
    scrollTable(data),
    streamTable(plan, data),
    ...profileTable(
      "panel 2b: the extension host's CPU while the panels stream (self time, idle excluded)",
      data.streaming.profile,
      data.streaming.seconds,
    ),
    memoryTable(plan, data),
    floorTable(plan, data),
  ];
}
