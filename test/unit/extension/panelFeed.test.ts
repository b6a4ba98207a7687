// What the host sends one panel's webview. Events wait one frame and go as one message with
// their text deltas merged (the webview folds the same transcript); a load's replay, a cleared or cut
// history, or a change to a card older than what the webview holds, gives a fresh snapshot instead.
import assert from "node:assert/strict";
import { test } from "node:test";
import { coalesceEvents } from "../../../extension/chat/coalesce";
import { FRAME_MS, PanelFeed, type FeedTimer } from "../../../extension/chat/panelFeed";
import { emptyTranscript, reduceTranscript, type TranscriptEvent, type TranscriptState } from "../../../extension/common/transcript";
import { TAIL_ENTRIES } from "../../../extension/common/transcriptWindow";
import type { HostToWebview } from "../../../extension/common/webviewProtocol";
import { PanelStore } from "../../../extension/webview/panelStore";
import { HostTranscript, type HostTranscriptLimits } from "../../../extension/sessions/hostTranscript";

const delta = (text: string, messageId?: string, kind: "agent" | "thought" = "agent"): TranscriptEvent => ({
  type: "acp",
  update: {
    sessionUpdate: kind === "agent" ? "agent_message_chunk" : "agent_thought_chunk",
    content: { type: "text", text },
    ...(messageId !== undefined ? { messageId } : {}),
  },
});
const tool = (toolCallId: string, status: "pending" | "completed" = "pending"): TranscriptEvent => ({
  type: "acp",
  update: { sessionUpdate: "tool_call_update", toolCallId, title: toolCallId, status },
});

function fold(events: readonly TranscriptEvent[], from = emptyTranscript("alpha", "Manifold")): TranscriptState {
  let s = from;
  for (const ev of events) s = reduceTranscript(s, ev);
  return s;
}

test("merged deltas fold to the same transcript: runs of one message join, anything else keeps its place", () => {
  const events: TranscriptEvent[] = [
    delta("Hel", "m1"),
    delta("lo", "m1"),
    delta(" world", "m1"),
    delta("hmm", "m1", "thought"),
    delta("…", "m1", "thought"),
    delta("A", "m2"),
    delta("B"),
    delta("C"),
    { type: "acp", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "marked" }, _meta: { x: 1 } } },
    delta("D"),
    tool("t1"),
    delta("E"),
    delta("F"),
    { type: "turn/ended", stopReason: "end_turn" },
  ];
  const merged = coalesceEvents(events);
  assert.equal(merged.length, 9);
  assert.deepEqual(fold(merged), fold(events));
  assert.deepEqual(merged[0], delta("Hello world", "m1"));
  assert.deepEqual(coalesceEvents([delta("x")]), [delta("x")]);
  assert.deepEqual(coalesceEvents([]), []);
});

/** A timer the test runs by hand: what is due runs when `tick` is called. */
function manualTimer(): FeedTimer & { tick(): void; pending(): number } {
  let due: (() => void)[] = [];
  return {
    set: (run, ms) => {
      assert.equal(ms, FRAME_MS);
      due.push(run);
      return run;
    },
    clear: (handle) => {
      due = due.filter((r) => r !== handle);
    },
    tick: () => {
      const now = due;
      due = [];
      for (const run of now) run();
    },
    pending: () => due.length,
  };
}

/** A session, a feed and the webview's store, wired like chatPanel.ts. `state()`: the plain reducer's, to compare with. */
function rig(initial: readonly TranscriptEvent[] = [], limits?: HostTranscriptLimits) {
  let state = fold(initial);
  const host = new HostTranscript(emptyTranscript("alpha", "Manifold"), limits);
  for (const ev of initial) host.apply(ev);
  const posted: HostToWebview[] = [];
  const timer = manualTimer();
  const feed = new PanelFeed({ source: host, post: (m) => posted.push(m), timer });
  const store = new PanelStore();
  const emit = (...events: TranscriptEvent[]) => {
    for (const ev of events) {
      state = reduceTranscript(state, ev);
      host.apply(ev);
    }
    feed.push(events);
  };
  const deliver = () => {
    store.receive(posted.splice(0));
  };
  return { feed, store, timer, posted, emit, deliver, host, state: () => state };
}

function turns(n: number): TranscriptEvent[] {
  const out: TranscriptEvent[] = [];
  for (let i = 0; i < n; i++) out.push({ type: "user/prompt", text: `p${i}`, attachments: [] }, delta(`r${i}`, `m${i}`));
  return out;
}

