// The three scenarios of the panel benchmark, each a function of the running rig.
// They return raw numbers; bench/panel.ts orders them and turns them into tables.
import type { Frame } from "playwright-core";
import { sleep } from "./bench";
import { byTestId, eventually } from "../../test/vscode/support/scenario";
import { TEST_IDS } from "../../extension/webview/testIds";
import type { HostProbe, LoopDelay } from "./panelInspector";
import {
  cpuNow,
  cpuSince,
  frameHeapMiB,
  frameStats,
  mergeTasks,
  rendererHeaps,
  rssMiB,
  summarizeTasks,
  type Cpu,
  type FrameStats,
  type TaskSummary,
} from "./panelMeasure";
import { contentFrame, probeState, scriptedScroll, tasksIn } from "./panelProbe";
import { closePanel, openPanel, panelTitle, switchToSeeded, timedOpen, type PanelRig } from "./panelRig";
import { webviewFrame } from "../../test/vscode/support/browser";
import type { SseFake } from "./sseFake";
import { summarizeHostProfile, type HostProfile } from "./panelProfile";

export interface PanelPlan {
  events: number;
  /** Events of the one very long session (about 70 MB of log at 50,000). */
  hugeEvents: number;
  /** Events of the "empty" session: one short turn, so the same marker can be watched. */
  emptyEvents: number;
  reps: number;
  idleSeconds: number;
  streamSeconds: number;
  /** Chunks per second per panel: one delta each, like a model sending ~100 tokens/s. */
  rate: number;
  streamPanels: number;
  memoryPanels: number;
}

export interface Stage {
  rig: PanelRig;
  host: HostProbe;
  fake: SseFake;
  /** Take a CPU profile of the host while the panels stream (MANIFOLD_BENCH_PANEL_PROFILE=1). */
  profile: boolean;
  log(msg: string): void;
}

export interface Memory {
  rendererHeapMiB: number;
  /** Blink's heap in the same renderer (DOM, styles, layout). */
  rendererDomMiB: number;
  hostHeapMiB: number;
  hostRssMiB: number;
  agentRssMiB: number;
}

export async function memory(s: Stage): Promise<Memory> {
  const host = await s.host.heap();
  const agentRssMiB = s.rig.agentPids().reduce((sum, pid) => sum + rssMiB(pid), 0);
  const renderer = await rendererHeaps(s.rig.page);
  return {
    rendererHeapMiB: renderer.jsMiB,
    rendererDomMiB: renderer.domMiB,
    hostHeapMiB: host.heapMiB,
    hostRssMiB: host.rssMiB,
    agentRssMiB,
  };
}

/** The workbench page's own long tasks in [from, to] (its renderer may also run the webviews). */
async function workbenchTasks(s: Stage, from: number, to: number): Promise<TaskSummary> {
  return summarizeTasks(tasksIn((await probeState(s.rig.page.mainFrame())).longTasks, from, to, false));
}

async function webviewTasks(frame: Frame, from: number, to: number): Promise<TaskSummary> {
  return summarizeTasks(tasksIn((await probeState(frame)).longTasks, from, to, true));
}

export interface IdleResult {
  seconds: number;
  loop: LoopDelay;
  memory: Memory;
}

export async function idle(s: Stage, seconds: number): Promise<IdleResult> {
  await s.host.resetLoopDelay();
  await sleep(seconds * 1000); // a window of time is what is measured here: nothing to wait for
  return { seconds, loop: await s.host.readLoopDelay(), memory: await memory(s) };
}

export interface OpenRun {
  folder: string;
  events: number;
  /** ms from the click: the session's first message in the DOM (the history has started to arrive). */
  firstInDom: number;
  inDom: number;
  painted: number;
  composer: number;
  ready: number;
  loop: LoopDelay;
  webview: TaskSummary;
  workbench: TaskSummary;
  /** CPU used from the click to ready, per process. */
  cpu: Cpu;
  /** The host's CPU from the click to ready, by script (only with `Stage.profile`). */
  profile?: HostProfile;
}

