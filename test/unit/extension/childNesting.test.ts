import type * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { asParent, nestPermission, nestUpdate, PARENT_TOOL_CALL_META } from "../../../extension/delegation/childNesting";
import { nestedView } from "../../../extension/common/nestedTools";
import {
  emptyTranscript,
  reduceTranscript,
  type ToolEntry,
  type TranscriptEvent,
  type TranscriptState,
} from "../../../extension/common/transcript";

const t = { sessionId: "p", toolCallId: "card", delegateId: "p-sub-1" };

describe("a delegated child's messages as its parent shows them", () => {
  it("I-14: tool calls are namespaced by the parent-minted id and nested under the delegate card", () => {
    const u = nestUpdate(t, { sessionUpdate: "tool_call", toolCallId: "c1", title: "Edit a.ts", _meta: { own: 1 } });
    assert.deepEqual(u, {
      sessionUpdate: "tool_call",
      toolCallId: "p-sub-1/c1",
      title: "Edit a.ts",
      _meta: { own: 1, [PARENT_TOOL_CALL_META]: "card" },
    });
    const upd = nestUpdate(t, { sessionUpdate: "tool_call_update", toolCallId: "c1", status: "completed" });
    assert.equal(upd?.sessionUpdate === "tool_call_update" && upd.toolCallId, "p-sub-1/c1");
  });

  it("what belongs to the child's own session is not forwarded", () => {
    const own: acp.SessionUpdate[] = [
      { sessionUpdate: "current_mode_update", currentModeId: "yolo" },
      { sessionUpdate: "available_commands_update", availableCommands: [] },
      { sessionUpdate: "user_message_chunk", content: { type: "text", text: "the task" } },
      { sessionUpdate: "session_info_update", title: "child" },
      { sessionUpdate: "usage_update", used: 1, size: 2 },
    ];
    for (const u of own) assert.equal(nestUpdate(t, u), undefined, u.sessionUpdate);
    assert.equal(
      nestUpdate(t, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } })?._meta?.[PARENT_TOOL_CALL_META],
      "card",
    );
  });

  it("permission requests and fs/terminal requests are re-addressed to the parent session", () => {
    const p = nestPermission(t, { sessionId: "child-own", toolCall: { toolCallId: "c2" }, options: [] });
    assert.equal(p.sessionId, "p");
    assert.equal(p.toolCall.toolCallId, "p-sub-1/c2");
    assert.equal(p.toolCall._meta?.[PARENT_TOOL_CALL_META], "card");
    assert.deepEqual(asParent(t, { sessionId: "child-own", path: "/f/a" }), { sessionId: "p", path: "/f/a" });
  });
});

describe("a delegated child's updates in the parent's transcript", () => {
  const fold = (events: TranscriptEvent[]): TranscriptState => events.reduce(reduceTranscript, emptyTranscript("alpha", "agent"));
  const card: TranscriptEvent = {
    type: "acp",
    update: { sessionUpdate: "tool_call", toolCallId: "card", title: "Delegate to opencode: fix it", kind: "think", status: "in_progress" },
  };
  const child = (u: acp.SessionUpdate): TranscriptEvent => ({ type: "acp", update: nestUpdate(t, u) as never });

  it("I-121: the child's calls nest under the delegate card; its text goes into that card, its plan never replaces the session's", () => {
    const s = fold([
      { type: "acp", update: { sessionUpdate: "plan", entries: [{ content: "parent step", priority: "high", status: "pending" }] } },
      card,
      child({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Looking " } }),
      child({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "at it." } }),
      child({ sessionUpdate: "tool_call", toolCallId: "c1", title: "Edit a.ts", kind: "edit", status: "completed" }),
      child({ sessionUpdate: "plan", entries: [{ content: "child step", priority: "high", status: "completed" }] }),
    ]);
    const tools = s.entries.filter((e): e is ToolEntry => e.kind === "tool");
    const parent = tools.find((e) => e.toolCallId === "card")!;
    assert.equal(parent.nested, 1);
    assert.equal(tools.find((e) => e.toolCallId === "p-sub-1/c1")?.parentToolCallId, "card");
    assert.deepEqual(
      nestedView(s.entries).top.map((e) => e.kind),
      ["tool"],
      "the child's text, call and plan are not top-level entries",
    );
    assert.match(JSON.stringify(parent.content), /Looking at it\..*☑ child step/s);
    assert.deepEqual(
      s.plan?.map((p) => p.content),
      ["parent step"],
    );
  });
});
