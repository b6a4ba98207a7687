import assert from "node:assert/strict";
import { test } from "node:test";
import {
  emptyTranscript,
  isDemoModel,
  permissionState,
  reduceTranscript,
  type PermissionEntry,
  type TranscriptEvent,
  type TranscriptState,
} from "../../../extension/common/transcript";

function fold(events: TranscriptEvent[], s: TranscriptState = emptyTranscript("alpha", "agent")): TranscriptState {
  return events.reduce(reduceTranscript, s);
}

test("streaming chunks fold into one message per messageId; tools are patched in place", () => {
  const s = fold([
    { type: "user/prompt", text: "fix it", attachments: ["a.ts"] },
    { type: "turn/started" },
    { type: "acp", update: { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "hmm " } } },
    { type: "acp", update: { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "ok" } } },
    { type: "acp", update: { sessionUpdate: "agent_message_chunk", messageId: "m1", content: { type: "text", text: "Hel" } } },
    { type: "acp", update: { sessionUpdate: "agent_message_chunk", messageId: "m1", content: { type: "text", text: "lo" } } },
    { type: "acp", update: { sessionUpdate: "tool_call", toolCallId: "t1", title: "edit a.ts", kind: "edit", status: "pending" } },
    {
      type: "acp",
      update: {
        sessionUpdate: "tool_call_update",
        toolCallId: "t1",
        status: "completed",
        content: [{ type: "diff", path: "/w/a.ts", newFile: false, linesBefore: 1, linesAfter: 1 }],
      },
    },
    { type: "acp", update: { sessionUpdate: "agent_message_chunk", messageId: "m2", content: { type: "text", text: "Done." } } },
    { type: "acp", update: { sessionUpdate: "plan", entries: [{ content: "step", priority: "high", status: "completed" }] } },
    { type: "acp", update: { sessionUpdate: "session_info_update", title: "Fixing a.ts" } },
    { type: "acp", update: { sessionUpdate: "usage_update", used: 10, size: 100 } },
    { type: "turn/ended", stopReason: "end_turn" },
  ]);
  assert.deepEqual(s.entries, [
    { kind: "user", id: "e1", text: "fix it", attachments: ["a.ts"] },
    { kind: "thought", id: "e2", text: "hmm ok" },
    { kind: "agent", id: "e3", messageId: "m1", text: "Hello" },
    {
      kind: "tool",
      id: "e4",
      toolCallId: "t1",
      title: "edit a.ts",
      toolKind: "edit",
      status: "completed",
      content: [{ type: "diff", path: "/w/a.ts", newFile: false, linesBefore: 1, linesAfter: 1 }],
      locations: [],
    },
    { kind: "agent", id: "e5", messageId: "m2", text: "Done." },
  ]);
  assert.deepEqual(
    { title: s.title, usage: s.usage, plan: s.plan, running: s.running },
    {
      title: "Fixing a.ts",
      usage: { used: 10, size: 100 },
      plan: [{ content: "step", priority: "high", status: "completed" }],
      running: false,
    },
  );
});

test("I-90: cancel marks unfinished tool calls cancelled, and a late in-progress update does not revive them", () => {
  const s = fold([
    { type: "turn/started" },
    { type: "acp", update: { sessionUpdate: "tool_call", toolCallId: "t1", title: "sleep", status: "in_progress" } },
    { type: "acp", update: { sessionUpdate: "tool_call", toolCallId: "t2", title: "ls", status: "completed" } },
    { type: "permission/requested", requestId: "perm-1", toolCallId: "t1", title: "sleep", options: [] },
    { type: "tools/cancelUnfinished" },
    { type: "permission/resolved", requestId: "perm-1", outcome: { state: "cancelled" } },
    { type: "acp", update: { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "in_progress" } },
    { type: "turn/ended", stopReason: "cancelled" },
  ]);
  assert.deepEqual(
    s.entries.map((e) =>
      e.kind === "tool"
        ? `${e.toolCallId}:${e.status}`
        : e.kind === "permission"
          ? `perm:${permissionState(s, e).state}`
          : e.kind === "notice"
            ? e.text
            : e.kind,
    ),
    ["t1:cancelled", "t2:completed", "perm:cancelled", "Turn cancelled."],
  );
});