test("events wait one frame and go as one message, deltas merged; the webview's copy equals the host's", () => {
  const r = rig();
  r.feed.start();
  r.emit({ type: "turn/started" });
  r.emit(delta("a", "m1"));
  r.emit(delta("b", "m1"), delta("c", "m1"));
  assert.equal(r.posted.length, 1, "only the snapshot so far");
  assert.equal(r.timer.pending(), 1, "one frame timer for the batch");
  r.timer.tick();
  assert.equal(r.posted.length, 2);
  const sent = r.posted[1];
  assert.equal(sent?.type, "events");
  assert.equal(sent?.type === "events" ? sent.events.length : 0, 2);
  r.deliver();
  assert.deepEqual(r.store.getSnapshot().state, r.state());
});

for (const [name, limits] of [
  ["all live", undefined],
  ["mostly archived", { keep: TAIL_ENTRIES + 10, page: 25 }],
] as const) {
  test(`${name}: a long session's snapshot holds the latest entries; pages asked for in turn give the whole transcript`, async () => {
    const r = rig(turns(200), limits);
    if (limits) assert.ok(r.host.archived > 0, "older entries archived");
    r.feed.start();
    r.deliver();
    const view = r.store.getSnapshot();
    assert.equal(view.state?.entries.length, TAIL_ENTRIES);
    assert.equal(view.window.start, 400 - TAIL_ENTRIES);
    for (let guard = 0; r.store.getSnapshot().window.start > 0 && guard < 10; guard++) {
      const first = r.store.getSnapshot().state?.entries[0];
      assert.ok(first);
      await r.feed.page(first.id, 100);
      r.deliver();
    }
    assert.deepEqual(r.store.getSnapshot().state, r.state());
    // A request from before the webview had that page (it asks again for the same entry): nothing is sent.
    await r.feed.page(r.state().entries[250]?.id ?? "", 100);
    assert.equal(r.posted.length, 0);
  });
}

test("a page that resolves after the archive was brought back is not sent (it may no longer fit)", async () => {
  const r = rig([{ type: "acp", update: { sessionUpdate: "tool_call", toolCallId: "old", title: "old" } }, ...turns(200)], {
    keep: TAIL_ENTRIES + 10,
    page: 25,
  });
  r.feed.start();
  r.deliver();
  const first = r.store.getSnapshot().state?.entries[0];
  assert.ok(first);
  const asked = r.feed.page(first.id, 100);
  // Before the archive answers, an update to the first card thaws it (the generation moves).
  r.emit(tool("old", "completed"));
  await asked;
  assert.deepEqual(
    r.posted.map((m) => m.type),
    [],
  );
  r.timer.tick();
  assert.deepEqual(
    r.posted.map((m) => m.type),
    ["snapshot"],
  );
});

test("a load's replay reaches the webview as one snapshot when it ends, not as thousands of events", () => {
  const r = rig();
  r.feed.start();
  r.deliver();
  r.emit({ type: "session/bound", sessionId: "s1", clearHistory: true }, { type: "loading", loading: true });
  r.timer.tick();
  assert.deepEqual(
    r.posted.map((m) => (m.type === "snapshot" ? `snapshot loading=${m.state.loading}` : m.type)),
    ["snapshot loading=true"],
  );
  r.deliver();
  for (const ev of turns(300)) {
    r.emit(ev);
    r.timer.tick();
  }
  assert.equal(r.posted.length, 0, "nothing while the history replays");
  r.feed.start(); // the webview is rebuilt mid-load: it is told the panel is loading, without the partial history
  assert.deepEqual(
    r.posted.map((m) => (m.type === "snapshot" ? `snapshot loading=${m.state.loading} entries=${m.state.entries.length}` : m.type)),
    ["snapshot loading=true entries=0"],
  );
  r.deliver();
  r.emit({ type: "session/bound", sessionId: "s1", clearHistory: false }, { type: "loading", loading: false });
  r.timer.tick();
  assert.deepEqual(
    r.posted.map((m) => (m.type === "snapshot" ? `snapshot loading=${m.state.loading} entries=${m.state.entries.length}` : m.type)),
    [`snapshot loading=false entries=${TAIL_ENTRIES}`],
  );
  r.deliver();
  assert.deepEqual(r.store.getSnapshot().state?.entries, r.state().entries.slice(-TAIL_ENTRIES));
});

