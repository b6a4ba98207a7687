// The webview holds the latest entries of a long transcript and pages older ones in. What it
// holds, put together page by page, is exactly the host's transcript, and restore/edit indices stay those
// of the whole session. Every test runs twice: with the host's transcript all live, and with small
// limits so that most of it sits compressed in the archive (extension/sessions/hostTranscript.ts).
import assert from "node:assert/strict";
import { test } from "node:test";
import { emptyTranscript, reduceTranscript, type TranscriptEvent, type TranscriptState } from "../../../extension/common/transcript";
import { FULL_WINDOW, isPrompt, prependPage, type TranscriptWindow } from "../../../extension/common/transcriptWindow";
import { HostTranscript, type HostTranscriptLimits } from "../../../extension/sessions/hostTranscript";

const configs: Array<[string, HostTranscriptLimits]> = [
  ["all live", { keep: 100_000, page: 100 }],
  ["mostly archived", { keep: 12, page: 7 }],
];

/** `turns` turns of: a prompt, a steer every third turn, an agent reply. */
function historyEvents(turns: number): TranscriptEvent[] {
  const events: TranscriptEvent[] = [];
  for (let t = 0; t < turns; t++) {
    events.push({ type: "user/prompt", text: `prompt ${t}`, attachments: [] });
    if (t % 3 === 0)
      events.push({
        type: "acp",
        update: { sessionUpdate: "user_message_chunk", content: { type: "text", text: `steer ${t}` }, _meta: { "manifold/steer": {} } },
      });
    events.push({ type: "acp", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `reply ${t}` } } });
  }
  return events;
}

/** The plain reducer's state: what the host's transcript must equal. */
function history(turns: number): TranscriptState {
  let s = emptyTranscript("alpha", "Manifold");
  for (const ev of historyEvents(turns)) s = reduceTranscript(s, ev);
  return s;
}

function hostOf(turns: number, limits: HostTranscriptLimits): HostTranscript {
  const h = new HostTranscript(emptyTranscript("alpha", "Manifold"), limits);
  for (const ev of historyEvents(turns)) h.apply(ev);
  return h;
}

/** The prompt index each held entry gets in the panel (Transcript.tsx counts from `promptsBefore`). */
function promptIndices(entries: TranscriptState["entries"], held: TranscriptWindow): number[] {
  let n = held.promptsBefore;
  return entries.map((e) => (isPrompt(e) ? n++ : -1));
}

for (const [name, limits] of configs) {
  test(`${name}: a short transcript is held whole: the snapshot is the state itself`, () => {
    const h = hostOf(5, { keep: 100, page: 10 });
    const { state, window } = h.tail(150);
    assert.equal(state, h.state);
    assert.deepEqual(window, FULL_WINDOW);
  });

  test(`${name}: a long transcript's snapshot holds the latest entries, with the prompts before them counted (steers not)`, () => {
    const s = history(100); // 100 prompts, 34 steers, 100 replies
    assert.equal(s.entries.length, 234);
    const h = hostOf(100, limits);
    assert.equal(h.length, 234);
    const { state, window } = h.tail(10);
    assert.deepEqual(state.entries, s.entries.slice(224));
    assert.equal(window.start, 224);
    assert.equal(window.promptsBefore, s.entries.slice(0, 224).filter((e) => e.kind === "user" && !e.steered).length);
    assert.deepEqual({ ...state, entries: [] }, { ...s, entries: [] }, "everything but the entries is the host's");
  });

  test(`${name}: pages put together from the snapshot on are the host's transcript, with the same prompt indices`, async () => {
    const whole = history(100);
    const h = hostOf(100, limits);
    let { state, window } = h.tail(10);
    let pages = 0;
    while (window.start > 0) {
      const first = state.entries[0];
      assert.ok(first);
      const page = await h.page(first.id, 30);
      assert.ok(page);
      const merged = prependPage(state, window, page);
      assert.ok(merged);
      ({ state, window } = merged);
      pages++;
    }
    assert.equal(pages, Math.ceil((234 - 10) / 30));
    assert.deepEqual(state.entries, whole.entries);
    assert.deepEqual(await h.entries(), whole.entries);
    assert.deepEqual(window, FULL_WINDOW);
    assert.deepEqual(promptIndices(state.entries, window), promptIndices(whole.entries, FULL_WINDOW));
  });

  test(`${name}: a tail's prompt indices are those of the whole session`, () => {
    const whole = history(60);
    const { state, window } = hostOf(60, limits).tail(9);
    assert.deepEqual(promptIndices(state.entries, window), promptIndices(whole.entries, FULL_WINDOW).slice(window.start));
  });

  test(`${name}: a page for an entry the host no longer has is none; a page that no longer fits is not applied`, async () => {
    const h = hostOf(30, limits);
    assert.equal(await h.page("e-gone", 10), undefined);
    const { state, window } = h.tail(10);
    const first = state.entries[0];
    assert.ok(first);
    const page = await h.page(first.id, 10);
    assert.ok(page);
    // The webview got a newer snapshot (its first entry changed) before the page arrived.
    h.apply({ type: "user/prompt", text: "more", attachments: [] });
    const newer = h.tail(10);
    assert.equal(prependPage(newer.state, newer.window, page), undefined);
    // The same page twice: the second no longer fits.
    const once = prependPage(state, window, page);
    assert.ok(once);
    assert.equal(prependPage(once.state, once.window, page), undefined);
  });

  test(`${name}: a page asks for at least one and at most 500 entries`, async () => {
    const h = hostOf(400, limits);
    const all = await h.entries();
    const last = all[all.length - 1];
    assert.ok(last);
    assert.equal((await h.page(last.id, 0))?.entries.length, 1);
    assert.equal((await h.page(last.id, 10_000))?.entries.length, 500);
    const first = all[0];
    assert.ok(first);
    assert.deepEqual(await h.page(first.id, 10), { beforeId: first.id, entries: [], window: FULL_WINDOW });
  });
}
