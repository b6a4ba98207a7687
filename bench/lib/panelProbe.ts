// What the panel benchmark runs inside the browser: an init script installed in every frame before
// its documents load (so a webview opened later is watched from its first byte), and the readers of
// what it recorded. Times are epoch milliseconds (performance.timeOrigin + now), comparable with the
// benchmark's own Date.now() on the same machine.
import type { Frame, FrameLocator } from "playwright-core";
import { z } from "zod";

const LongTask = z.object({
  /** Epoch ms. */
  start: z.number(),
  duration: z.number(),
  /** Long-task attribution: "self" when this frame's own script ran it, else e.g. "same-origin-ancestor". */
  name: z.string(),
});
export type LongTask = z.infer<typeof LongTask>;

const ProbeState = z.object({
  longTasks: z.array(LongTask),
  /** Marker → when it first reached the DOM, and the frame after (≈ painted). */
  seen: z.record(z.string(), z.number()),
  painted: z.record(z.string(), z.number()),
  /** When the composer first existed, enabled and writable. */
  composer: z.number().nullable(),
});
export type ProbeState = z.infer<typeof ProbeState>;

/**
 * Every frame gets a long-task observer. A webview's content frame cannot be watched from its own
 * init script: it runs only on the frame's initial about:blank (whose window the real document then
 * reuses, timers and observers gone), so the outer webview frame (…/webview/browser/pre/index.html,
 * same origin) watches its `iframe#active-frame` on a 16 ms timer: for each new document it installs
 * a long-task observer and a watch for the history's first and last markers there, and records when the composer is first usable, all
 * into the content window's `__pb`. The timer stops once the composer is found; the marker watch
 * stops at the last-message marker, so nothing of the probe runs in a panel afterwards but the observers.
 */
export function probeScript(composerSelector: string): string {
  return `(() => {
  const now = () => performance.timeOrigin + performance.now();
  const state = (win) => {
    if (!win.__pb) win.__pb = { longTasks: [], seen: {}, painted: {}, composer: null };
    return win.__pb;
  };
  const observeTasks = (win) => {
    const pb = state(win);
    try {
      new win.PerformanceObserver((list) => {
        for (const e of list.getEntries()) pb.longTasks.push({ start: win.performance.timeOrigin + e.startTime, duration: e.duration, name: e.name });
      }).observe({ type: "longtask", buffered: true });
    } catch {}
  };
  if (!window.__pbTasks) { window.__pbTasks = true; observeTasks(window); }
  if (window.__pbWatch || !location.pathname.includes("/webview/browser/pre/index.html")) return;
  window.__pbWatch = true;
  const marker = /PB(?:FIRST|LAST)[A-Za-z0-9]*?END/g;
  const has = (text) => text.includes("PBFIRST") || text.includes("PBLAST");
  const watch = (win) => {
    const pb = state(win);
    const check = (text) => {
      for (const m of text.matchAll(marker)) {
        if (m[0] in pb.seen) continue;
        pb.seen[m[0]] = now();
        win.requestAnimationFrame(() => win.setTimeout(() => { pb.painted[m[0]] = now(); }, 0));
        if (m[0].startsWith("PBLAST")) observer.disconnect();
      }
    };
    const observer = new win.MutationObserver((records) => {
      for (const r of records) {
        if (r.type === "characterData") check(r.target.data || "");
        else for (const n of r.addedNodes) if (n.textContent && has(n.textContent)) check(n.textContent);
      }
    });
    const root = win.document.documentElement;
    if (root && has(root.textContent)) check(root.textContent);
    if (!Object.keys(pb.seen).some((k) => k.startsWith("PBLAST"))) observer.observe(win.document, { childList: true, subtree: true, characterData: true });
  };
  let doc = null;
  let root = null;
  const timer = setInterval(() => {
    const frame = document.querySelector("iframe#active-frame");
    const win = frame && frame.contentWindow;
    if (!win || !win.document || !win.document.documentElement) return;
    if (win.document !== doc) {
      doc = win.document;
      observeTasks(win);
    }
    if (doc.documentElement !== root) {
      root = doc.documentElement;
      watch(win);
    }
    const el = win.document.querySelector(${JSON.stringify(composerSelector)});
    const pb = state(win);
    if (el && !el.disabled && !el.readOnly) {
      if (pb.composer === null) pb.composer = now();
      clearInterval(timer);
    }
  }, 16);
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
  return ProbeState.parse(JSON.parse(raw));
}

const ScrollResult = z.object({
  /** Scrollable height in px (0: nothing to scroll). */
  height: z.number(),
  frames: z.number(),
  /** Frame intervals while scrolling, ms. */
  intervals: z.array(z.number()),
  start: z.number(),
  end: z.number(),
  /** Reached the session's first entry (nothing earlier left to load). */
  top: z.boolean(),
});
export type ScrollResult = z.infer<typeof ScrollResult>;

/**
 * Scrolls the panel's tallest scroll container to the top and back to the bottom, one step per
 * animation frame (steps of a viewport or 1/150 of the scrollable height, whichever is larger), loading
 * every earlier page on the way up, and records frame intervals.
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
    const more = () => document.querySelector('[data-testid="load-earlier"]') !== null;
    await frame();
    intervals.length = 0;
    // Towards the session's true top, a step per frame of a viewport or 1/150 of what is held then
    // (a fast drag of the scrollbar): earlier pages load as the top comes near, until none is left or
    // 2,400 frames have passed (\`top\` says whether it was reached).
    let still = 0;
    for (let i = 0; i < 2400 && still < 30; i++) {
      const step = Math.max(box.clientHeight, (box.scrollHeight - box.clientHeight) / 150);
      box.scrollTop = Math.max(0, box.scrollTop - step);
      await frame();
      still = box.scrollTop === 0 && !more() ? still + 1 : 0;
    }
    const height = box.scrollHeight - box.clientHeight;
    const down = Math.max(box.clientHeight, height / 150);
    for (let y = box.scrollTop; y < height; y += down) { box.scrollTop = Math.min(height, y + down); await frame(); }
    await frame();
    return JSON.stringify({ height, frames: intervals.length, intervals, start, end: now(), top: !more() });
  })()`);
  return ScrollResult.parse(JSON.parse(String(raw)));
}

/**
 * Long tasks that started in [from, to]; `own`: only those the frame's own script ran. A frame may
 * have two observers (its about:blank's and the probe's), so entries are deduplicated.
 */
export function tasksIn(tasks: readonly LongTask[], from: number, to: number, own: boolean): LongTask[] {
  const seen = new Set<string>();
  return tasks.filter((t) => {
    const key = `${t.start.toFixed(1)}:${t.duration}`;
    if (seen.has(key) || t.start < from || t.start > to || (own && t.name !== "self")) return false;
    seen.add(key);
    return true;
  });
}
