// The webview's one store: fed by the host's messages, one change per batch, a focus request as an
// event, and the status region's announcements (turn ends, errors, requests — never streamed text).
import assert from "node:assert/strict";
import { test } from "node:test";
import { emptyTranscript, reduceTranscript, type TranscriptEvent } from "../../../extension/common/transcript";
import { announcementFor, announcementOf } from "../../../extension/common/announcements";
import { PanelStore, type FocusTarget } from "../../../extension/webview/panelStore";

const chunk = (text: string): TranscriptEvent => ({
  type: "acp",
  update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } },
});

function started(): PanelStore {
  const store = new PanelStore();
  store.receive([{ type: "snapshot", state: emptyTranscript("alpha", "Manifold") }]);
  return store;
}

test("before the snapshot there is no state; events before it are ignored, the snapshot is not announced", () => {
  const store = new PanelStore();
  assert.equal(store.getSnapshot().state, undefined);
  store.receive([{ type: "events", events: [{ type: "turn/started" }] }]);
  assert.equal(store.getSnapshot().state, undefined);
  store.receive([{ type: "snapshot", state: emptyTranscript("alpha", "Manifold") }]);
  assert.deepEqual(
    { folder: store.getSnapshot().state?.folderName, announcement: store.getSnapshot().announcement },
    { folder: "alpha", announcement: undefined },
  );
});

test("one batch of messages is one change; a new view object only when something changed", () => {
  const store = started();
  let changes = 0;
  const unsubscribe = store.subscribe(() => changes++);
  const before = store.getSnapshot();
  store.receive([
    { type: "events", events: [{ type: "turn/started" }, chunk("Hel")] },
    { type: "events", events: [chunk("lo")] },
    { type: "composer/attach", attachments: [{ id: "att-1", label: "a.ts", kind: "file" }] },
  ]);
  const after = store.getSnapshot();
  assert.equal(changes, 1);
  assert.notEqual(after, before);
  assert.equal(after.state?.running, true);
  assert.deepEqual(after.attachments, [{ id: "att-1", label: "a.ts", kind: "file" }]);
  store.sent();
  store.sent(); // nothing left to clear: no change
  assert.equal(changes, 2);
  assert.deepEqual(store.getSnapshot().attachments, []);
  unsubscribe();
  store.receive([{ type: "events", events: [chunk("!")] }]);
  assert.equal(changes, 2);
});

test("detach removes one attachment; closing the restore result clears it", () => {
  const store = started();
  store.receive([
    {
      type: "composer/attach",
      attachments: [
        { id: "a", label: "a.ts", kind: "file" },
        { id: "b", label: "b.ts", kind: "file" },
      ],
    },
    { type: "restore/done", done: { kind: "restore", undoCheckpointId: "ck-1", restored: 1, paths: ["a.ts"], failures: [], kept: [] } },
  ]);
  store.detach("a");
  store.closeRestoreDone();
  assert.deepEqual(
    { ids: store.getSnapshot().attachments.map((x) => x.id), done: store.getSnapshot().restoreDone },
    { ids: ["b"], done: undefined },
  );
});

test("composer/focus is a focus request fired after the batch's view is in place, not view state", () => {
  const store = started();
  const seen: { target: FocusTarget; attachments: number }[] = [];
  const sub = store.onDidRequestFocus((target) => seen.push({ target, attachments: store.getSnapshot().attachments.length }));
  store.receive([{ type: "composer/focus" }, { type: "composer/attach", attachments: [{ id: "x", label: "x.ts", kind: "file" }] }]);
  sub.dispose();
  assert.deepEqual(seen, [{ target: "composer", attachments: 1 }]);
  assert.equal("focusSignal" in store.getSnapshot(), false);
});

test("streamed text is not announced; the turn's end is, once per turn, even with the same words", () => {
  const store = started();
  store.receive([{ type: "events", events: [{ type: "turn/started" }, chunk("a long streamed answer")] }]);
  assert.equal(store.getSnapshot().announcement, undefined);
  store.receive([{ type: "events", events: [{ type: "turn/ended", stopReason: "end_turn" }] }]);
  const first = store.getSnapshot().announcement;
  store.receive([
    { type: "events", events: [{ type: "turn/started" }] },
    { type: "events", events: [{ type: "turn/ended", stopReason: "end_turn" }] },
  ]);
  const second = store.getSnapshot().announcement;
  assert.equal(first?.text, "Agent finished");
  assert.equal(second?.text, "Agent finished");
  assert.notEqual(first?.seq, second?.seq);
});

test("announcements: turn ends by reason, errors, and requests arriving", () => {
  const said = (ev: TranscriptEvent) => announcementFor(ev);
  assert.deepEqual(
    [
      said({ type: "turn/ended", stopReason: "end_turn" }),
      said({ type: "turn/ended", stopReason: "cancelled" }),
      said({ type: "turn/ended", stopReason: "error", message: "model unreachable" }),
      said({ type: "turn/ended", stopReason: "interrupted", message: "the agent exited" }),
      said({ type: "notice", severity: "error", text: "Could not start a session" }),
      said({ type: "notice", severity: "info", text: "Session resumed" }),
      said({ type: "permission/requested", requestId: "r1", toolCallId: "t1", title: "Run npm test", options: [] }),
      said(chunk("text")),
    ],
    [
      "Agent finished",
      "Turn cancelled",
      "The turn failed: model unreachable",
      "The turn was interrupted: the agent exited",
      "Error: Could not start a session",
      undefined,
      "Permission requested: Run npm test",
      undefined,
    ],
  );
  assert.equal(
    announcementOf([
      { type: "turn/ended", stopReason: "cancelled" },
      { type: "notice", severity: "error", text: "boom" },
    ]),
    "Turn cancelled. Error: boom",
  );
  assert.equal(announcementOf([chunk("x")]), undefined);
});

test("a snapshot's window and announcement are kept; an earlier page is put in front only if it still fits", () => {
  const store = new PanelStore();
  let host = emptyTranscript("alpha", "Manifold");
  for (let i = 0; i < 6; i++) host = reduceTranscript(host, { type: "user/prompt", text: `p${i}`, attachments: [] });
  const tail = { ...host, entries: host.entries.slice(4) };
  store.receive([{ type: "snapshot", state: tail, window: { start: 4, promptsBefore: 4 }, announce: "Agent finished" }]);
  assert.deepEqual(store.getSnapshot().window, { start: 4, promptsBefore: 4 });
  assert.equal(store.getSnapshot().announcement?.text, "Agent finished");
  const beforeId = tail.entries[0]?.id ?? "";
  const page = { beforeId, entries: host.entries.slice(2, 4), window: { start: 2, promptsBefore: 2 } };
  store.receive([{ type: "transcript/page", page }]);
  assert.deepEqual(store.getSnapshot().state?.entries, host.entries.slice(2));
  assert.deepEqual(store.getSnapshot().window, { start: 2, promptsBefore: 2 });
  const view = store.getSnapshot();
  store.receive([{ type: "transcript/page", page }]); // no longer fits: nothing changes
  assert.equal(store.getSnapshot(), view);
  store.receive([{ type: "snapshot", state: host }]);
  assert.deepEqual(store.getSnapshot().window, { start: 0, promptsBefore: 0 });
});
