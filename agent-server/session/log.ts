// One open session log: the immutable header, the in-memory entries, and an append path that is
// cheap (lines batched for up to FLUSH_MS) and durable at checkpoints (fsync at each turn end).
//
// Rules (I-109): an entry gets its seq only once its line exists (serialisation cannot fail
// later); lines are written in seq order and never dropped — a failed write keeps them queued,
// reports the failure at once (`onWriteFailure`) and at every checkpoint until a write succeeds,
// so the file is always a gap-free prefix of the entries. Lines reach the kernel when the flush
// timer fires, when the agent calls `flush()` before it talks to the outside world (a model
// request, a tool call), and at every checkpoint and close; so a crash loses at most the last
// FLUSH_MS of a running turn, never a completed turn (I-86) nor a tool call that ran.
//
// What the client sees of it: a turn whose lines could not be written or synced answers an internal
// error ending in "not saved: <reason>", never a success, and the session goes on once a write
// succeeds. Only a power loss or kernel crash can lose what followed the last turn end's fsync; a
// data dir deleted under a live session loses what that session appends after the deletion.
import { LogWriteError, UnserializableEventError } from "./errors";
import type { LogEntry, SessionEvent, SessionHeader } from "./events";

/** The longest a line waits in memory before it is handed to the kernel. */
export const FLUSH_MS = 50;

/** Where the lines go. Writes are whole lines or nothing (FileSink); tests may fail it. */
export interface LogSink {
  write(text: string): void;
  sync(): Promise<void>;
  close(): Promise<void>;
  /** A sink whose file is still being created (OpeningSink): false until `ready` has resolved. */
  readonly isOpen?: boolean;
  /** Resolves once the sink takes writes; a failed creation rejects and is tried again on the next call. */
  ready?(): Promise<void>;
}

export class SessionLog {
  /** Serialised lines not yet written, in seq order. */
  private readonly pending: string[] = [];
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private failureValue: LogWriteError | null = null;
  /** The listener heard of the current run of failures (reset by a write that succeeds). */
  private reported = false;
  private failureListener: ((err: LogWriteError) => void) | null = null;

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

  /** The last write or sync failure, until a later write and sync succeed. */
  get failure(): LogWriteError | null {
    return this.failureValue;
  }

  /** Lines appended but not yet written (held while writes fail). */
  get unsaved(): number {
    return this.pending.length;
  }

  /** Called at a failure (not again until a write has succeeded in between). */
  onWriteFailure(listener: ((err: LogWriteError) => void) | null): void {
    this.failureListener = listener;
  }

  /** Throws UnserializableEventError (nothing recorded) when the event cannot become a line. */
  append(event: SessionEvent): LogEntry {
    if (this.closed) throw new Error(`session ${this.id}: log is closed`);
    const entry = { ...event, seq: this.lastSeq + 1, at: new Date().toISOString() } as LogEntry;
    let line: string;
    try {
      line = JSON.stringify(entry) + "\n";
    } catch (err) {
      throw new UnserializableEventError(this.id, event.type, err);
    }
    this.entryList.push(entry);
    this.pending.push(line);
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.writePending();
    }, FLUSH_MS);
    return entry;
  }

  /** Writes queued lines now (no fsync): called before the agent talks to the outside world. */
  flush(): void {
    this.writePending();
  }

  /**
   * Resolves once the file exists: at once, except for a log created lazily whose file is still being
   * created. A creation that failed is tried again and, if it fails again, throws LogWriteError.
   */
  async ready(): Promise<void> {
    if (this.sink.isOpen !== false) return;
    try {
      await this.sink.ready!();
    } catch (err) {
      throw this.fail(err);
    }
    this.writePending(); // what was appended meanwhile
  }

  private writePending(): boolean {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.pending.length === 0) return true;
    if (this.closed) return false;
    // Not created yet: the lines stay queued; `ready` writes them, or reports why it could not.
    if (this.sink.isOpen === false) return false;
    try {
      this.sink.write(this.pending.join(""));
    } catch (err) {
      this.fail(err);
      return false;
    }
    this.pending.length = 0;
    this.reported = false;
    return true;
  }

  private fail(cause: unknown): LogWriteError {
    const err = cause instanceof LogWriteError ? cause : new LogWriteError(this.id, cause);
    this.failureValue = err;
    if (!this.reported) {
      this.reported = true;
      console.error(`[session] ${err.message}`);
      this.failureListener?.(err);
    }
    return err;
  }

  /** Turn checkpoint: resolves once everything appended so far is on disk; else throws LogWriteError. */
  async checkpoint(): Promise<void> {
    await this.ready();
    if (!this.writePending()) throw this.failureValue!;
    try {
      await this.sink.sync();
    } catch (err) {
      throw this.fail(err);
    }
    // Only a sync with nothing left queued ends a failure (lines appended meanwhile are the next checkpoint's).
    if (this.pending.length === 0) this.failureValue = null;
  }

  /** Final checkpoint, then the descriptor is closed whatever happened (unsaved lines are reported). */
  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.checkpoint();
    } finally {
      this.closed = true;
      this.failureListener = null;
      await this.sink.close();
    }
  }
}
