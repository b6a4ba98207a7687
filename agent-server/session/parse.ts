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

const NL = 0x0a;

/** Parses a whole log (a string is taken as its UTF-8). */
export function parseLog(id: string, data: Uint8Array | string): ParsedLog {
  const parser = new LogParser(id);
  parser.push(typeof data === "string" ? Buffer.from(data, "utf8") : data);
  return parser.end();
}

/** The header line's checks (I-89). */
function headerOf(id: string, line: string): SessionHeader {
  let rawHeader: unknown;
  try {
    rawHeader = JSON.parse(line);
  } catch {
    throw new CorruptSessionError(id, "the header line is not valid JSON");
  }
  if (typeof rawHeader === "object" && rawHeader !== null && "version" in rawHeader && rawHeader.version !== LOG_FORMAT_VERSION) {
    throw new UnsupportedVersionError(id, rawHeader.version);
  }
  const header = SessionHeader.safeParse(rawHeader);
  if (!header.success) throw new CorruptSessionError(id, "the header is malformed");
  if (header.data.id !== id) throw new CorruptSessionError(id, `the header names a different session (${JSON.stringify(header.data.id)})`);
  return header.data;
}

/**
 * Reads a log as its bytes arrive, chunk by chunk: store.ts reads the file through one small buffer
 * it reuses, so a 70 MB log is never in memory whole, as bytes or as text. A line is decoded and
 * parsed once its newline is seen; a newline byte never falls inside a UTF-8 sequence, so it decodes
 * as it would within the whole text, and offsets are bytes (what a torn file is cut back to). The
 * verdicts are those of one pass over the whole text: the header's checks; then every line an event,
 * in seq order, blank lines skipped; only the last line may be torn (not an event, or no newline).
 */
export class LogParser {
  private header: SessionHeader | null = null;
  private readonly entries: LogEntry[] = [];
  /** Events read so far (all of them, whether kept here or handed to `sink`). */
  private count = 0;
  /** The line not yet ended, copied out of the caller's chunks. */
  private partial: Buffer[] = [];
  private partialBytes = 0;
  /** Bytes of the whole lines handled so far, newlines included. */
  private consumed = 0;
  /** Where the well-formed prefix ends. */
  private goodLength = 0;
  /** The last whole line is not an event: a torn write if nothing follows it, else corruption. */
  private badLine = false;

  /** `sink` takes each event instead of the parser's own list (then `end()` gives no entries). */
  constructor(
    private readonly id: string,
    private readonly sink?: (entry: LogEntry) => void,
  ) {}

  /** The next bytes of the file; `chunk` may be reused by the caller once this returns. */
  push(chunk: Uint8Array): void {
    const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let pos = 0;
    while (pos < buf.length) {
      if (this.badLine) this.corrupt();
      const nl = buf.indexOf(NL, pos);
      if (nl === -1) {
        this.partial.push(Buffer.from(buf.subarray(pos)));
        this.partialBytes += buf.length - pos;
        return;
      }
      const piece = buf.subarray(pos, nl);
      const line = this.partial.length === 0 ? piece.toString("utf8") : Buffer.concat([...this.partial, piece]).toString("utf8");
      this.consumed += this.partialBytes + piece.length + 1;
      this.partial = [];
      this.partialBytes = 0;
      pos = nl + 1;
      this.wholeLine(line);
    }
  }

  /** The log, once every chunk has been pushed. */
  end(): ParsedLog {
    let torn = this.badLine;
    if (this.partial.length > 0) {
      const line = Buffer.concat(this.partial).toString("utf8");
      const end = this.consumed + this.partialBytes;
      this.partial = [];
      // A header with no newline is the whole log; an event line with none was cut short, however it parses.
      if (!this.header) {
        this.header = headerOf(this.id, line);
        this.goodLength = end;
      } else if (line.trim() === "") this.goodLength = end;
      else torn = true;
    }
    // Nothing at all: the header's verdict on an empty line.
    this.header ??= headerOf(this.id, "");
    return { header: this.header, entries: this.entries, goodLength: this.goodLength, torn };
  }

  private wholeLine(line: string): void {
    if (!this.header) {
      this.header = headerOf(this.id, line);
      this.goodLength = this.consumed;
      return;
    }
    const entry = parseEntry(line);
    if (!entry) {
      if (line.trim() === "") this.goodLength = this.consumed;
      else this.badLine = true;
      return;
    }
    const expected = this.count + 1;
    if (entry.seq !== expected) throw new CorruptSessionError(this.id, `event seq ${entry.seq} where ${expected} was expected`);
    this.count = expected;
    if (this.sink) this.sink(entry);
    else this.entries.push(entry);
    this.goodLength = this.consumed;
  }

  private corrupt(): never {
    throw new CorruptSessionError(this.id, `line ${this.count + 2} is not a valid event`);
  }
}

/** What crash recovery (I-87) tracks over a log read in order: the turn left open, its unanswered tool calls. */
export class RecoveryState {
  private openTurn: string | null = null;
  private readonly unanswered = new Map<string, string>(); // toolCallId -> name

  add(e: LogEntry): void {
    switch (e.type) {
      case "turn/start":
        this.openTurn = e.turnId;
        this.unanswered.clear();
        break;
      case "turn/end":
        this.openTurn = null;
        this.unanswered.clear();
        break;
      case "tool/call":
        this.unanswered.set(e.toolCallId, e.name);
        break;
      case "tool/result":
        this.unanswered.delete(e.toolCallId);
        break;
      default:
        break;
    }
  }

  /** Events that close a turn the process died in. Empty when the log is balanced. */
  events(): SessionEvent[] {
    const out: SessionEvent[] = [];
    for (const toolCallId of this.unanswered.keys()) {
      out.push({
        type: "tool/result",
        toolCallId,
        status: "failed",
        output: "The agent stopped before this tool call finished; its outcome is unknown.",
        isError: true,
      });
    }
    if (this.openTurn !== null) out.push({ type: "turn/end", turnId: this.openTurn, reason: "interrupted" });
    return out;
  }
}

/** Events that close a turn the process died in (I-87). Empty when the log is balanced. */
export function recoveryEvents(entries: readonly LogEntry[]): SessionEvent[] {
  const state = new RecoveryState();
  for (const e of entries) state.add(e);
  return state.events();
}
