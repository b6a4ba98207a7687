// Where transcript entries stand and which are rendered: measured heights or their average, padding
// for the entries not rendered, the viewport's range with its overscan, and the budget that mounts the
// viewport first and the overscan over later frames. The browser half (the reader's entry kept in
// place as pages arrive, a bounded DOM): test/vscode/transcriptWindow.test.ts.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  covers,
  DEFAULT_ESTIMATE_PX,
  entriesToMount,
  entryAt,
  GAP_PX,
  Heights,
  layoutOf,
  MOUNT_BUDGET,
  OVERSCAN_PX,
  paddingOf,
  planRange,
  rangeFor,
  topFromAnchor,
  WINDOW_MIN_ENTRIES,
} from "../../../extension/webview/transcriptLayout";

const idsOf = (n: number): string[] => Array.from({ length: n }, (_, i) => `e${i}`);

/** `n` entries of `px` each, all measured. */
function measured(n: number, px: number): { ids: string[]; heights: Heights } {
  const ids = idsOf(n);
  const heights = new Heights();
  for (const id of ids) heights.set(id, px);
  return { ids, heights };
}

test("unmeasured entries take the measured average, or a default before any was measured", () => {
  const h = new Heights();
  assert.equal(h.estimate(), DEFAULT_ESTIMATE_PX);
  assert.equal(h.set("a", 100), true);
  assert.equal(h.set("b", 300), true);
  assert.equal(h.set("b", 300), false, "the same height again is no change");
  assert.equal(h.estimate(), 200);
  const layout = layoutOf(["a", "x", "b"], h);
  assert.deepEqual([...layout.starts], [0, 100 + GAP_PX, 100 + 200 + 2 * GAP_PX, 600 + 3 * GAP_PX]);
  assert.equal(layout.total, 600 + 2 * GAP_PX, "gaps between entries, none after the last");
  h.retain(new Set(["b"]));
  assert.equal(h.get("a"), undefined, "forgotten once no longer held");
  assert.equal(h.estimate(), 300);
  assert.equal(layoutOf([], h).total, 0);
});

test("the entry at a position is found by its start, clamped to the entries there are", () => {
  const { ids, heights } = measured(10, 92); // each entry takes 100 px with its gap
  const layout = layoutOf(ids, heights);
  assert.equal(entryAt(layout, 0), 0);
  assert.equal(entryAt(layout, 99), 0);
  assert.equal(entryAt(layout, 100), 1);
  assert.equal(entryAt(layout, 950), 9);
  assert.equal(entryAt(layout, -500), 0);
  assert.equal(entryAt(layout, 1e9), 9);
  assert.equal(entryAt(layoutOf([], heights), 10), -1);
});

test("few entries are all rendered; many, only those within the overscan of the viewport", () => {
  const few = measured(WINDOW_MIN_ENTRIES, 92);
  assert.deepEqual(rangeFor(layoutOf(few.ids, few.heights), 5000, 600), { lo: 0, hi: WINDOW_MIN_ENTRIES });
  const many = measured(1000, 92);
  const layout = layoutOf(many.ids, many.heights);
  const r = rangeFor(layout, 50_000, 600);
  assert.equal(r.lo, (50_000 - OVERSCAN_PX) / 100);
  assert.equal(r.hi, (50_000 + 600 + OVERSCAN_PX) / 100 + 1);
  assert.deepEqual(rangeFor(layout, 0, 600, 0, 0), { lo: 0, hi: 7 }, "the viewport alone");
  assert.deepEqual(rangeFor(layout, layout.total - 600, 600, 0, 0).hi, 1000, "at the bottom, the last entry");
});

test("padding stands in for exactly the entries not rendered, so the column keeps its height", () => {
  const ids = idsOf(1000);
  const heights = new Heights();
  ids.forEach((id, i) => heights.set(id, 20 + (i % 7) * 30));
  const layout = layoutOf(ids, heights);
  for (const range of [
    { lo: 0, hi: 1000 },
    { lo: 0, hi: 40 },
    { lo: 300, hi: 340 },
    { lo: 960, hi: 1000 },
  ]) {
    const pad = paddingOf(layout, range);
    let rendered = 0;
    for (let i = range.lo; i < range.hi; i++) rendered += (heights.get(ids[i] as string) ?? 0) + (i > range.lo ? GAP_PX : 0);
    assert.equal(pad.top + rendered + pad.bottom, layout.total, JSON.stringify(range));
    assert.equal(pad.top, layout.starts[range.lo], "the first rendered entry starts where its layout says");
  }
  assert.deepEqual(paddingOf(layout, { lo: 5, hi: 5 }), { top: 0, bottom: 0 });
});

