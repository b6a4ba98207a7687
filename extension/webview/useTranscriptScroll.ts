// The transcript's scroll behaviour, on the pure decisions of ./transcriptScroll.ts and ./transcriptLayout.ts:
// it follows the latest entry unless the user scrolled up, keeps the reader's entry in place whatever
// changes above it (earlier pages put in front, entries measured for the first time), renders only the
// entries near the viewport once there are many (padding stands in for the rest), and asks for earlier
// entries when the block at its top comes near the viewport.
import { useEffect, useLayoutEffect, useReducer, useRef, useState } from "preact/hooks";
import { earlierRequest, followsLatest } from "./transcriptScroll";
import {
  covers,
  entryAt,
  GAP_PX,
  Heights,
  layoutOf,
  paddingOf,
  planRange,
  topFromAnchor,
  type Anchor,
  type Layout,
  type Range,
} from "./transcriptLayout";

/** How far above the viewport older entries start loading, so scrolling up rarely reaches the top. */
const LOAD_MARGIN_PX = 1500;
/** The viewport's height assumed before the first layout. */
const FIRST_VIEWPORT_PX = 1000;
/** The attribute each rendered entry's slot carries: its entry's id. */
export const ENTRY_ATTR = "data-entry";

type Box = { current: HTMLDivElement | null };

/** A node's top in the scroller's content (scroll-independent). */
function yIn(scroller: HTMLElement, node: Element): number {
  return node.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop;
}

/** The rendered slot under the viewport's top (binary search: slots are in order), if one is. */
function slotAtTop(scroller: HTMLElement, column: HTMLElement): Anchor | undefined {
  const slots = column.children;
  const top = scroller.scrollTop;
  let lo = 0;
  let hi = slots.length - 1;
  let found: Element | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const slot = slots[mid] as Element;
    const y = yIn(scroller, slot);
    if (y + slot.getBoundingClientRect().height <= top) lo = mid + 1;
    else {
      found = slot;
      hi = mid - 1;
    }
  }
  if (!found) return undefined;
  const y = yIn(scroller, found);
  const id = found.getAttribute(ENTRY_ATTR);
  return id !== null && y <= top + GAP_PX ? { id, offset: top - y } : undefined;
}

interface Shown {
  ids: readonly string[];
  layout: Layout;
  range: Range;
  /** The viewport's top in the column when this render was planned. */
  top: number;
}

/** The range the last render mounted, as indexes of `ids` (earlier entries may have been put in front since). */
function mountedIn(s: Shown | undefined, ids: readonly string[]): Range | undefined {
  if (!s || s.range.hi <= s.range.lo) return undefined;
  if (s.ids === ids) return s.range;
  const lo = ids.indexOf(s.ids[s.range.lo] as string);
  const hi = ids.indexOf(s.ids[s.range.hi - 1] as string);
  return lo >= 0 && hi >= lo ? { lo, hi: hi + 1 } : undefined;
}

/**
 * Which entries to render and the padding that stands for the others, and what keeps the reader where
 * they read: stuck to the bottom while new entries arrive unless they scrolled up, else on the entry at
 * the viewport's top, at the same offset, across every render.
 */
