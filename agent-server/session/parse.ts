// Reading a log file back: header checks (I-89), contiguous seq, a torn last line tolerated, and
// crash recovery (I-87): an open turn is closed as `interrupted`, unanswered tool calls get an error result.
import { CorruptSessionError, UnsupportedVersionError } from "./errors";
import { parseEntry } from "./entry";
import { LOG_FORMAT_VERSION, SessionHeader, type LogEntry, type SessionEvent } from "./events";

export interface ParsedLog {
  header: SessionHeader;
  entries: LogEntry[];
  /** Byte length of the well-formed prefix (a torn last line is cut off before appending). */
  goodLength: number;
  torn: boolean;
}

export function parseLog(id: string, text: string): ParsedLog {
  const firstNl = text.indexOf("\n");
  const headerLine = firstNl === -1 ? text : text.slice(0, firstNl);
  let rawHeader: unknown;
  try {
    rawHeader = JSON.parse(headerLine);
  } catch {
    throw new CorruptSessionError(id, "the header line is not valid JSON");
  }
  if (typeof rawHeader === "object" && rawHeader !== null && "version" in rawHeader && rawHeader.version !== LOG_FORMAT_VERSION) {
    throw new UnsupportedVersionError(id, rawHeader.version);
  }
  const header = SessionHeader.safeParse(rawHeader);
  if (!header.success) throw new CorruptSessionError(id, "the header is malformed");
  if (header.data.id !== id) throw new CorruptSessionError(id, `the header names a different session (${JSON.stringify(header.data.id)})`);
  if (firstNl === -1) return { header: header.data, entries: [], goodLength: Buffer.byteLength(text), torn: false };

  const entries: LogEntry[] = [];
  let pos = firstNl + 1;
  let goodChars = pos;
  let torn = false;
  while (pos < text.length) {
    const nl = text.indexOf("\n", pos);
    const line = nl === -1 ? text.slice(pos) : text.slice(pos, nl);
    const isLast = nl === -1 || nl === text.length - 1;
    const next = nl === -1 ? text.length : nl + 1;
    if (line.trim() === "") {
      pos = next;
      goodChars = next;
      continue;
    }
    const entry = parseEntry(line);
    if (!entry || nl === -1) {
      // The last line cut short (no newline, or not parsable) is a torn write: drop it.
      if (isLast) {
        torn = true;
        break;
      }
      throw new CorruptSessionError(id, `line ${entries.length + 2} is not a valid event`);
    }
    const expected = entries.length + 1;
    if (entry.seq !== expected) throw new CorruptSessionError(id, `event seq ${entry.seq} where ${expected} was expected`);
    entries.push(entry);
    pos = next;
    goodChars = next;
  }
  return { header: header.data, entries, goodLength: Buffer.byteLength(text.slice(0, goodChars)), torn };
}

/** Events that close a turn the process died in (I-87). Empty when the log is balanced. */
export function recoveryEvents(entries: readonly LogEntry[]): SessionEvent[] {
  let openTurn: string | null = null;
  const unanswered = new Map<string, string>(); // toolCallId -> name
  for (const e of entries) {
    switch (e.type) {
      case "turn/start":
        openTurn = e.turnId;
        unanswered.clear();
        break;
      case "turn/end":
        openTurn = null;
        unanswered.clear();
        break;
      case "tool/call":
        unanswered.set(e.toolCallId, e.name);
        break;
      case "tool/result":
        unanswered.delete(e.toolCallId);
        break;
      default:
        break;
    }
  }
  const out: SessionEvent[] = [];
  for (const toolCallId of unanswered.keys()) {
    out.push({
      type: "tool/result",
      toolCallId,
      status: "failed",
      output: "The agent stopped before this tool call finished; its outcome is unknown.",
      isError: true,
    });
  }
  if (openTurn !== null) out.push({ type: "turn/end", turnId: openTurn, reason: "interrupted" });
  return out;
}
