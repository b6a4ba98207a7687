// One log line → one checked entry. A log is outside data: every line passes the event schema
// (`SessionEvent`). The kinds that make up the bulk of a long log (streamed text, turn brackets,
// plain-text prompts) are checked by hand first, with the schema's own rules and output shape (known
// keys only, in the schema's order); anything the hand check does not recognise as plainly valid —
// an extra field on a content block, a wrong type, an unknown value — goes through zod, whose verdict
// stands. So the fast paths change the cost of a load, never what it accepts or returns.
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { SessionEvent, TurnEndReason, type LogEntry } from "./events";

const TURN_SOURCES: ReadonlySet<unknown> = new Set(["user", "task", "subagent"]);
const TURN_END_REASONS: ReadonlySet<unknown> = new Set(TurnEndReason.options);

type Raw = Record<string, unknown>;

/** The entry a line holds, or null when it is not a valid event (not JSON, no seq/at, or the schema refuses it). */
export function parseEntry(line: string): LogEntry | null {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof raw !== "object" || raw === null) return null;
  const r = raw as Raw;
  const { seq, at } = r;
  if (typeof seq !== "number" || !Number.isInteger(seq) || typeof at !== "string") return null;
  return fastEntry(r, seq, at) ?? checkedEntry(r, seq, at);
}

/** The schema's verdict on a parsed line, always through zod (the reference the fast paths match). */
export function checkedEntry(raw: Raw, seq: number, at: string): LogEntry | null {
  const ev = SessionEvent.safeParse(raw);
  if (!ev.success) return null;
  return { ...ev.data, seq, at } as LogEntry;
}

/** The hand-checked entry when `raw` is plainly valid, else undefined (the caller asks zod). */
export function fastEntry(r: Raw, seq: number, at: string): LogEntry | undefined {
  switch (r.type) {
    case "assistant/text":
    case "assistant/thought": {
      const { messageId, text } = r;
      if (typeof messageId !== "string" || typeof text !== "string") return undefined;
      return { type: r.type, messageId, text, seq, at };
    }
    case "turn/start": {
      const { turnId, messageId, source } = r;
      if (typeof turnId !== "string" || (messageId !== null && typeof messageId !== "string") || !TURN_SOURCES.has(source))
        return undefined;
      return { type: "turn/start", turnId, messageId, source: source as "user" | "task" | "subagent", seq, at };
    }
    case "turn/end": {
      const { turnId, reason, error } = r;
      if (typeof turnId !== "string" || !TURN_END_REASONS.has(reason)) return undefined;
      const why = reason as TurnEndReason;
      if (error === undefined) return { type: "turn/end", turnId, reason: why, seq, at };
      if (typeof error !== "string") return undefined;
      return { type: "turn/end", turnId, reason: why, error, seq, at };
    }
    case "user/message": {
      const { messageId, content } = r;
      if (typeof messageId !== "string") return undefined;
      const blocks = plainTextBlocks(content);
      if (!blocks) return undefined;
      return { type: "user/message", messageId, content: blocks, seq, at };
    }
    default:
      return undefined;
  }
}

/**
 * A prompt made only of `{type: "text", text}` blocks with no other field, as fresh objects; undefined
 * for anything else (annotations, `_meta`, other block types: the schema checks those).
 */
function plainTextBlocks(content: unknown): ContentBlock[] | undefined {
  if (!Array.isArray(content)) return undefined;
  const out: ContentBlock[] = [];
  for (const block of content as unknown[]) {
    if (typeof block !== "object" || block === null || Array.isArray(block)) return undefined;
    const b = block as Raw;
    if (b.type !== "text" || typeof b.text !== "string") return undefined;
    let keys = 0;
    for (const _key in b) keys++;
    if (keys !== 2) return undefined;
    out.push({ type: "text", text: b.text });
  }
  return out;
}