test("a cut history, or a tool card older than what the webview holds, gives a snapshot; its announcement is kept", () => {
  const r = rig([{ type: "acp", update: { sessionUpdate: "tool_call", toolCallId: "old", title: "old" } }, ...turns(200)]);
  r.feed.start();
  r.deliver();
  // A card the webview holds: an event.
  r.emit({ type: "acp", update: { sessionUpdate: "tool_call", toolCallId: "new", title: "new" } }, tool("new", "completed"));
  r.timer.tick();
  assert.deepEqual(
    r.posted.map((m) => m.type),
    ["events"],
  );
  r.deliver();
  // The first card is far above the tail: folding its update on the webview's copy would add a card.
  r.emit(tool("old", "completed"), { type: "permission/requested", requestId: "p1", toolCallId: "x", title: "Run ls", options: [] });
  r.timer.tick();
  const snap = r.posted[0];
  assert.equal(snap?.type, "snapshot");
  assert.equal(snap?.type === "snapshot" ? snap.announce : undefined, "Permission requested: Run ls");
  r.deliver();
  assert.equal(r.store.getSnapshot().announcement?.text, "Permission requested: Run ls");
  assert.deepEqual(r.store.getSnapshot().state?.entries, r.state().entries.slice(-TAIL_ENTRIES));
  // Edit and resend cuts the history: a snapshot, with the prompt indices of the whole session.
  r.emit({ type: "transcript/truncate", keepPrompts: 150 });
  r.timer.tick();
  assert.deepEqual(
    r.posted.map((m) => m.type),
    ["snapshot"],
  );
  r.deliver();
  const v = r.store.getSnapshot();
  assert.deepEqual(v.state?.entries, r.state().entries.slice(-TAIL_ENTRIES));
  assert.equal(
    v.window.promptsBefore,
    r
      .state()
      .entries.slice(0, v.window.start)
      .filter((e) => e.kind === "user").length,
  );
});

test("a page asked for before a snapshot replaced the webview's entries is not sent; a new ready starts afresh", async () => {
  const r = rig(turns(200));
  r.feed.start();
  const first = r.posted[0]?.type === "snapshot" ? r.posted[0].state.entries[0] : undefined;
  assert.ok(first);
  r.emit({ type: "transcript/truncate", keepPrompts: 190 });
  r.timer.tick();
  r.deliver();
  await r.feed.page(first.id, 100);
  assert.equal(r.posted.length, 0, "a stale page request gets nothing");
  r.emit(delta("x"));
  r.feed.start(); // the webview was reloaded: its pending frame is dropped, the snapshot has it all
  r.timer.tick();
  assert.deepEqual(
    r.posted.map((m) => m.type),
    ["snapshot"],
  );
  r.deliver();
  assert.deepEqual(r.store.getSnapshot().state?.entries, r.state().entries.slice(-TAIL_ENTRIES));
  r.emit(delta("y"));
  r.feed.dispose();
  assert.equal(r.timer.pending(), 0, "a disposed feed leaves no timer");
});

test("I-123: with older turns at the agent, the webview is told more exist, and paging up through fetches that move every index gives the whole transcript", async () => {
  // Prompts 0..149 at the agent; 150..199 folded by the load.
  const all = turns(200);
  const r = rig(all.slice(300), { keep: TAIL_ENTRIES + 10, page: 25 });
  r.host.setOlder({
    beforePrompt: 150,
    fetch: async (before) => {
      const from = Math.max(0, before - 60);
      const updates = all
        .slice(2 * from, 2 * before)
        .flatMap((ev) =>
          ev.type === "user/prompt"
            ? [{ sessionUpdate: "user_message_chunk" as const, content: { type: "text" as const, text: ev.text } }]
            : ev.type === "acp"
              ? [ev.update]
              : [],
        );
      return { updates, fromPrompt: from };
    },
  });
  r.feed.start();
  r.deliver();
  const first = r.store.getSnapshot();
  assert.equal(first.window.older, true);
  assert.equal(first.window.promptsBefore, 200 - first.state!.entries.filter((e) => e.kind === "user").length);
  for (let guard = 0; guard < 20 && (r.host.hasOlder || r.store.getSnapshot().window.start > 0); guard++) {
    await r.feed.page(r.store.getSnapshot().state!.entries[0]!.id, 100);
    r.deliver();
  }
  const held = r.store.getSnapshot().state!.entries;
  assert.deepEqual(
    held.map((e) => (e.kind === "user" || e.kind === "agent" ? e.text : e.kind)),
    fold(all).entries.map((e) => (e.kind === "user" || e.kind === "agent" ? e.text : e.kind)),
  );
  assert.equal(r.store.getSnapshot().window.older, undefined);
});
