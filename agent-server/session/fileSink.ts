// The file end of a session log: an O_APPEND descriptor that only ever holds whole lines (I-109).
// A write is retried until every byte is down (write(2) may write less than asked, e.g. as a disk
// fills); if it fails part-way, the file is cut back to its last whole line before the error is
// thrown, so a later append never lands after a torn fragment.
// A log created lazily (a server-minted id) writes through an OpeningSink: its file is created on the
// thread pool once the session/new answer has left, and the log holds its lines until it exists.
import { close, fstat, fsync, ftruncateSync, writeSync } from "node:fs";
import type { LogSink } from "./log";

/** `fs.writeSync(fd, buffer, offset, length)`; replaceable so tests can simulate short writes. */
export type WriteFn = (fd: number, buffer: Buffer, offset: number, length: number) => number;

const realWrite: WriteFn = (fd, buffer, offset, length) => writeSync(fd, buffer, offset, length);

function errno(code: string, message: string): Error {
  return Object.assign(new Error(`${code}: ${message}`), { code });
}

export class FileSink implements LogSink {
  private fd: number | null;
  /** Bytes of whole lines in the file: where a failed write is cut back to. */
  private size: number;
  /** Set when a cut-back itself failed: the next write retries it first. */
  private torn = false;

  constructor(
    fd: number,
    size: number,
    private readonly writeFn: WriteFn = realWrite,
  ) {
    this.fd = fd;
    this.size = size;
  }

  write(text: string): void {
    const fd = this.fd;
    if (fd === null) throw new Error("log file is closed");
    if (this.torn) {
      ftruncateSync(fd, this.size);
      this.torn = false;
    }
    const buf = Buffer.from(text, "utf8");
    let done = 0;
    try {
      while (done < buf.length) {
        const n = this.writeFn(fd, buf, done, buf.length - done);
        if (n <= 0) throw errno("ENOSPC", "the write made no progress");
        done += n;
      }
    } catch (err) {
      if (done > 0) {
        try {
          ftruncateSync(fd, this.size);
        } catch {
          this.torn = true;
        }
      }
      throw err;
    }
    this.size += buf.length;
  }

  async sync(): Promise<void> {
    const fd = this.fd;
    if (fd === null) return;
    await new Promise<void>((resolve, reject) => fsync(fd, (err) => (err ? reject(err) : resolve())));
    // A log whose file was removed (the data dir vanished) accepts writes and syncs into nothing.
    const links = await new Promise<number>((resolve, reject) => fstat(fd, (err, st) => (err ? reject(err) : resolve(st.nlink))));
    if (links === 0) throw errno("ENOENT", "the session file was removed from the data dir");
  }

  async close(): Promise<void> {
    const fd = this.fd;
    if (fd === null) return;
    this.fd = null;
    await new Promise<void>((resolve) => close(fd, () => resolve()));
  }
}

/**
 * A FileSink whose file is still being created (`openFile`, started at once). Until it exists,
 * `isOpen` is false and the log keeps its lines queued (log.ts waits on `ready`); a creation that
 * failed is tried again at the next `ready`, so a data dir that comes back lets the session go on.
 */
export class OpeningSink implements LogSink {
  private inner: FileSink | null = null;
  private opening: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly openFile: () => Promise<number>,
    private readonly size: number,
    private readonly writeFn?: WriteFn,
  ) {}

  get isOpen(): boolean {
    return this.inner !== null;
  }

  ready(): Promise<void> {
    if (this.inner) return Promise.resolve();
    // Closed before its file was made: no file is made after that (and no descriptor leaks).
    if (this.closed && !this.opening) return Promise.reject(new Error("the log is closed"));
    this.opening ??= this.openFile().then(
      (fd) => {
        this.inner = new FileSink(fd, this.size, this.writeFn);
      },
      (err: unknown) => {
        this.opening = null;
        throw err;
      },
    );
    return this.opening;
  }

  write(text: string): void {
    if (!this.inner) throw new Error("the log file is not created yet");
    this.inner.write(text);
  }

  async sync(): Promise<void> {
    await this.ready();
    await this.inner!.sync();
  }

  async close(): Promise<void> {
    this.closed = true;
    // A creation still running is waited for, so its descriptor is closed too.
    if (!this.inner && this.opening) await this.opening.catch(() => undefined);
    await this.inner?.close();
  }
}
