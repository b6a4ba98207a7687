// What the panel benchmark runs inside the browser: an init script installed in every frame before
// its documents load (so a webview opened later is watched from its first byte), and the readers of
// what it recorded. Times are epoch milliseconds (performance.timeOrigin + now), comparable with the
// benchmark's own Date.now() on the same machine.
import type { Frame, FrameLocator } from "playwright-core";

export interface LongTask {
  /** Epoch ms. */
  start: number;
  duration: number;
  /** Long-task attribution: "self" when this frame's own script ran it, else e.g. "same-origin-ancestor". */
  name: string;
}

export interface ProbeState {
  longTasks: LongTask[];
  /** Marker → when it first reached the DOM, and the frame after (≈ painted). */
  seen: Record<string, number>;
  painted: Record<string, number>;
  /** When the composer first existed, enabled and writable. */
  composer: number | null;
}

/**
 * Every frame gets a long-task observer; only webview frames (served from …/webview/browser/pre/) also
 * watch for last-message markers and the composer, so the workbench's own DOM work is not slowed by
 * the probe. The marker watch stops after the first marker, leaving nothing running in the panel.
 */
export function probeScript(composerSelector: string): string {
  return `(() => {
  if (window.__pb) return;
  const pb = { longTasks: [], seen: {}, painted: {}, composer: null };
  window.__pb = pb;
  const now = () => performance.timeOrigin + performance.now();
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) pb.longTasks.push({ start: performance.timeOrigin + e.startTime, duration: e.duration, name: e.name });
    }).observe({ type: "longtask", buffered: true });
  } catch {}
  if (!location.pathname.includes("/webview/browser/pre/")) return;
  const marker = /PBLAST[A-Za-z0-9]*?END/g;
  const check = (text) => {
    for (const m of text.matchAll(marker)) {
      if (m[0] in pb.seen) continue;
      pb.seen[m[0]] = now();
      requestAnimationFrame(() => setTimeout(() => { pb.painted[m[0]] = now(); }, 0));
      observer.disconnect();
    }
  };
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === "characterData") check(r.target.data || "");
      else for (const n of r.addedNodes) if (n.textContent && n.textContent.includes("PBLAST")) check(n.textContent);
    }
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true });
  const composer = () => {
    const el = document.querySelector(${JSON.stringify(composerSelector)});
    if (el && !el.disabled && !el.readOnly) pb.composer = now();
    else requestAnimationFrame(composer);
  };
  requestAnimationFrame(composer);
})()`;
}

/** The webview's content frame as a Frame (evaluate needs one; the harness hands out FrameLocators). */
export async function contentFrame(locator: FrameLocator): Promise<Frame> {
  const handle = await locator.owner().elementHandle();
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error("webview content frame not found");
  return frame;
}

export async function probeState(frame: Frame): Promise<ProbeState> {
  const raw: unknown = await frame.evaluate("window.__pb ? JSON.stringify(window.__pb) : null");
  if (typeof raw !== "string") throw new Error(`no probe in frame ${frame.url()}: the init script did not run there`);
  return JSON.parse(raw) as ProbeState;
}

export interface ScrollResult {
  /** Scrollable height in px (0: nothing to scroll). */
  height: number;
  frames: number;
  /** Frame intervals while scrolling, ms. */
  intervals: number[];
  start: number;
  end: number;
}

/**
 * Scrolls the panel's tallest scroll container to the top and back to the bottom, one step per
 * animation frame (steps of a viewport, at most 150 each way), and records frame intervals.
 */
export async function scriptedScroll(frame: Frame): Promise<ScrollResult> {
  const raw: unknown = await frame.evaluate(`(async () => {
    let box = document.scrollingElement, best = 0;
    for (const el of document.querySelectorAll("*")) {
      const room = el.scrollHeight - el.clientHeight;
      if (room > best && getComputedStyle(el).overflowY !== "visible") { best = room; box = el; }
    }
    const now = () => performance.timeOrigin + performance.now();
    const start = now();
    const intervals = [];
    let last = performance.now();
    const frame = () => new Promise((r) => requestAnimationFrame((t) => { intervals.push(t - last); last = t; r(); }));
    const step = Math.max(box.clientHeight, best / 150);
    await frame();
    intervals.length = 0;
    for (let y = box.scrollTop; y > 0; y -= step) { box.scrollTop = Math.max(0, y - step); await frame(); }
    for (let y = 0; y < best; y += step) { box.scrollTop = Math.min(best, y + step); await frame(); }
    await frame();
    return JSON.stringify({ height: best, frames: intervals.length, intervals, start, end: now() });
  })()`);
  return JSON.parse(String(raw)) as ScrollResult;
}

/** Long tasks that started in [from, to]; `own`: only those the frame's own script ran. */
export function tasksIn(tasks: readonly LongTask[], from: number, to: number, own: boolean): LongTask[] {
  return tasks.filter((t) => t.start >= from && t.start <= to && (!own || t.name === "self"));
}
