// A session's text and thought deltas are merged before they become log entries and updates
// (agent-server/runtime/deltaCoalescer.ts), and always recorded before anything else of that session.
import type * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { createHarness, until, type Harness } from "../../support/inProcess";
import { createFakeTools, finish, text, toolCall, type Gate } from "../../support/scriptedModel";

function summary(updates: readonly acp.SessionUpdate[]): string[] {
  return updates
    .filter((u) => u.sessionUpdate !== "available_commands_update" && u.sessionUpdate !== "session_info_update")
    .map((u) =>
      u.sessionUpdate === "agent_message_chunk" || u.sessionUpdate === "agent_thought_chunk"
        ? `${u.sessionUpdate}:${u.content.type === "text" ? u.content.text : ""}`
        : u.sessionUpdate,
    );
}

/** A gate that says when the model reached it (the agent has consumed every delta before it). */
function reachedGate(): Gate & { reached: boolean } {
  let open!: () => void;
  const promise = new Promise<void>((r) => {
    open = r;
  });
  const g = {
    reached: false,
    opened: false,
    open: () => {
      g.opened = true;
      open();
    },
    get promise() {
      g.reached = true;
      return promise;
    },
  };
  return g;
}

describe("delta coalescing (in-process)", () => {
  let h: Harness;
  afterEach(() => h.cleanup());

  it("one step's deltas become one update and one log entry per run, before the tool call, the usage and the prompt's answer", async () => {
    h = createHarness({ tools: createFakeTools({ echo: () => ({ output: "echoed", isError: false }) }) });
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    h.model.enqueue(
      [
        { type: "reasoning-delta", text: "let me " },
        { type: "reasoning-delta", text: "think" },
        text("calling "),
        text("echo"),
        toolCall("echo", {}),
        finish("tool-calls"),
      ],
      [text("do"), text("ne"), finish()],
    );
    assert.deepEqual(await c.prompt(a, "go"), { stopReason: "end_turn" });
    // Everything of the turn was on the wire when the answer came (I-33), in the model's order.
    assert.deepEqual(summary(c.updates.get(a) ?? []), [
      "agent_thought_chunk:let me think",
      "agent_message_chunk:calling echo",
      "usage_update",
      "tool_call",
      "tool_call_update",
      "tool_call_update",
      "agent_message_chunk:done",
      "usage_update",
    ]);
    const agent = h.live.get(a)!;
    const kinds = agent.session.entries.map((e) =>
      e.type === "assistant/text" || e.type === "assistant/thought" ? `${e.type}:${e.text}` : e.type,
    );
    assert.deepEqual(kinds.slice(kinds.indexOf("user/message") + 1), [
      "assistant/thought:let me think",
      "assistant/text:calling echo",
      "usage",
      "tool/call",
      "tool/result",
      "assistant/text:done",
      "usage",
      "turn/end",
    ]);
    // One message id per step, as before: the merged entry keeps it.
    const texts = agent.session.entries.filter((e) => e.type === "assistant/text");
    const thought = agent.session.entries.find((e) => e.type === "assistant/thought");
    assert.equal(
      thought?.type === "assistant/thought" ? thought.messageId : "",
      texts[0]?.type === "assistant/text" ? texts[0].messageId : "-",
    );
    assert.notEqual(
      texts[0]?.type === "assistant/text" ? texts[0].messageId : "",
      texts[1]?.type === "assistant/text" ? texts[1].messageId : "",
    );
  });

  it("I-37: a cancel mid-stream records the deltas that came before it, then the turn end; the prompt answers cancelled after them", async () => {
    h = createHarness();
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    const g = reachedGate();
    h.model.enqueue([text("partial "), text("answer"), { type: "wait", gate: g }, text(" never")]);
    const pa = c.prompt(a, "go");
    await until(() => g.reached, "the model waiting after two deltas");
    await c.cancel(a);
    assert.deepEqual(await pa, { stopReason: "cancelled" });
    assert.deepEqual(summary(c.updates.get(a) ?? []), ["agent_message_chunk:partial answer"]);
    const entries = h.live.get(a)!.session.entries;
    const tail = entries
      .slice(-2)
      .map((e) => (e.type === "turn/end" ? `turn/end:${e.reason}` : e.type === "assistant/text" ? e.text : e.type));
    assert.deepEqual(tail, ["partial answer", "turn/end:aborted"]);
    g.open();
  });

  it("deltas of two sessions stay apart: each session's updates carry only its own text", async () => {
    h = createHarness();
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    const b = await c.newSession(h.ws[1]!);
    h.model.fallback = (req) => {
      const last = req.messages[req.messages.length - 1];
      const who = last?.role === "user" && last.content[0]?.type === "text" ? last.content[0].text : "?";
      return [text(`${who}-1 `), text(`${who}-2 `), text(`${who}-3`), finish()];
    };
    await Promise.all([c.prompt(a, "A"), c.prompt(b, "B")]);
    assert.deepEqual(summary(c.updates.get(a) ?? []), ["agent_message_chunk:A-1 A-2 A-3", "usage_update"]);
    assert.deepEqual(summary(c.updates.get(b) ?? []), ["agent_message_chunk:B-1 B-2 B-3", "usage_update"]);
  });
});
