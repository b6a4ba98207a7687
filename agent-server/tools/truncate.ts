// Output limits: what the model reads is capped, and the cap is always announced.
export const MAX_OUTPUT_CHARS = 30_000;
export const MAX_OUTPUT_LINES = 2_000;

/** Keep the head (files, listings). */
export function truncateHead(text: string, maxChars = MAX_OUTPUT_CHARS, maxLines = MAX_OUTPUT_LINES): string {
  let out = text;
  let cut = false;
  const lines = out.split("\n");
  if (lines.length > maxLines) {
    out = lines.slice(0, maxLines).join("\n");
    cut = true;
  }
  if (out.length > maxChars) {
    out = out.slice(0, maxChars);
    cut = true;
  }
  if (!cut) return text;
  const shownLines = out.split("\n").length;
  return `${out}\n\n[output truncated: showing the first ${shownLines} of ${lines.length} lines (${out.length} of ${text.length} characters)]`;
}

/** Keep the head and the tail (command output: the end usually holds the error). */
export function truncateMiddle(text: string, maxChars = MAX_OUTPUT_CHARS, maxLines = MAX_OUTPUT_LINES): string {
  const lines = text.split("\n");
  if (text.length <= maxChars && lines.length <= maxLines) return text;
  const headLines = Math.floor((maxLines - 10) / 2);
  const half = Math.floor(maxChars / 2);
  let head: string;
  let tail: string;
  if (lines.length > 2 * headLines) {
    head = lines.slice(0, headLines).join("\n");
    tail = lines.slice(lines.length - headLines).join("\n");
  } else {
    // Few but long lines: too many characters, not too many lines. Cut by characters, or a long last
    // line (where the error usually is) would be lost with the middle.
    head = text.slice(0, half);
    tail = text.slice(text.length - half);
  }
  if (head.length > half) head = head.slice(0, half);
  if (tail.length > half) tail = tail.slice(tail.length - half);
  const omitted = text.length - head.length - tail.length;
  return `${head}\n\n[output truncated: ${omitted} characters omitted from the middle of ${text.length}]\n\n${tail}`;
}

/** A bounded accumulator that keeps the first and last part of a long stream. */
export class OutputBuffer {
  private head = "";
  private tail = "";
  private dropped = 0;
  constructor(private readonly limit = 1_000_000) {}
  push(chunk: string): void {
    if (this.head.length < this.limit / 2) {
      const room = this.limit / 2 - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
    }
    if (!chunk) return;
    this.tail += chunk;
    if (this.tail.length > this.limit / 2) {
      const excess = this.tail.length - this.limit / 2;
      this.dropped += excess;
      this.tail = this.tail.slice(excess);
    }
  }
  text(): string {
    return this.dropped > 0 ? `${this.head}\n[… ${this.dropped} characters dropped …]\n${this.tail}` : this.head + this.tail;
  }
}
