// Synthetic session histories for the session/load benchmark, written straight into a data dir in
// the session log format of agent-server/session/events.ts (header line, then events with contiguous seq).
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { randomUUID } from "node:crypto";
import { LOG_FORMAT_VERSION, SessionEvent, SessionHeader, type LogEntry } from "../../agent-server/session/events";

/** `events` entries as whole turns: turn/start, user/message, assistant/text…, turn/end. */
export function historyLines(id: string, cwd: string, events: number): string[] {
  const header: SessionHeader = SessionHeader.parse({
    type: "header",
    version: LOG_FORMAT_VERSION,
    id,
    cwd,
    createdAt: new Date(0).toISOString(),
  });
  const lines = [JSON.stringify(header)];
  let seq = 0;
  let turn = 0;
  const at = new Date(0).toISOString();
  const push = (e: SessionEvent): void => {
    const entry: LogEntry = { ...SessionEvent.parse(e), seq: ++seq, at };
    lines.push(JSON.stringify(entry));
  };
  while (seq < events) {
    const turnId = `turn-${++turn}`;
    const userMsg = `u-${turn}`;
    const left = events - seq;
    if (left < 4) {
      // pad with whole-event records that need no turn around them
      push({ type: "session/title", title: `bench ${seq}` });
      continue;
    }
    push({ type: "turn/start", turnId, messageId: userMsg, source: "user" });
    push({
      type: "user/message",
      messageId: userMsg,
      content: [{ type: "text", text: `question ${turn}: explain the next part of the code, please.` }],
    });
    const texts = Math.min(6, events - seq - 1);
    for (let i = 0; i < texts; i++) {
      push({
        type: "assistant/text",
        messageId: `a-${turn}`,
        text: `Part ${i} of the answer to ${turn}: the function reads the file, splits it into lines and returns them. `,
      });
    }
    push({ type: "turn/end", turnId, reason: "end_turn" });
  }
  return lines;
}

export function writeHistory(file: string, id: string, cwd: string, events: number): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, historyLines(id, cwd, events).join("\n") + "\n");
}

export function newId(): string {
  return randomUUID();
}
