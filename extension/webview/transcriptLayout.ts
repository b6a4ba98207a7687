// Where each transcript entry stands, for a transcript that renders only the entries near its viewport.
// Heights are those measured when an entry was last on screen, an estimate (the measured average)
// for the others; the entries above and below the rendered range are stood in for by padding of their
// summed height. Pure: no DOM, so the window's decisions are unit-tested as is.

/** Space between two entries (the `.entries` column's `gap`). */
export const GAP_PX = 8;
/** Up to this many entries, all are rendered (and the browser's find, selection and focus see them all). */
export const WINDOW_MIN_ENTRIES = 200;
/** Entries rendered beyond the viewport on each side, in px: a wheel or key step stays inside them. */
export const OVERSCAN_PX = 600;
/** A re-render is due when the viewport comes within this many px of the rendered range's edge. */
export const REFILL_PX = 200;
/** New entries mounted per render beyond the viewport's own (a fling, a jump): the rest of the overscan follows frame by frame. */
export const MOUNT_BUDGET = 12;
/** The height assumed for an entry never measured, before any was. */
export const DEFAULT_ESTIMATE_PX = 80;

export interface Layout {
  /** `starts[i]`: the top of entry i in the column; `starts[n]` is past the last gap (total + gap). */
  readonly starts: Float64Array;
  /** The column's height: every entry and the gaps between them. */
  readonly total: number;
}

export interface Range {
  /** First rendered entry. */
  readonly lo: number;
  /** One past the last rendered entry. */
  readonly hi: number;
}

/** Measured heights by entry id, and the estimate for the rest (their average). */
export class Heights {
  readonly #byId = new Map<string, number>();
  #sum = 0;

  get(id: string): number | undefined {
    return this.#byId.get(id);
  }

  /** Records a measured height; returns whether it changed. */
  set(id: string, px: number): boolean {
    const was = this.#byId.get(id);
    if (was === px) return false;
    this.#sum += px - (was ?? 0);
    this.#byId.set(id, px);
    return true;
  }

  /** The height an unmeasured entry is assumed to have. */
  estimate(): number {
    return this.#byId.size === 0 ? DEFAULT_ESTIMATE_PX : this.#sum / this.#byId.size;
  }

  /** Forgets entries no longer held (a snapshot replaced them), so the estimate follows what is. */
  retain(ids: ReadonlySet<string>): void {
    for (const [id, px] of this.#byId) {
      if (ids.has(id)) continue;
      this.#byId.delete(id);
      this.#sum -= px;
    }
  }
}

export function layoutOf(ids: readonly string[], heights: Heights): Layout {
  const n = ids.length;
  const starts = new Float64Array(n + 1);
  const estimate = heights.estimate();
  let y = 0;
  for (let i = 0; i < n; i++) {
    starts[i] = y;
    y += (heights.get(ids[i] as string) ?? estimate) + GAP_PX;
  }
  starts[n] = y;
  return { starts, total: n === 0 ? 0 : y - GAP_PX };
}

/** The entry at column position `y` (clamped to the entries there are; -1 when there are none). */
export function entryAt(layout: Layout, y: number): number {
  const n = layout.starts.length - 1;
  if (n <= 0) return -1;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((layout.starts[mid] as number) <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The entries to render for a viewport showing column positions [top, top + height): those within
 * `overscan` px of it, or every entry while there are few.
 */
export function rangeFor(layout: Layout, top: number, height: number, overscan = OVERSCAN_PX, min = WINDOW_MIN_ENTRIES): Range {
  const n = layout.starts.length - 1;
  if (n <= min) return { lo: 0, hi: n };
  const lo = entryAt(layout, top - overscan);
  const hi = entryAt(layout, top + height + overscan) + 1;
  return { lo: Math.max(0, lo), hi: Math.min(n, Math.max(hi, lo + 1)) };
}

/** Entries of `next` that `prev` did not render. */
export function entriesToMount(prev: Range | undefined, next: Range): number {
  if (!prev) return next.hi - next.lo;
  const overlap = Math.max(0, Math.min(prev.hi, next.hi) - Math.max(prev.lo, next.lo));
  return next.hi - next.lo - overlap;
}

/**
 * The range to render now, mounting at most `budget` entries not rendered before: the viewport's
 * (always, whatever it costs), what was rendered and still is wanted, then the overscan, nearest first
 * (below, then above, in turn). `partial`: more of the overscan is still to come, on a later render.
 */
export function planRange(
  layout: Layout,
  prev: Range | undefined,
  top: number,
  height: number,
  budget = MOUNT_BUDGET,
): { range: Range; partial: boolean } {
  const full = rangeFor(layout, top, height);
  const view = rangeFor(layout, top, height, 0, 0);
  // The viewport's entries are within `full` (its overscan only adds to them).
  let { lo, hi } = view;
  if (prev) {
    // Keep what is mounted and wanted, when it touches the viewport's entries (else it is dropped).
    const keepLo = Math.max(prev.lo, full.lo);
    const keepHi = Math.min(prev.hi, full.hi);
    if (keepLo < keepHi && keepLo <= hi && keepHi >= lo) {
      lo = Math.min(lo, keepLo);
      hi = Math.max(hi, keepHi);
    }
  }
  let room = budget - entriesToMount(prev, { lo, hi });
  while (room > 0 && (lo > full.lo || hi < full.hi)) {
    if (hi < full.hi) {
      hi++;
      room--;
    }
    if (room > 0 && lo > full.lo) {
      lo--;
      room--;
    }
  }
  return { range: { lo, hi }, partial: lo > full.lo || hi < full.hi };
}

/** The padding that stands in for the entries above and below the rendered range. */
export function paddingOf(layout: Layout, range: Range): { top: number; bottom: number } {
  const n = layout.starts.length - 1;
  if (range.hi <= range.lo) return { top: 0, bottom: 0 };
  return {
    top: layout.starts[range.lo] as number,
    bottom: range.hi >= n ? 0 : layout.total - (layout.starts[range.hi] as number) + GAP_PX,
  };
}

/** Whether the rendered range still covers the viewport with `refill` px to spare at each end that has more. */
export function covers(layout: Layout, range: Range, top: number, height: number, refill = REFILL_PX): boolean {
  const n = layout.starts.length - 1;
  const renderedTop = range.lo === 0 ? -Infinity : (layout.starts[range.lo] as number);
  const renderedBottom = range.hi >= n ? Infinity : (layout.starts[range.hi] as number) - GAP_PX;
  return renderedTop <= top - refill && renderedBottom >= top + height + refill;
}

/** Where the viewport stands relative to an entry, kept across renders so the reader's entry stays put. */
export interface Anchor {
  readonly id: string;
  /** The viewport's top minus the entry's top, in px. */
  readonly offset: number;
}

/** The viewport's top in the column, from the anchor's entry in a (new) layout; undefined when it is gone. */
export function topFromAnchor(layout: Layout, ids: readonly string[], anchor: Anchor): number | undefined {
  const i = ids.lastIndexOf(anchor.id);
  return i < 0 ? undefined : (layout.starts[i] as number) + anchor.offset;
}
