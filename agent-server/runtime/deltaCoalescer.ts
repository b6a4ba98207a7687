// One session's text and thought deltas, merged before they become log entries. At full speed many
// model chunks then share one entry, one line, one serialisation and one `session/update`; at a real
// model's pace each chunk still goes out alone, at most one frame (16 ms) late.
//
// Order is the agent's job to keep and this class's contract: a delta of another kind or message
// ends the run first, and the owner calls `flush()` before anything else it records or publishes,
// so what the client sees is the same sequence, only in fewer pieces. One instance per agent, with
// its own timer: one session's stream never waits for, or flushes, another's (I-29 spirit).

export type DeltaKind = "assistant/text" | "assistant/thought";

/** Where the flush timer is scheduled (tests inject a manual one and fire it by hand). */
export interface DeltaTimers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const REAL_DELTA_TIMERS: DeltaTimers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout | undefined),
};

/** One frame of the webview: the longest a delta waits for company. */
export const COALESCE_MS = 16;

export class DeltaCoalescer {
  private kind: DeltaKind | null = null;
  private messageId = "";
  private readonly parts: string[] = [];
  private timer: unknown = undefined;

  constructor(
    /** Records one merged run (an `assistant/text` or `assistant/thought` entry). */
    private readonly emit: (kind: DeltaKind, messageId: string, text: string) => void,
    private readonly timers: DeltaTimers = REAL_DELTA_TIMERS,
    private readonly delayMs = COALESCE_MS,
  ) {}

  /** Whether deltas wait to be recorded. */
  get pending(): boolean {
    return this.kind !== null;
  }

  add(kind: DeltaKind, messageId: string, text: string): void {
    if (!text) return;
    if (this.kind !== null && (this.kind !== kind || this.messageId !== messageId)) this.flush();
    if (this.kind === null) {
      this.kind = kind;
      this.messageId = messageId;
      this.timer = this.timers.set(() => {
        this.timer = undefined;
        this.flush();
      }, this.delayMs);
    }
    this.parts.push(text);
  }

  /** Records what waits now (a no-op when nothing does). */
  flush(): void {
    const kind = this.kind;
    if (kind === null) return;
    if (this.timer !== undefined) this.timers.clear(this.timer);
    this.timer = undefined;
    const text = this.parts.join("");
    this.kind = null;
    this.parts.length = 0;
    this.emit(kind, this.messageId, text);
  }
}