test("I-95: an interrupted turn is shown as interrupted; session/bound keeps or clears history as asked", () => {
  const running = fold([{ type: "user/prompt", text: "q", attachments: [] }, { type: "turn/started" }]);
  const died = fold([{ type: "turn/ended", stopReason: "interrupted", message: "The turn was interrupted: killed" }], running);
  assert.deepEqual(
    died.entries.map((e) => e.kind + ":" + (e.kind === "notice" ? e.severity + ":" + e.text : "")),
    ["user:", "notice:warning:The turn was interrupted: killed"],
  );
  assert.equal(fold([{ type: "session/bound", sessionId: "s1", clearHistory: false }], died).entries.length, 2);
  const cleared = fold([{ type: "session/bound", sessionId: "s1", clearHistory: true }], died);
  assert.deepEqual([cleared.entries, cleared.sessionId, cleared.nextId > died.nextId - 1], [[], "s1", true]);
});

test("the demo banner shows when the model option's value is demo or its name says demo", () => {
  const withModel = (currentValue: string, name: string) =>
    fold([
      {
        type: "config/options",
        configOptions: [
          { id: "model", name: "Model", category: "model", type: "select", currentValue, options: [{ value: currentValue, name }] },
        ],
      },
    ]);
  assert.deepEqual(
    [
      isDemoModel(withModel("demo", "Anything")),
      isDemoModel(withModel("x", "Demo model (offline)")),
      isDemoModel(withModel("gpt", "GPT")),
      isDemoModel(emptyTranscript("a", "b")),
    ],
    [true, true, false, false],
  );
});

// Manifold's agent sends its turn-end sentence as a marked message chunk (agent-server/acp/updates.ts).
const marked = (reason: string, text: string): TranscriptEvent => ({
  type: "acp",
  update: {
    sessionUpdate: "agent_message_chunk",
    messageId: "turn-end-t1",
    content: { type: "text", text },
    _meta: { "manifold/turnEnd": { reason } },
  },
});
const shown = (s: TranscriptState) =>
  s.entries.map((e) => (e.kind === "notice" ? `notice:${e.severity}:${e.text}` : e.kind === "agent" ? `agent:${e.text}` : e.kind));

test("a turn end is said once: the agent's marked text and the stop reason fold into one notice, in either order", () => {
  const start: TranscriptEvent[] = [{ type: "user/prompt", text: "go", attachments: [] }, { type: "turn/started" }];
  const text = "\n\n⚠️ The turn stopped: too many model requests in one turn.";
  const markerFirst = fold([...start, marked("max_turn_requests", text), { type: "turn/ended", stopReason: "max_turn_requests" }]);
  const stopFirst = fold([...start, { type: "turn/ended", stopReason: "max_turn_requests" }, marked("max_turn_requests", text)]);
  for (const s of [markerFirst, stopFirst]) {
    assert.deepEqual(shown(s), ["user", "notice:warning:The turn stopped: too many model requests in one turn."]);
  }
  // An error: the agent's sentence (with the detail) is the notice, not the host's generic one.
  const failed = fold([
    ...start,
    marked("error", "\n\n⚠️ The turn stopped with an error: boom"),
    { type: "turn/ended", stopReason: "error", message: "The turn failed: Internal error" },
  ]);
  assert.deepEqual(shown(failed), ["user", "notice:error:The turn stopped with an error: boom"]);
});

