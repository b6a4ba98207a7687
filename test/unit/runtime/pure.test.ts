// Pure runtime pieces: settings fold, history → messages, log → updates.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildMessages } from "../../../agent-server/runtime/history";
import { defaultSettings, foldSettings, modeOf, validateConfigValue } from "../../../agent-server/runtime/settings";
import { replayUpdates } from "../../../agent-server/acp/updates";
import { checkPrompt } from "../../../agent-server/acp/prompt";
import type { LogEntry, SessionEvent } from "../../../agent-server/session/events";

const at = "2026-11-30T00:00:00.000Z";
function log(events: SessionEvent[]): LogEntry[] {
  return events.map((e, i) => ({ ...e, seq: i + 1, at }) as LogEntry);
}

describe("runtime pure pieces", () => {
  it("I-48: settings fold only config/set events, mode presets set sandbox and approval", () => {
    const s = foldSettings(defaultSettings("m1"), [
      { type: "config/set", configId: "mode", value: "read-only" },
      { type: "session/title", title: "x" },
      { type: "config/set", configId: "approval", value: "untrusted" },
      { type: "config/set", configId: "model", value: "m2" },
    ]);
    assert.deepEqual(s, { sandbox: "read-only", approval: "untrusted", model: "m2" });
    assert.equal(modeOf(s), "custom");
    assert.equal(modeOf(defaultSettings("m")), "agent");
  });

  it("I-53: config value validation", () => {
    assert.equal(validateConfigValue("mode", "agent", []), null);
    assert.match(validateConfigValue("nope", "x", []) ?? "", /unknown config option/);
    assert.match(validateConfigValue("sandbox", true, []) ?? "", /string/);
    assert.match(validateConfigValue("model", "x", ["y"]) ?? "", /not a value/);
  });

  it("history: steps become assistant/tool message pairs; unanswered calls are skipped", () => {
    const msgs = buildMessages(
      log([
        { type: "turn/start", turnId: "t", messageId: "u", source: "user" },
        { type: "user/message", messageId: "u", content: [{ type: "text", text: "hi" }] },
        { type: "assistant/thought", messageId: "a", text: "hmm" },
        { type: "assistant/text", messageId: "a", text: "Let me " },
        { type: "assistant/text", messageId: "a", text: "look." },
        { type: "tool/call", toolCallId: "c1", name: "read_file", input: { path: "x" }, title: "Read x", kind: "read" },
        { type: "tool/result", toolCallId: "c1", status: "completed", output: "X", isError: false },
        { type: "tool/call", toolCallId: "c2", name: "bash", input: {}, title: "bash", kind: "execute" },
        { type: "assistant/text", messageId: "b", text: "Done." },
        { type: "turn/end", turnId: "t", reason: "end_turn" },
      ]),
    );
    assert.deepEqual(msgs, [
      { role: "user", content: [{ type: "text", text: "hi" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Let me look." },
          { type: "tool-call", toolCallId: "c1", toolName: "read_file", input: { path: "x" } },
        ],
      },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "read_file", output: "X", isError: false }] },
      { role: "assistant", content: [{ type: "text", text: "Done." }] },
    ]);
  });

  it("replay merges adjacent chunks of one message and marks interrupted turns", () => {
    const updates = replayUpdates(
      log([
        { type: "turn/start", turnId: "t", messageId: "u", source: "user" },
        { type: "user/message", messageId: "u", content: [{ type: "text", text: "hi" }] },
        { type: "assistant/text", messageId: "a", text: "one " },
        { type: "assistant/text", messageId: "a", text: "two" },
        { type: "assistant/text", messageId: "b", text: "three" },
        { type: "turn/end", turnId: "t", reason: "interrupted" },
      ]),
    );
    assert.deepEqual(updates, [
      { sessionUpdate: "user_message_chunk", content: { type: "text", text: "hi" }, messageId: "u" },
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "one two" }, messageId: "a" },
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "three" }, messageId: "b" },
      {
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text: "\n\n⚠️ This turn was interrupted: the agent stopped before it finished." },
        messageId: "turn-end-t",
        _meta: { "manifold/turnEnd": { reason: "interrupted" } },
      },
    ]);
  });

  it("a 10,000-event history replays into updates", () => {
    const events: SessionEvent[] = [];
    for (let i = 0; i < 10_000; i++)
      events.push(
        i % 100 === 0
          ? { type: "user/message", messageId: `u${i}`, content: [{ type: "text", text: "q" }] }
          : { type: "assistant/text", messageId: `a${Math.floor(i / 100)}`, text: "x" },
      );
    const updates = replayUpdates(log(events));
    assert.equal(updates.length, 200);
  });

  it("I-31: prompt checks", () => {
    assert.deepEqual(checkPrompt([{ type: "text", text: "  Fix the build\nplease" }]), { ok: true, title: "Fix the build" });
    assert.equal(checkPrompt([{ type: "text", text: " " }]).ok, false);
    assert.equal(checkPrompt([]).ok, false);
    assert.equal(checkPrompt([{ type: "image", data: "AA", mimeType: "text/plain" }]).ok, false);
  });
});
