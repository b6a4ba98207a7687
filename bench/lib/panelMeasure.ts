// Numbers the panel benchmark reads outside the webview's probe: the browser renderer's JS heap
// (CDP on the workbench page), a process's RSS (/proc), and long-task summaries.
import { readFileSync } from "node:fs";
import type { Frame, Page } from "playwright-core";
import type { LongTask } from "./panelProbe";
import { cpuMs } from "./proc";
import { percentile } from "./stats";

const MiB = 2 ** 20;

/**
 * Heaps of the renderer that runs the workbench page, after a full GC: V8's (JS objects, code) and
 * Blink's (`embedderHeapUsedSize`: DOM nodes, styles, layout objects). Code-server serves the webviews
 * from the workbench's own origin, so unless Chromium put a webview in a process of its own (then
 * `frameHeapMiB` answers for it) these heaps hold every panel too.
 */
export async function rendererHeaps(page: Page): Promise<{ jsMiB: number; domMiB: number }> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send("HeapProfiler.collectGarbage");
    const usage = await cdp.send("Runtime.getHeapUsage");
    return { jsMiB: usage.usedSize / MiB, domMiB: usage.embedderHeapUsedSize / MiB };
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

/** The heap of an out-of-process frame, or null when the frame shares its parent's renderer. */
export async function frameHeapMiB(page: Page, frame: Frame): Promise<number | null> {
  let cdp;
  try {
    cdp = await page.context().newCDPSession(frame);
  } catch {
    return null; // not an OOPIF: Chromium only opens sessions on frames with their own target
  }
  try {
    await cdp.send("HeapProfiler.collectGarbage");
    return (await cdp.send("Runtime.getHeapUsage")).usedSize / MiB;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

export function rssMiB(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m?.[1] ? Number(m[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

export interface TaskSummary {
  count: number;
  totalMs: number;
  maxMs: number;
}

export function summarizeTasks(tasks: readonly LongTask[]): TaskSummary {
  return {
    count: tasks.length,
    totalMs: tasks.reduce((s, t) => s + t.duration, 0),
    maxMs: tasks.reduce((m, t) => Math.max(m, t.duration), 0),
  };
}

export function mergeTasks(parts: readonly TaskSummary[]): TaskSummary {
  return {
    count: parts.reduce((s, p) => s + p.count, 0),
    totalMs: parts.reduce((s, p) => s + p.totalMs, 0),
    maxMs: parts.reduce((m, p) => Math.max(m, p.maxMs), 0),
  };
}

export interface FrameStats {
  frames: number;
  p50: number;
  p95: number;
  max: number;
  /** Frames that took longer than 50 ms (a visible hitch). */
  over50: number;
}

export function frameStats(intervals: readonly number[]): FrameStats {
  const s = [...intervals].sort((a, b) => a - b);
  return {
    frames: s.length,
    p50: percentile(s, 50),
    p95: percentile(s, 95),
    max: s[s.length - 1] ?? Number.NaN,
    over50: s.filter((i) => i > 50).length,
  };
}

export interface Cpu {
  agentMs: number;
  hostMs: number;
  /** Every Chromium renderer (the workbench's holds the webviews too). */
  rendererMs: number;
}

/** CPU time used so far: the agent and the extension host from /proc, the renderers from CDP. */
export async function cpuNow(page: Page, hostPid: number, agentPids: readonly number[]): Promise<Cpu> {
  const browser = page.context().browser();
  let rendererMs = Number.NaN;
  if (browser) {
    const cdp = await browser.newBrowserCDPSession();
    try {
      const { processInfo } = await cdp.send("SystemInfo.getProcessInfo");
      rendererMs = processInfo.filter((p) => p.type === "renderer").reduce((sum, p) => sum + p.cpuTime * 1000, 0);
    } finally {
      await cdp.detach().catch(() => undefined);
    }
  }
  return { agentMs: agentPids.reduce((sum, pid) => sum + cpuMs(pid), 0), hostMs: cpuMs(hostPid), rendererMs };
}

export function cpuSince(a: Cpu, b: Cpu): Cpu {
  return { agentMs: b.agentMs - a.agentMs, hostMs: b.hostMs - a.hostMs, rendererMs: b.rendererMs - a.rendererMs };
}
