// Issue #19: the webview holds the latest entries of a long transcript and pages older ones in. What it
// holds, put together page by page, is exactly the host's transcript, and restore/edit indices stay those
// of the whole session.
import assert from "node:assert/strict";
import { test } from "node:test";
import { emptyTranscript, reduceTranscript, type TranscriptEvent, type TranscriptState } from "../../../extension/common/transcript";
import { FULL_WINDOW, isPrompt, pageBefore, prependPage, tailOf, type TranscriptWindow } from "../../../extension/common/transcriptWindow";

/** `turns` turns of: a prompt, a steer every third turn, an agent reply. */
function history(turns: number): TranscriptState {
  let s = emptyTranscript("alpha", "Manifold");
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
  for (const ev of events) s = reduceTranscript(s, ev);
  return s;
}

/** The prompt index each held entry gets in the panel (Transcript.tsx counts from `promptsBefore`). */
function promptIndices(entries: TranscriptState["entries"], held: TranscriptWindow): number[] {
  let n = held.promptsBefore;
  return entries.map((e) => (isPrompt(e) ? n++ : -1));
}

test("a short transcript is held whole: the snapshot is the state itself", () => {
  const s = history(5);
  const { state, window } = tailOf(s, 150);
  assert.equal(state, s);
  assert.deepEqual(window, FULL_WINDOW);
});

test("a long transcript's snapshot holds the latest entries, with the prompts before them counted (steers not)", () => {
  const s = history(100); // 100 prompts, 34 steers, 100 replies
  assert.equal(s.entries.length, 234);
  const { state, window } = tailOf(s, 50);
  assert.deepEqual(
    state.entries.map((e) => e.id),
    s.entries.slice(184).map((e) => e.id),
  );
  assert.equal(window.start, 184);
  assert.equal(window.promptsBefore, s.entries.slice(0, 184).filter((e) => e.kind === "user" && !e.steered).length);
  assert.deepEqual({ ...state, entries: [] }, { ...s, entries: [] }, "everything but the entries is the host's");
});

test("pages put together from the snapshot on are the host's transcript, with the same prompt indices", () => {
  const host = history(100);
  let { state, window } = tailOf(host, 40);
  let pages = 0;
  while (window.start > 0) {
    const first = state.entries[0];
    assert.ok(first);
    const page = pageBefore(host.entries, first.id, 30);
    assert.ok(page);
    const merged = prependPage(state, window, page);
    assert.ok(merged);
    ({ state, window } = merged);
    pages++;
  }
  assert.equal(pages, Math.ceil((234 - 40) / 30));
  assert.deepEqual(state.entries, host.entries);
  assert.deepEqual(window, FULL_WINDOW);
  assert.deepEqual(promptIndices(state.entries, window), promptIndices(host.entries, FULL_WINDOW));
});

test("a tail's prompt indices are those of the whole session", () => {
  const host = history(60);
  const { state, window } = tailOf(host, 25);
  const whole = promptIndices(host.entries, FULL_WINDOW).slice(window.start);
  assert.deepEqual(promptIndices(state.entries, window), whole);
});

test("a page for an entry the host no longer has is none; a page that no longer fits is not applied", () => {
  const host = history(30);
  assert.equal(pageBefore(host.entries, "e-gone", 10), undefined);
  const { state, window } = tailOf(host, 10);
  const first = state.entries[0];
  assert.ok(first);
  const page = pageBefore(host.entries, first.id, 10);
  assert.ok(page);
  // The webview got a newer snapshot (its first entry changed) before the page arrived.
  const newer = tailOf(reduceTranscript(host, { type: "user/prompt", text: "more", attachments: [] }), 10);
  assert.equal(prependPage(newer.state, newer.window, page), undefined);
  // The same page twice: the second no longer fits.
  const once = prependPage(state, window, page);
  assert.ok(once);
  assert.equal(prependPage(once.state, once.window, page), undefined);
});

test("a page asks for at least one and at most 500 entries", () => {
  const host = history(400);
  const last = host.entries[host.entries.length - 1];
  assert.ok(last);
  assert.equal(pageBefore(host.entries, last.id, 0)?.entries.length, 1);
  assert.equal(pageBefore(host.entries, last.id, 10_000)?.entries.length, 500);
  const first = host.entries[0];
  assert.ok(first);
  assert.deepEqual(pageBefore(host.entries, first.id, 10), { beforeId: first.id, entries: [], window: FULL_WINDOW });
});
