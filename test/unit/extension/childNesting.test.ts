import type * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { asParent, nestPermission, nestUpdate, PARENT_TOOL_CALL_META } from "../../../extension/delegation/childNesting";

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
