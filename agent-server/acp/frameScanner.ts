// A byte-level scanner for newline-delimited JSON-RPC (I-108). It measures each line's length and
// nesting depth and notes its top-level keys and where its scalar `id` lies, with no JSON.parse and no
// recursion, so a hostile line is judged before anything that could overflow the stack sees it.
// Over-long lines are not buffered: their bytes are counted and dropped as they stream past. Pure.
import { isUtf8 } from "node:buffer";

export interface FrameLimits {
  /** Deepest `{`/`[` nesting a line may have. */
  maxDepth: number;
  /** Longest line in bytes (without its line ending). */
  maxLineBytes: number;
}

/** Far above any honest ACP message, far below what JSON.stringify and zod recurse through safely. */
export const DEFAULT_FRAME_LIMITS: FrameLimits = { maxDepth: 64, maxLineBytes: 24 * 1024 * 1024 };

export type FrameProblem = "too-deep" | "too-large" | "not-json" | "not-an-object" | "bad-id" | "not-utf8";

/** What the line was, as far as its top-level keys tell (decides whether and how to answer). */
export type FrameKind = "request" | "notification" | "response" | "unknown";

export type ScannedLine =
  { ok: true; bytes: Buffer } | { ok: false; problem: FrameProblem; kind: FrameKind; id: string | number | null; bytes: number };

const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJ = 0x7b;
const CLOSE_OBJ = 0x7d;
const OPEN_ARR = 0x5b;
const CLOSE_ARR = 0x5d;

/**
 * An id of any length is echoed exactly when its line is within the limit (its bytes are read from the
 * kept line); of an over-long line, whose bytes are dropped, only an id up to this size is kept.
 */
const MAX_OVERSIZE_ID_BYTES = 64 * 1024;
const MAX_KEY_BYTES = 8;

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === CR || b === LF;
}

type Phase = "key" | "colon" | "value" | "after";

export class FrameScanner {
  private parts: Buffer[] = [];
  private length = 0;
  private depth = 0;
  private maxSeen = 0;
  private started = false;
  private topIsObject = false;
  private inString = false;
  private escaped = false;
  // Top-level (depth 1) key/value tracking.
  private phase: Phase = "key";
  private keyBytes: number[] | null = null;
  private currentKey = "";
  private readonly keys = new Set<string>();
  /** Where the id's text lies in the line (end exclusive), -1 when there is none. */
  private idStart = -1;
  private idEnd = -1;
  /** The id's bytes as they stream past, for an over-long line; null past MAX_OVERSIZE_ID_BYTES. */
  private idSmall: number[] | null = null;
  /** Offset in the line of the byte being scanned. */
  private pos = 0;
  private idCapturing: "string" | "scalar" | null = null;
  private idBad = false;

  constructor(private readonly limits: FrameLimits = DEFAULT_FRAME_LIMITS) {}

