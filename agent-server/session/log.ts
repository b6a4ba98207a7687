// One open session log: the immutable header, the in-memory entries, and an append path that is
// cheap (lines batched per event-loop turn) and durable at checkpoints (fsync at each turn end).
import type { LogEntry, SessionEvent, SessionHeader } from "./events";

/** Where the lines go. The file sink writes to an `O_APPEND` descriptor; tests may gate or fail it. */
export interface LogSink {
  write(text: string): void;
  sync(): Promise<void>;
  close(): Promise<void>;
}

export type EntryListener = (entry: LogEntry) => void;

export class SessionLog {
  private readonly pending: string[] = [];
  private scheduled: NodeJS.Immediate | null = null;
  private closed = false;
  private writeError: unknown = null;

  constructor(
    readonly header: Readonly<SessionHeader>,
    private readonly entryList: LogEntry[],
    private readonly sink: LogSink,
  ) {}

  /** The session id is the header's id; there is no second copy of it. */
  get id(): string {
    return this.header.id;
  }

  get entries(): readonly LogEntry[] {
    return this.entryList;
  }

  get lastSeq(): number {
    return this.entryList.length === 0 ? 0 : this.entryList[this.entryList.length - 1]!.seq;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  append(event: SessionEvent): LogEntry {
    if (this.closed) throw new Error(`session ${this.id}: log is closed`);
    const entry = { ...event, seq: this.lastSeq + 1, at: new Date().toISOString() } as LogEntry;
    this.entryList.push(entry);
    this.pending.push(JSON.stringify(entry) + "\n");
    this.scheduled ??= setImmediate(() => this.writePending());
    return entry;
  }

  /** Writes buffered lines now (no fsync): called before the agent talks to the outside world. */
  flush(): void {
    this.writePending();
  }

  private writePending(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = null;
    if (this.pending.length === 0) return;
    const text = this.pending.join("");
    this.pending.length = 0;
    try {
      this.sink.write(text);
    } catch (err) {
      this.writeError ??= err;
      console.error(`[session] ${this.id}: write failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** Turn checkpoint: everything appended so far is on disk when this resolves. */
  async checkpoint(): Promise<void> {
    this.writePending();
    if (this.writeError) {
      const err = this.writeError;
      this.writeError = null;
      throw err;
    }
    await this.sink.sync();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.checkpoint();
    } finally {
      this.closed = true;
      await this.sink.close();
    }
  }
}
