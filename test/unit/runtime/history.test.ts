// History building after faults: a turn that ended with no reply (crash, cancel, error, unsaved)
// is never folded into the next user message, so the model does not take the abandoned request as
// part of the new one (I-87's follow-up).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildMessages } from "../../../agent-server/runtime/history";
import type { LogEntry, SessionEvent } from "../../../agent-server/session/events";

function log(events: SessionEvent[]): LogEntry[] {
  return events.map((e, i) => ({ ...e, seq: i + 1, at: "2026-11-30T00:00:00.000Z" }) as LogEntry);
}

const user = (turnId: string, text: string): SessionEvent[] => [
  { type: "turn/start", turnId, messageId: `u-${turnId}`, source: "user" },
  { type: "user/message", messageId: `u-${turnId}`, content: [{ type: "text", text }] },
];

describe("history after an unanswered turn", () => {
  for (const reason of ["interrupted", "aborted", "error", "disposed"] as const) {
    it(`a turn that ended '${reason}' with no reply stays its own request, closed by a note the model can read`, () => {
      const msgs = buildMessages(
        log([
          ...user("t1", "delete everything"),
          { type: "turn/end", turnId: "t1", reason },
          ...user("t2", "just list the files"),
          { type: "assistant/text", messageId: "a2", text: "Here." },
          { type: "turn/end", turnId: "t2", reason: "end_turn" },
        ]),
      );
      assert.equal(msgs.length, 4);
      assert.deepEqual(msgs[0], { role: "user", content: [{ type: "text", text: "delete everything" }] });
      assert.equal(msgs[1]!.role, "assistant");
      assert.match(JSON.stringify(msgs[1]!.content), /not answered/);
      assert.deepEqual(msgs[2], { role: "user", content: [{ type: "text", text: "just list the files" }] });
      assert.deepEqual(msgs[3], { role: "assistant", content: [{ type: "text", text: "Here." }] });
    });
  }

  it("a crash log with no turn end at all (recovery not yet run) is treated the same", () => {
    const msgs = buildMessages(log([...user("t1", "first"), ...user("t2", "second")]));
    assert.deepEqual(
      msgs.map((m) => m.role),
      ["user", "assistant", "user"],
    );
  });

  it("task notices still join the user message of their own turn", () => {
    const msgs = buildMessages(
      log([
        { type: "turn/start", turnId: "t1", messageId: "u1", source: "user" },
        { type: "task/notice", taskId: "bash-1", text: "done" },
        { type: "user/message", messageId: "u1", content: [{ type: "text", text: "and now?" }] },
        { type: "assistant/text", messageId: "a", text: "ok" },
        { type: "turn/end", turnId: "t1", reason: "end_turn" },
      ]),
    );
    assert.deepEqual(
      msgs.map((m) => m.role),
      ["user", "assistant"],
    );
    assert.equal(msgs[0]!.content.length, 2);
  });
});