export interface OpenResult {
  /** The first bind (Switch Session…, a `session/load` replaying the history): ms to the last message painted, host loop, CPU. */
  load: { painted: number; loop: LoopDelay; cpu: Cpu; profile?: HostProfile };
  /** Closed and opened again: the folder re-attaches the session it still holds. */
  runs: OpenRun[];
  scroll: FrameStats & { height: number; top?: boolean; webview: TaskSummary; workbench: TaskSummary };
  /** Heap of the panel's own renderer if it has one (null: it shares the workbench's). */
  ownHeapMiB: number | null;
}

/**
 * Scenario 1 for one folder: bind its panel to the seeded session, then `reps` times close the panel
 * and open it again (which re-attaches the session), timed; then the scripted scroll. The panel stays open.
 */
export async function openScenario(s: Stage, folder: string, events: number, reps: number): Promise<OpenResult> {
  const first = await openPanel(s.rig, folder);
  await s.host.resetLoopDelay();
  const loadCpu0 = await cpuNow(s.rig.page, s.rig.hostPid(), s.rig.agentPids());
  if (s.profile) await s.host.startProfile();
  const bound = await switchToSeeded(s.rig, folder, first);
  const loadLoop = await s.host.readLoopDelay();
  const loadProfile = s.profile ? summarizeHostProfile(await s.host.stopProfile(), 25) : undefined;
  const load = {
    painted: bound.painted,
    loop: loadLoop,
    cpu: cpuSince(loadCpu0, await cpuNow(s.rig.page, s.rig.hostPid(), s.rig.agentPids())),
    ...(loadProfile ? { profile: loadProfile } : {}),
  };
  s.log(`panel: ${folder} (${events} events) loaded in ${Math.round(bound.painted)} ms`);
  const runs: OpenRun[] = [];
  let frame: Frame | undefined;
  for (let i = 0; i < reps; i++) {
    await closePanel(s.rig, folder);
    await s.host.resetLoopDelay();
    const cpu0 = await cpuNow(s.rig.page, s.rig.hostPid(), s.rig.agentPids());
    if (s.profile) await s.host.startProfile();
    const t = await timedOpen(s.rig, folder);
    const loop = await s.host.readLoopDelay();
    const profile = s.profile ? summarizeHostProfile(await s.host.stopProfile()) : undefined;
    const cpu = cpuSince(cpu0, await cpuNow(s.rig.page, s.rig.hostPid(), s.rig.agentPids()));
    frame = await contentFrame(t.frame);
    const end = t.at + t.ready;
    runs.push({
      folder,
      events,
      cpu,
      firstInDom: t.firstInDom,
      inDom: t.inDom,
      painted: t.painted,
      composer: t.composer,
      ready: t.ready,
      loop,
      webview: await webviewTasks(frame, t.at, end),
      workbench: await workbenchTasks(s, t.at, end),
      ...(profile ? { profile } : {}),
    });
    s.log(`panel: ${folder} (${events} events) ready in ${Math.round(t.ready)} ms`);
  }
  if (!frame) throw new Error("no open run");
  const sc = await scriptedScroll(frame);
  return {
    load,
    runs,
    scroll: {
      ...frameStats(sc.intervals),
      height: sc.height,
      top: sc.top,
      webview: await webviewTasks(frame, sc.start, sc.end),
      workbench: await workbenchTasks(s, sc.start, sc.end),
    },
    ownHeapMiB: await frameHeapMiB(s.rig.page, frame),
  };
}

export interface StreamResult {
  panels: number;
  /** Of those, how many were on screen while streaming (each in its own editor column). */
  visible: number;
  seconds: number;
  chunksPerPanel: number;
  loop: LoopDelay;
  /** Each panel's own long tasks, summed; and the worst panel's count. */
  webview: TaskSummary;
  worstPanelCount: number;
  workbench: TaskSummary;
  before: Memory;
  after: Memory;
  /** The host's CPU over the streams, by script (only with `Stage.profile`). */
  profile?: HostProfile;
}

/**
 * How many webviews are on screen (the workbench hides a background tab's): of these folders' panels,
 * or any (Manifold's and the floor's bare ones) without `folders`.
 */
