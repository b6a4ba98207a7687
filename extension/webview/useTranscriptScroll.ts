// The transcript's scroll behaviour, on the pure decisions of ./transcriptScroll.ts: it follows the latest
// entry unless the user scrolled up, keeps the reader's entry in place when earlier ones are put above it,
// and asks for earlier entries when the block at its top comes near the viewport.
import { useEffect, useLayoutEffect, useRef } from "preact/hooks";
import type { TranscriptEntry } from "../common/transcript";
import { earlierRequest, entriesPutAbove, followsLatest } from "./transcriptScroll";

/** How far above the viewport older entries start loading, so scrolling up rarely reaches the top. */
const LOAD_MARGIN_PX = 1500;

/**
 * Keeps the transcript where the user reads: stuck to the bottom while new entries arrive unless they
 * scrolled up, and on the same entry when older ones are put above it.
 */
function useScrollAnchor(ref: { current: HTMLDivElement | null }, entries: TranscriptEntry[]) {
  const stick = useRef(true);
  const first = useRef<string | undefined>(undefined);
  // Before paint, so the panel opens on its latest message.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const was = first.current;
    first.current = entries[0]?.id;
    if (stick.current) {
      el.scrollTop = el.scrollHeight;
      return;
    }
    // Entries were put above: move down by their height (children: the top block, then one element per entry).
    const k = entriesPutAbove(was, entries);
    const oldFirst = el.children[k + 1] as HTMLElement | undefined;
    const newFirst = el.children[1] as HTMLElement | undefined;
    if (k > 0 && oldFirst && newFirst) el.scrollTop += oldFirst.offsetTop - newFirst.offsetTop;
  });
  return (el: HTMLDivElement) => {
    stick.current = followsLatest(el);
  };
}

/** Asks for earlier entries when the top block comes near the viewport, once per first entry. */
function useLoadEarlier(
  ref: { current: HTMLDivElement | null },
  sentinel: { current: HTMLDivElement | null },
  firstId: string | undefined,
  more: number,
  onLoadEarlier: (beforeId: string) => void,
) {
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
 * The transcript's scroll element and its top block (the sentinel), what its scroll events do, and what
 * loads earlier entries (the top block's button), for the `more` entries held before the first one.
 */
export function useTranscriptScroll(entries: TranscriptEntry[], more: number, onLoadEarlier: (beforeId: string) => void) {
  const ref = useRef<HTMLDivElement>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  const onScroll = useScrollAnchor(ref, entries);
  const load = useLoadEarlier(ref, sentinel, entries[0]?.id, more, onLoadEarlier);
  return { ref, sentinel, onScroll, load };
}