test("a replayed turn end (marker, no stop reason) is a notice; an agent without the marker still gets one from stopReason", () => {
  const replayed = fold([
    { type: "acp", update: { sessionUpdate: "user_message_chunk", content: { type: "text", text: "q1" } } },
    marked("interrupted", "\n\n⚠️ This turn was interrupted: the agent stopped before it finished."),
    { type: "acp", update: { sessionUpdate: "user_message_chunk", content: { type: "text", text: "q2" } } },
    marked("interrupted", "\n\n⚠️ This turn was interrupted: the agent stopped before it finished."),
  ]);
  assert.deepEqual(shown(replayed), [
    "user",
    "notice:warning:This turn was interrupted: the agent stopped before it finished.",
    "user",
    "notice:warning:This turn was interrupted: the agent stopped before it finished.",
  ]);
  const other = fold([
    { type: "turn/started" },
    { type: "acp", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "partial" } } },
    { type: "turn/ended", stopReason: "max_tokens" },
  ]);
  assert.deepEqual(shown(other), ["agent:partial", "notice:warning:The model stopped: maximum tokens reached."]);
});

test("a permission card is pending exactly while the broker's pushed list holds its request, and clearing history keeps that list", () => {
  const asked = fold([
    { type: "permission/requested", requestId: "perm-1", toolCallId: "t1", title: "rm", options: [] },
    { type: "permissions/pending", requestIds: ["perm-1"] },
  ]);
  const card = asked.entries.find((e): e is PermissionEntry => e.kind === "permission")!;
  assert.deepEqual(permissionState(asked, card), { state: "pending" });
  // The transcript's history is cleared (a session reset); the broker still waits, so the list stays.
  assert.deepEqual(fold([{ type: "reset", folderName: "alpha", agentName: "agent" }], asked).pendingPermissions, ["perm-1"]);
  const answered = fold(
    [
      { type: "permission/resolved", requestId: "perm-1", outcome: { state: "selected", optionId: "y", optionName: "Allow" } },
      { type: "permissions/pending", requestIds: [] },
    ],
    asked,
  );
  assert.deepEqual(
    permissionState(answered, card),
    { state: "cancelled" },
    "the card as it was before the outcome: settled, no outcome → cancelled",
  );
  const settled = answered.entries.find((e): e is PermissionEntry => e.kind === "permission")!;
  assert.deepEqual(permissionState(answered, settled), { state: "selected", optionId: "y", optionName: "Allow" });
});

test("a steer the agent marks is its own user message labelled steered; an unapplied one is followed by a notice", () => {
  const steerChunk = (text: string, applied: boolean): TranscriptEvent => ({
    type: "acp",
    update: {
      sessionUpdate: "user_message_chunk",
      content: { type: "text", text },
      messageId: "m1",
      _meta: { "manifold/steer": { messageId: "m1", applied } },
    },
  });
  let s = emptyTranscript("f", "a");
  s = reduceTranscript(s, { type: "user/prompt", text: "first", attachments: [] });
  s = reduceTranscript(s, steerChunk("use tabs", true));
  s = reduceTranscript(s, steerChunk("too late", false));
  s = reduceTranscript(s, {
    type: "acp",
    update: {
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text: "\n\n⚠️ The message above arrived as the turn stopped." },
      _meta: { "manifold/notice": { kind: "steerNotApplied" } },
    },
  });
  assert.deepEqual(
    s.entries.map((e) => (e.kind === "user" ? [e.kind, e.text, e.steered ?? false] : [e.kind, "text" in e ? e.text : ""])),
    [
      ["user", "first", false],
      ["user", "use tabs", true],
      ["user", "too late", true],
      ["notice", "The message above arrived as the turn stopped."],
    ],
  );
  // Steers are not prompts: truncating to one prompt keeps the steers after it.
  const cut = reduceTranscript(reduceTranscript(s, { type: "user/prompt", text: "second", attachments: [] }), {
    type: "transcript/truncate",
    keepPrompts: 1,
  });
  assert.equal(cut.entries.filter((e) => e.kind === "user").length, 3);
});

test("the queue is replaced by queue/changed and survives a reset and a new session", () => {
  let s = reduceTranscript(emptyTranscript("f", "a"), { type: "queue/changed", items: [{ id: "q1", text: "next" }] });
  s = reduceTranscript(s, { type: "reset", folderName: "f", agentName: "a" });
  s = reduceTranscript(s, { type: "session/bound", sessionId: "s2", clearHistory: true });
  assert.deepEqual(s.queue, [{ id: "q1", text: "next" }]);
});