export async function visibleWebviews(s: Stage, folders?: readonly string[]): Promise<number> {
  const titles = folders ? JSON.stringify(folders.map((f) => `Manifold: ${f}`)) : "null";
  const n: unknown = await s.rig.page.evaluate(`(() => {
    const titles = ${titles};
    let n = 0;
    for (const outer of document.querySelectorAll("iframe.webview.ready")) {
      const inner = outer.contentDocument && outer.contentDocument.querySelector("iframe#active-frame");
      const r = outer.getBoundingClientRect();
      if (inner && (!titles || titles.includes(inner.getAttribute("title"))) && r.width > 0 && r.height > 0 && getComputedStyle(outer).visibility !== "hidden") n++;
    }
    return n;
  })()`);
  return Number(n);
}

/** Scenario 2: fresh sessions in `folders`, all panels visible, each streaming `rate` chunks/s. */
export async function streamScenario(s: Stage, folders: readonly string[], rate: number, seconds: number): Promise<StreamResult> {
  for (const f of folders) await openPanel(s.rig, f);
  // Opening a panel beside the others can make the workbench rebuild their webview frames: look each
  // one up again now, and again after the streams (a frame rebuilt meanwhile loses its long tasks).
  const frameOf = async (f: string): Promise<Frame> => contentFrame(await webviewFrame(s.rig.page, panelTitle(f)));
  const before = await memory(s);
  const visible = await visibleWebviews(s, folders);
  const chunks = rate * seconds;
  const target = s.fake.stats.chunks + chunks * folders.length;
  if (s.profile) await s.host.startProfile();
  await s.host.resetLoopDelay();
  const from = Date.now();
  for (const f of folders) {
    const input = (await webviewFrame(s.rig.page, panelTitle(f))).locator(byTestId(TEST_IDS.composerInput));
    await input.fill(`Stream please: chunks=${chunks} rate=${rate}`);
    await input.press("Enter");
  }
  await eventually(() => (s.fake.stats.chunks >= target ? true : undefined), "the four streams to end", (seconds * 3 + 120) * 1000);
  const to = Date.now();
  const loop = await s.host.readLoopDelay();
  const profile = s.profile ? summarizeHostProfile(await s.host.stopProfile()) : undefined;
  const perPanel: TaskSummary[] = [];
  for (const f of folders) perPanel.push(await webviewTasks(await frameOf(f), from, to));
  const result: StreamResult = {
    panels: folders.length,
    visible,
    seconds: (to - from) / 1000,
    chunksPerPanel: chunks,
    loop,
    webview: mergeTasks(perPanel),
    worstPanelCount: Math.max(...perPanel.map((p) => p.count)),
    workbench: await workbenchTasks(s, from, to),
    before,
    after: await memory(s),
    ...(profile ? { profile } : {}),
  };
  for (const f of folders) await closePanel(s.rig, f);
  return result;
}

/**
 * Scenario 3: opens and binds one more panel per folder in `folders` (each to its seeded long
 * history), measuring memory after each, so the growth per panel can be read off the rows.
 */
export async function memoryScenario(s: Stage, folders: readonly string[], alreadyOpen: number): Promise<MemoryResult> {
  const rows: MemoryResult["rows"] = [{ panels: alreadyOpen, visible: await visibleWebviews(s), ...(await memory(s)) }];
  try {
    for (const [i, f] of folders.entries()) {
      await switchToSeeded(s.rig, f, await openPanel(s.rig, f));
      rows.push({ panels: alreadyOpen + i + 1, visible: await visibleWebviews(s), ...(await memory(s)) });
      s.log(`panel: ${alreadyOpen + i + 1} long panels open`);
    }
    return { rows };
  } catch (error) {
    // The rows so far are still a result: keep them, and say where and why it stopped.
    return { rows, error: `stopped after ${rows.length - 1 + alreadyOpen} panels: ${String(error).split("\n")[0]}` };
  }
}

export interface MemoryResult {
  /** `visible`: webviews on screen then (a panel opened as a tab over another hides that one's). */
  rows: Array<{ panels: number; visible: number } & Memory>;
  error?: string;
}

export interface PanelData {
  baseline: IdleResult;
  streaming: StreamResult;
  empty: OpenResult;
  full: OpenResult;
  memory: MemoryResult;
  /** Bare webviews added beside the long panels (bench/lib/panelFloor.ts). */
  floor: MemoryResult;
  huge: OpenResult;
}
