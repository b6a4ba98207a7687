// The host's transcript after a tail-first load: the latest turns live, the older ones still at the
// agent (base/historyPages.ts). Paging up fetches them, folds them on their own and puts them in
// front; the whole transcript must then be what the plain reducer makes of the full replay, prompt
// counts must be right before anything is fetched, and a cut or a clear while a fetch runs wins.
import assert from "node:assert/strict";
import { test } from "node:test";
import { emptyTranscript, reduceTranscript, type TranscriptEntry, type TranscriptUpdate } from "../../../extension/common/transcript";
import { HostTranscript, type OlderHistory } from "../../../extension/sessions/hostTranscript";

/** Turn `i` as the agent replays it: the prompt, a tool call and its result, the answer. */
function turn(i: number): TranscriptUpdate[] {
  return [
    { sessionUpdate: "user_message_chunk", content: { type: "text", text: `question ${i}` }, messageId: `u${i}` },
    { sessionUpdate: "tool_call", toolCallId: `t${i}`, title: `Read ${i}`, kind: "read", status: "pending" },
    { sessionUpdate: "tool_call_update", toolCallId: `t${i}`, status: "completed" },
    { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `answer ${i}` }, messageId: `a${i}` },
  ];
}

const TURNS = 40;
const TAIL_FROM = 30;

/** Entries without their ids (a fetched page's are its own), to compare with the plain reducer's. */
function shapes(entries: readonly TranscriptEntry[]): unknown[] {
  return entries.map(({ id: _id, ...rest }) => rest);
}

function fullEntries(): TranscriptEntry[] {
  let s = emptyTranscript("f", "a");
  for (let i = 0; i < TURNS; i++) for (const update of turn(i)) s = reduceTranscript(s, { type: "acp", update });
  return s.entries;
}

/** A transcript holding turns TAIL_FROM.. and an agent serving pages of `perPage` turns. */
function tailLoaded(perPage = 4, gate?: Promise<void>): { t: HostTranscript; fetches: number[] } {
  const t = new HostTranscript(emptyTranscript("f", "a"), { keep: 8, page: 4 });
  for (let i = TAIL_FROM; i < TURNS; i++) for (const update of turn(i)) t.apply({ type: "acp", update });
  const fetches: number[] = [];
  const older: OlderHistory = {
    beforePrompt: TAIL_FROM,
    async fetch(before) {
      fetches.push(before);
      await gate;
      const from = Math.max(0, before - perPage);
      const updates: TranscriptUpdate[] = [];
      for (let i = from; i < before; i++) updates.push(...turn(i));
      return { updates, fromPrompt: from };
    },
  };
  t.setOlder(older);
  return { t, fetches };
}

test("I-123: before anything is fetched, prompt counts include the agent's older turns and the window says more exist", () => {
  const { t } = tailLoaded();
  assert.equal(t.prompts, TURNS);
  const { state, window } = t.tail(5);
  assert.equal(window.older, true);
  // Counted from the session's first prompt: the held ones are the last of all TURNS.
  assert.equal(window.promptsBefore, TURNS - state.entries.filter((e) => e.kind === "user").length);
});

test("I-123: paging up to the start fetches every older turn once, and the whole transcript is the full replay's", async () => {
  const { t, fetches } = tailLoaded();
  let first = (await t.entries())[0]!.id;
  for (let guard = 0; guard < 100; guard++) {
    const page = await t.page(first, 10);
    assert.ok(page, "the entry asked before is still there");
    if (page.entries.length === 0) break;
    first = page.entries[0]!.id;
    if (!t.hasOlder && page.window.start === 0) break;
  }
  assert.equal(t.hasOlder, false);
  assert.deepEqual(fetches, [30, 26, 22, 18, 14, 10, 6, 2]);
  const all = await t.entries();
  assert.deepEqual(shapes(all), shapes(fullEntries()));
  assert.equal(new Set(all.map((e) => e.id)).size, all.length, "ids stay unique");
  assert.equal(t.prompts, TURNS);
  const top = await t.page(all[3]!.id, 10);
  assert.deepEqual(top?.window, { start: 0, promptsBefore: 0 });
});

test("I-123: two pages asked at once share one fetch", async () => {
  let open!: () => void;
  const { t, fetches } = tailLoaded(4, new Promise<void>((r) => (open = r)));
  const first = (await t.entries())[0]!.id;
  const a = t.page(first, 50);
  const b = t.page(first, 50);
  open();
  const [pa, pb] = await Promise.all([a, b]);
  assert.deepEqual(fetches, [30]);
  assert.deepEqual(
    pa?.entries.map((e) => e.id),
    pb?.entries.map((e) => e.id),
  );
});

test("I-123: a cut among the unfetched turns empties the transcript and moves the cursor; a clear during a fetch drops what it brings", async () => {
  const cut = tailLoaded();
  cut.t.apply({ type: "transcript/truncate", keepPrompts: 12 });
  assert.equal(cut.t.length, 0);
  assert.equal(cut.t.prompts, 12);
  assert.equal(cut.t.tail().window.older, true);

  let open!: () => void;
  const cleared = tailLoaded(4, new Promise<void>((r) => (open = r)));
  const pending = cleared.t.page((await cleared.t.entries())[0]!.id, 50);
  cleared.t.apply({ type: "reset", folderName: "f", agentName: "a" });
  open();
  await pending;
  assert.equal(cleared.t.length, 0);
  assert.equal(cleared.t.hasOlder, false);
});

test("I-123: a fetch that fails leaves the entries as they were and a later page asks again", async () => {
  const { t } = tailLoaded();
  let calls = 0;
  t.setOlder({
    beforePrompt: TAIL_FROM,
    fetch: async () => {
      calls++;
      throw new Error("agent gone");
    },
  });
  const before = t.length;
  const first = (await t.entries())[0]!.id;
  await t.page(first, 10);
  await t.page(first, 10);
  assert.equal(calls, 2);
  assert.equal(t.length, before);
  assert.equal(t.hasOlder, true);
});