test("a re-render is due only when the viewport nears an edge of the rendered range that has more beyond it", () => {
  const { ids, heights } = measured(1000, 92);
  const layout = layoutOf(ids, heights);
  const range = { lo: 400, hi: 460 }; // px 40,000 to 45,992
  assert.equal(covers(layout, range, 41_000, 600, 300), true);
  assert.equal(covers(layout, range, 40_200, 600, 300), false, "near the top edge");
  assert.equal(covers(layout, range, 45_200, 600, 300), false, "near the bottom edge");
  assert.equal(covers(layout, { lo: 0, hi: 60 }, 0, 600, 300), true, "nothing above the first entry");
  assert.equal(covers(layout, { lo: 940, hi: 1000 }, layout.total - 600, 600, 300), true, "nothing below the last");
});

test("the viewport's top follows its anchor entry into a layout with entries put in front, and is lost with it", () => {
  const { ids, heights } = measured(100, 92);
  const anchor = { id: "e10", offset: 25 };
  assert.equal(topFromAnchor(layoutOf(ids, heights), ids, anchor), 1025);
  const grown = [...idsOf(50).map((id) => `old-${id}`), ...ids];
  for (const id of grown) heights.set(id, 92);
  assert.equal(topFromAnchor(layoutOf(grown, heights), grown, anchor), 6025);
  assert.equal(topFromAnchor(layoutOf(["x"], heights), ["x"], anchor), undefined);
});

test("entries to mount are those of the new range the previous one did not render", () => {
  assert.equal(entriesToMount(undefined, { lo: 5, hi: 25 }), 20);
  assert.equal(entriesToMount({ lo: 0, hi: 20 }, { lo: 10, hi: 30 }), 10);
  assert.equal(entriesToMount({ lo: 0, hi: 20 }, { lo: 50, hi: 70 }), 20, "no overlap");
  assert.equal(entriesToMount({ lo: 0, hi: 100 }, { lo: 10, hi: 30 }), 0, "shrunk");
});

test("a jump mounts the viewport's entries first, then the overscan a budget at a time, nearest first", () => {
  const { ids, heights } = measured(1000, 92);
  const layout = layoutOf(ids, heights);
  const full = rangeFor(layout, 50_000, 600);
  let plan = planRange(layout, { lo: 0, hi: 30 }, 50_000, 600);
  assert.equal(plan.partial, true);
  assert.ok(plan.range.lo <= 500 && plan.range.hi >= 506, "the viewport's entries are all there");
  assert.equal(entriesToMount({ lo: 0, hi: 30 }, plan.range), MOUNT_BUDGET, "no more than the budget (the viewport is within it)");
  let frames = 0;
  while (plan.partial) {
    const next = planRange(layout, plan.range, 50_000, 600);
    assert.ok(next.range.lo <= plan.range.lo && next.range.hi >= plan.range.hi, "it only grows while the viewport stays");
    assert.ok(entriesToMount(plan.range, next.range) <= MOUNT_BUDGET);
    plan = next;
    frames++;
  }
  assert.deepEqual(plan.range, full, "then it is the full range");
  assert.ok(frames > 0 && frames < 10, `${frames} frames`);
});

test("a viewport larger than the budget is still rendered whole; a small step stays within the budget at once", () => {
  const { ids, heights } = measured(1000, 12);
  const layout = layoutOf(ids, heights);
  const plan = planRange(layout, undefined, 6000, 600);
  assert.ok(plan.range.lo <= 300 && plan.range.hi >= 330, "all 30 entries of the viewport, over a budget of 12");
  const big = measured(1000, 92);
  const l2 = layoutOf(big.ids, big.heights);
  const settledRange = rangeFor(l2, 50_000, 600);
  const step = planRange(l2, settledRange, 50_100, 600);
  assert.equal(step.partial, false, "a wheel step mounts one entry at each end");
  assert.deepEqual(step.range, rangeFor(l2, 50_100, 600));
});

test("few entries are mounted a budget at a time from the bottom up, then all of them", () => {
  const { ids, heights } = measured(150, 92);
  const layout = layoutOf(ids, heights);
  const first = planRange(layout, undefined, layout.total - 600, 600);
  assert.equal(first.partial, true);
  assert.equal(first.range.hi, 150, "the latest entries first");
  assert.equal(first.range.hi - first.range.lo, MOUNT_BUDGET);
  let plan = first;
  while (plan.partial) plan = planRange(layout, plan.range, layout.total - 600, 600);
  assert.deepEqual(plan.range, { lo: 0, hi: 150 });
});
