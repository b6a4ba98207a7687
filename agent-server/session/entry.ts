// One log line → one checked entry. A log is outside data: every line passes the event schema
// (`SessionEvent`). The kinds that make up the bulk of a long log (streamed text, turn brackets,
// plain-text prompts, tool calls, their plain-text or diff results) are checked by hand first, with the schema's own rules and output shape (known
// keys only, in the schema's order); anything the hand check does not recognise as plainly valid —
// an extra field on a content block, a wrong type, an unknown value — goes through zod, whose verdict
// stands. So the fast paths change the cost of a load, never what it accepts or returns.
import type { ContentBlock, ToolCallContent } from "@agentclientprotocol/sdk";
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
    case "tool/call": {
      const { toolCallId, name, title, kind } = r;
      if (typeof toolCallId !== "string" || typeof name !== "string" || typeof title !== "string" || typeof kind !== "string")
        return undefined;
      if (!("input" in r)) return undefined;
      if (r.locations === undefined) return { type: "tool/call", toolCallId, name, input: r.input, title, kind, seq, at };
      const locations = plainLocations(r.locations);
      return locations ? { type: "tool/call", toolCallId, name, input: r.input, title, kind, locations, seq, at } : undefined;
    }
    case "tool/result": {
      const { toolCallId, status, output, isError } = r;
      if (typeof toolCallId !== "string" || (status !== "completed" && status !== "failed") || typeof output !== "string") return undefined;
      if (typeof isError !== "boolean") return undefined;
      if (r.content === undefined) return { type: "tool/result", toolCallId, status, output, isError, seq, at };
      const content = plainToolContent(r.content);
      return content ? { type: "tool/result", toolCallId, status, output, isError, content, seq, at } : undefined;
    }
    default:
      return undefined;
  }
}

/** How many own enumerable keys `o` has (a JSON object's fields). */
function keyCount(o: Raw): number {
  let n = 0;
  for (const _key in o) n++;
  return n;
}

const isPlainObject = (v: unknown): v is Raw => typeof v === "object" && v !== null && !Array.isArray(v);

/** `[{path, line?}]` with no other field, as fresh objects; undefined for anything else. */
function plainLocations(raw: unknown): { path: string; line?: number }[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const out: { path: string; line?: number }[] = [];
  for (const item of raw as unknown[]) {
    if (!isPlainObject(item) || typeof item.path !== "string") return undefined;
    const n = keyCount(item);
    if (n === 1) out.push({ path: item.path });
    else if (n === 2 && typeof item.line === "number") out.push({ path: item.path, line: item.line });
    else return undefined;
  }
  return out;
}

/**
 * Tool-call content made only of plain text blocks (`{type: "content", content: {type: "text", text}}`)
 * and plain diffs (`{type: "diff", path, oldText?, newText}`, oldText a string or null), no other
 * field, as fresh objects; undefined for anything else (the schema checks terminals, `_meta`, …).
 */
function plainToolContent(raw: unknown): ToolCallContent[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const out: ToolCallContent[] = [];
  for (const item of raw as unknown[]) {
    if (!isPlainObject(item)) return undefined;
    if (item.type === "content") {
      const c = item.content;
      if (keyCount(item) !== 2 || !isPlainObject(c) || c.type !== "text" || typeof c.text !== "string" || keyCount(c) !== 2)
        return undefined;
      out.push({ type: "content", content: { type: "text", text: c.text } });
    } else if (item.type === "diff") {
      const { path, oldText, newText } = item;
      if (typeof path !== "string" || typeof newText !== "string") return undefined;
      if (!("oldText" in item)) {
        if (keyCount(item) !== 3) return undefined;
        out.push({ type: "diff", path, newText });
      } else {
        if (keyCount(item) !== 4 || (oldText !== null && typeof oldText !== "string")) return undefined;
        out.push({ type: "diff", path, oldText, newText });
      }
    } else return undefined;
  }
  return out;
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