  /** Feeds a chunk; returns the lines it completed, judged. */
  push(chunk: Uint8Array): ScannedLine[] {
    const out: ScannedLine[] = [];
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (b === LF) {
        this.keep(chunk, start, i);
        out.push(this.finish());
        start = i + 1;
        continue;
      }
      this.pos = this.length + (i - start);
      this.scan(b);
    }
    this.keep(chunk, start, chunk.length);
    return out;
  }

  /** The unterminated last line at end of input, if any. */
  end(): ScannedLine | null {
    if (this.length === 0 && !this.started) return null;
    return this.finish();
  }

  private keep(chunk: Uint8Array, from: number, to: number): void {
    if (to <= from) return;
    this.length += to - from;
    // Past the limit nothing is kept: the line will be refused, only its shape is still tracked.
    if (this.length > this.limits.maxLineBytes) this.parts = [];
    else this.parts.push(Buffer.from(chunk.subarray(from, to))); // a copy: the reader may reuse its chunk
  }

  private scan(b: number): void {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (b === BACKSLASH) this.escaped = true;
      else if (b === QUOTE) {
        this.inString = false;
        this.endString();
        return;
      }
      this.stringByte(b);
      return;
    }
    if (isSpace(b)) {
      if (this.idCapturing === "scalar") this.idCapturing = null;
      return;
    }
    if (!this.started) {
      this.started = true;
      this.topIsObject = b === OPEN_OBJ;
    }
    if (this.depth === 1 && this.topIsObject) this.topLevel(b);
    else if (this.idCapturing === "scalar") this.idCapturing = null;
    switch (b) {
      case QUOTE:
        this.inString = true;
        break;
      case OPEN_OBJ:
      case OPEN_ARR:
        this.depth++;
        if (this.depth > this.maxSeen) this.maxSeen = this.depth;
        break;
      case CLOSE_OBJ:
      case CLOSE_ARR:
        if (this.depth > 0) this.depth--;
        if (this.depth === 1) this.phase = "after";
        break;
      default:
        break;
    }
  }

  /** A structural byte inside the top-level object. */
  private topLevel(b: number): void {
    if (this.idCapturing === "scalar") {
      if (b === COMMA || b === CLOSE_OBJ) this.idCapturing = null;
      else {
        this.pushId(b);
        return;
      }
    }
    switch (this.phase) {
      case "key":
        if (b === QUOTE) this.keyBytes = [];
        return;
      case "colon":
        if (b === COLON) this.phase = "value";
        return;
      case "value":
        this.phase = "after";
        this.keys.add(this.currentKey);
        if (this.currentKey !== "id") return;
        this.idStart = this.pos;
        this.idEnd = this.pos + 1;
        this.idSmall = [b];
        this.idBad = false;
        if (b === QUOTE) this.idCapturing = "string";
        else if (b === OPEN_OBJ || b === OPEN_ARR) {
          this.idBad = true;
          this.idStart = -1;
        } else this.idCapturing = "scalar";
        return;
      case "after":
        if (b === COMMA) this.phase = "key";
        return;
    }
  }

  private stringByte(b: number): void {
    if (this.keyBytes) {
      if (this.keyBytes.length <= MAX_KEY_BYTES) this.keyBytes.push(b);
    } else if (this.idCapturing === "string") this.pushId(b);
  }

  private endString(): void {
    if (this.keyBytes) {
      this.currentKey = this.keyBytes.length > MAX_KEY_BYTES ? "" : String.fromCharCode(...this.keyBytes);
      this.keyBytes = null;
      this.phase = "colon";
    } else if (this.idCapturing === "string") {
      this.pushId(QUOTE);
      this.idCapturing = null;
    }
  }

  private pushId(b: number): void {
    if (this.idStart < 0) return;
    this.idEnd = this.pos + 1;
    if (!this.idSmall) return;
    if (this.idSmall.length >= MAX_OVERSIZE_ID_BYTES) this.idSmall = null;
    else this.idSmall.push(b);
  }

  /** The id's exact text: from the kept line when there is one, else as captured (or null). */
  private idText(line: Buffer | null): Buffer | null {
    if (this.idBad || this.idStart < 0 || this.idCapturing !== null) return null;
    if (line) return line.subarray(this.idStart, this.idEnd);
    return this.idSmall ? Buffer.from(this.idSmall) : null;
  }

  /** The id when it is a string or a finite number written in valid UTF-8, exactly as sent; else null. */
  private scalarId(line: Buffer | null): string | number | null {
    const text = this.idText(line);
    if (!text || !isUtf8(text)) return null;
    try {
      const v: unknown = JSON.parse(text.toString("utf8"));
      return typeof v === "string" || (typeof v === "number" && Number.isFinite(v)) ? v : null;
    } catch {
      return null;
    }
  }

  private kind(): FrameKind {
    if (this.keys.has("method")) return this.keys.has("id") ? "request" : "notification";
    if (this.keys.has("id") && (this.keys.has("result") || this.keys.has("error"))) return "response";
    return "unknown";
  }

  private finish(): ScannedLine {
    const length = this.length;
    const kept = length > this.limits.maxLineBytes ? null : this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, length);
    const refuse = (problem: FrameProblem, kind = this.kind()): ScannedLine => ({
      ok: false,
      problem,
      kind,
      id: kind === "unknown" ? null : this.scalarId(kept),
      bytes: length,
    });
    let line: ScannedLine;
    if (!kept) line = refuse("too-large");
    else if (this.maxSeen > this.limits.maxDepth) line = refuse("too-deep");
    else if (this.started && !this.topIsObject) line = refuse(parsesAsJson(kept, "utf8") ? "not-an-object" : "not-json");
    else if (this.keys.has("id") && this.scalarId(kept) === null && !this.isNullId(kept) && isUtf8(kept)) line = refuse("bad-id");
    else {
      const bytes = kept.length > 0 && kept[kept.length - 1] === CR ? kept.subarray(0, kept.length - 1) : kept;
      if (isUtf8(bytes)) line = { ok: true, bytes };
      // A line broken outside its strings is no message at all: its keys say nothing, so a parse error
      // with id null goes back, as for any unparseable line (the bytes of a string map 1:1 in latin1).
      // A broken response still settles our own request by its id (as a failure, never a grant).
      else line = parsesAsJson(bytes, "latin1") || this.kind() === "response" ? refuse("not-utf8") : refuse("not-utf8", "unknown");
    }
    this.reset();
    return line;
  }

  private isNullId(line: Buffer): boolean {
    return this.idText(line)?.toString("latin1") === "null";
  }

  private reset(): void {
    this.parts = [];
    this.length = 0;
    this.depth = 0;
    this.maxSeen = 0;
    this.started = false;
    this.topIsObject = false;
    this.inString = false;
    this.escaped = false;
    this.phase = "key";
    this.keyBytes = null;
    this.currentKey = "";
    this.keys.clear();
    this.idStart = -1;
    this.idEnd = -1;
    this.idSmall = null;
    this.pos = 0;
    this.idCapturing = null;
    this.idBad = false;
  }
}

/** Only called within the depth and size limits, so JSON.parse is safe here. */
function parsesAsJson(bytes: Buffer, encoding: "utf8" | "latin1"): boolean {
  try {
    JSON.parse(bytes.toString(encoding));
    return true;
  } catch {
    return false;
  }
}

export function problemMessage(problem: FrameProblem, limits: FrameLimits = DEFAULT_FRAME_LIMITS): string {
  switch (problem) {
    case "too-deep":
      return `Invalid request: the message is nested deeper than ${limits.maxDepth} levels`;
    case "too-large":
      return `Invalid request: the message is too large (the limit is ${limits.maxLineBytes} bytes per line)`;
    case "not-json":
      return "Parse error: the message is not JSON";
    case "not-an-object":
      return "Invalid request: a message must be a JSON object (batches are not supported)";
    case "bad-id":
      return "Invalid request: the id must be a string, a number or null";
    case "not-utf8":
      return "Parse error: the message is not valid UTF-8";
  }
}