function useTranscriptWindow(ref: Box, column: Box, ids: readonly string[]) {
  const [heights] = useState(() => new Heights());
  const stick = useRef(true);
  const anchor = useRef<Anchor | undefined>(undefined);
  const viewport = useRef(0);
  const shown = useRef<Shown | undefined>(undefined);
  const [, refill] = useReducer((n: number) => n + 1, 0);

  const layout = layoutOf(ids, heights);
  const height = viewport.current || FIRST_VIEWPORT_PX;
  const top = stick.current
    ? layout.total - height
    : ((anchor.current && topFromAnchor(layout, ids, anchor.current)) ?? shown.current?.top ?? 0);
  const { range, partial } = planRange(layout, mountedIn(shown.current, ids), top, height);
  shown.current = { ids, layout, range, top };

  /** The anchor: the rendered entry at the viewport's top, else (the viewport is over padding) the layout's. */
  const anchorNow = (el: HTMLElement, col: HTMLElement): Anchor | undefined => {
    const slot = slotAtTop(el, col);
    if (slot) return slot;
    const s = shown.current;
    if (!s) return undefined;
    const y = el.scrollTop - yIn(el, col);
    const i = entryAt(s.layout, y);
    const id = s.ids[i];
    return id === undefined ? undefined : { id, offset: y - (s.layout.starts[i] as number) };
  };

  // Before paint: measure what was rendered, then put the reader back where they were.
  useLayoutEffect(() => {
    const el = ref.current;
    const col = column.current;
    if (!el || !col) return;
    viewport.current = el.clientHeight;
    for (const slot of col.children) {
      const id = slot.getAttribute(ENTRY_ATTR);
      if (id !== null) heights.set(id, slot.getBoundingClientRect().height);
    }
    if (stick.current) el.scrollTop = el.scrollHeight;
    else if (anchor.current) {
      const a = anchor.current;
      const slot = [...col.children].find((s) => s.getAttribute(ENTRY_ATTR) === a.id);
      if (slot) {
        const want = yIn(el, slot) + a.offset;
        if (Math.abs(want - el.scrollTop) >= 1) el.scrollTop = want;
      }
    }
    anchor.current = anchorNow(el, col);
  });

  // The rest of the overscan, a budget's worth per frame.
  useEffect(() => {
    if (!partial) return;
    const frame = requestAnimationFrame(() => refill(0));
    return () => cancelAnimationFrame(frame);
  });

  // Forget the heights of entries no longer held (a snapshot replaced them with fewer).
  const held = useRef(0);
  useEffect(() => {
    if (ids.length < held.current) heights.retain(new Set(ids));
    held.current = ids.length;
  }, [ids, heights]);

  const onScroll = (el: HTMLDivElement) => {
    stick.current = followsLatest(el);
    viewport.current = el.clientHeight;
    const col = column.current;
    const s = shown.current;
    if (!col || !s) return;
    anchor.current = anchorNow(el, col);
    if (!covers(s.layout, s.range, el.scrollTop - yIn(el, col), el.clientHeight)) refill(0);
  };
  return { range, padding: paddingOf(layout, range), onScroll };
}

/** Asks for earlier entries when the top block comes near the viewport, once per first entry. */
function useLoadEarlier(ref: Box, sentinel: Box, firstId: string | undefined, more: number, onLoadEarlier: (beforeId: string) => void) {
  const asked = useRef<string | undefined>(undefined);
  const near = useRef(false);
  const load = () => {
    const beforeId = earlierRequest(firstId, more, asked.current);
    if (beforeId === undefined) return;
    asked.current = beforeId;
    onLoadEarlier(beforeId);
  };
  const latest = useRef(load);
  latest.current = load;
  useEffect(() => {
    const root = ref.current;
    const target = sentinel.current;
    if (!root || !target || typeof IntersectionObserver !== "function") return;
    const io = new IntersectionObserver(
      (records) => {
        near.current = records.some((r) => r.isIntersecting);
        if (near.current) latest.current();
      },
      { root, rootMargin: `${LOAD_MARGIN_PX}px 0px 0px 0px` },
    );
    io.observe(target);
    return () => io.disconnect();
  }, [ref, sentinel]);
  // A page too short to push the top block out of reach: the observer will not fire again, so ask here.
  useEffect(() => {
    if (near.current) latest.current();
  }, [firstId]);
  return load;
}

/**
 * The transcript's scroll element, its column of entries and its top block (the sentinel); which of
 * the top-level entries `ids` to render and the padding for the others; what its scroll events do; and
 * what loads earlier entries (the top block's button) for the `more` entries held before `firstId`.
 */
export function useTranscriptScroll(
  ids: readonly string[],
  firstId: string | undefined,
  more: number,
  onLoadEarlier: (beforeId: string) => void,
) {
  const ref = useRef<HTMLDivElement>(null);
  const column = useRef<HTMLDivElement>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  const { range, padding, onScroll } = useTranscriptWindow(ref, column, ids);
  const load = useLoadEarlier(ref, sentinel, firstId, more, onLoadEarlier);
  return { ref, column, sentinel, onScroll, load, range, padding };
}
