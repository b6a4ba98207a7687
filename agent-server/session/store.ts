// The JSONL session store: one file per session under the data dir, exclusive first create (I-88),
// injective file names (I-75), recovery on open (I-87), version check (I-89).
import { closeSync, constants, open as openCb, openSync, writeSync } from "node:fs";
import { mkdir, open, readdir, rm, stat, truncate, type FileHandle } from "node:fs/promises";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CorruptSessionError, SessionExistsError, SessionNotFoundError } from "./errors";
import type { LogEntry, SessionHeader } from "./events";
import { escapeSessionId, logFileName, LOG_SUFFIX, unescapeSessionId } from "./fileName";
import { FileSink, OpeningSink, type WriteFn } from "./fileSink";
import { SessionLog } from "./log";
import { logError } from "../../base/errors";
import { LogParser, parseLog, RecoveryState, recoveryEvents, type ParsedLog } from "./parse";

export interface SessionSummary {
  sessionId: string;
  cwd: string;
  title?: string;
  updatedAt: string;
  parent?: string;
  /** The label of the agent profile it started from. */
  profile?: string;
}

export interface CreateOptions {
  lazy?: boolean;
}

export interface SessionStore {
  /**
   * Exclusive first materialization: fails with SessionExistsError if the id exists (I-88). `lazy`
   * resolves before the file exists (for a server-minted id): a collision or a failure to create it
   * is then the log's write failure, and its lines wait in memory until the file exists.
   */
  create(header: SessionHeader, opts?: CreateOptions): Promise<SessionLog>;
  /** Opens and recovers an existing log. SessionNotFoundError / CorruptSessionError / UnsupportedVersionError. */
  open(id: string): Promise<SessionLog>;
  /** Reads the header only (no recovery, no descriptor kept). */
  readHeader(id: string): Promise<SessionHeader>;
  /**
   * Reads the whole log with open's checks, handing each entry to `sink` instead of keeping it (no
   * recovery, no descriptor kept): a replay can start before the log is open. `recovers`: open would
   * append recovery events (I-87), which the entries seen here lack.
   */
  scan(id: string, sink: (entry: LogEntry) => void): Promise<{ header: SessionHeader; recovers: boolean }>;
  list(): Promise<SessionSummary[]>;
  /** Removes the log and the session's temp area. Unknown ids succeed quietly. */
  delete(id: string): Promise<void>;
  /** The session's private temp area (created on demand by the caller). */
  tmpDirFor(id: string): string;
}

/** Exclusive first create (I-88), append-only from the start: the header and every later line go through one descriptor. */
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_APPEND;

/** On the thread pool: a slow disk delays this session's file, never the event loop the others share. */
function openExclusive(path: string): Promise<number> {
  return new Promise((resolve, reject) => openCb(path, CREATE_FLAGS, 0o600, (err, fd) => (err ? reject(err) : resolve(fd))));
}

function isErrno(err: unknown, code: string): boolean {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === code;
}

export class FileSessionStore implements SessionStore {
  private ready: Promise<void> | null = null;
  /** Lazily created files not yet settled, by id. */
  private readonly creating = new Map<string, Promise<void>>();
  /**
   * A write, create or open in the data dir failed since the last create that succeeded (a full
   * disk, a read-only mount): creations are made before the answer again, so session/new fails at
   * once and says why, until one succeeds.
   */
  private doubted = false;
  private readonly writeFn: WriteFn;

  /** Temp areas live outside the data dir (the sandbox hides the data dir from commands). */
  readonly tmpBase: string;

  constructor(
    readonly dataDir: string,
    tmpBase?: string,
    /** How log lines are written (tests simulate a full disk at a chosen moment). */
    writeFn: WriteFn = (fd, buffer, offset, length) => writeSync(fd, buffer, offset, length),
  ) {
    // Every log line goes through here: a failed write puts creations back before the answer.
    this.writeFn = (fd, buffer, offset, length) => {
      try {
        const n = writeFn(fd, buffer, offset, length);
        if (n <= 0) this.doubted = true;
        return n;
      } catch (err) {
        this.doubted = true;
        throw err;
      }
    };
    this.tmpBase = tmpBase ?? join(tmpdir(), `manifold-tmp-${createHash("sha256").update(dataDir).digest("hex").slice(0, 12)}`);
  }

  private ensureDir(): Promise<void> {
    this.ready ??= mkdir(this.dataDir, { recursive: true }).then(() => undefined);
    return this.ready;
  }

  pathFor(id: string): string {
    return join(this.dataDir, logFileName(id));
  }

  tmpDirFor(id: string): string {
    return join(this.tmpBase, escapeSessionId(id));
  }

  async create(header: SessionHeader, opts: CreateOptions = {}): Promise<SessionLog> {
    await this.ensureDir();
    const headerLine = Buffer.from(JSON.stringify(header) + "\n", "utf8");
    const sink = new OpeningSink(() => this.createFile(header.id, headerLine), headerLine.length, this.writeFn);
    if (!opts.lazy || this.doubted) {
      await sink.ready();
      this.doubted = false;
      return new SessionLog(header, [], sink);
    }
    const log = new SessionLog(header, [], sink);
    // The file is made in the next turn, once the answer has left (batchedOutput writes a turn's
    // first line at once), on the thread pool; a failure is the log's to report (its next checkpoint
    // tries again). Until it settles, list, open, readHeader and delete of this id wait for it.
    const settled = new Promise<void>((resolve) => setImmediate(() => void log.ready().then(resolve, () => resolve())));
    this.creating.set(header.id, settled);
    void settled.then(() => {
      if (this.creating.get(header.id) === settled) this.creating.delete(header.id);
    });
    return log;
  }

  /** The exclusive create (I-88) and the header, off the event loop; the descriptor the log appends through. */
  private async createFile(id: string, headerLine: Buffer): Promise<number> {
    try {
      return await this.createFileOnce(id, headerLine);
    } catch (err) {
      if (!(err instanceof SessionExistsError)) this.doubted = true;
      throw err;
    }
  }

  private async createFileOnce(id: string, headerLine: Buffer): Promise<number> {
    const path = this.pathFor(id);
    const create = (): Promise<number> =>
      openExclusive(path).catch((err: unknown) => {
        throw isErrno(err, "EEXIST") ? new SessionExistsError(id) : err;
      });
    let fd: number;
    try {
      fd = await create();
    } catch (err) {
      if (!isErrno(err, "ENOENT")) throw err;
      // The data dir vanished under us: make it again, once.
      this.ready = null;
      await this.ensureDir();
      fd = await create();
    }
    try {
      // No fsync here: a session with no completed turn has nothing to lose; the first turn checkpoint syncs.
      let done = 0;
      while (done < headerLine.length) done += writeSync(fd, headerLine, done, headerLine.length - done);
    } catch (err) {
      closeSync(fd);
      // A header that could not be written whole is no session: remove it, so the id is not wedged.
      await rm(path, { force: true }).catch(logError(console.error, `[session] removing the torn header of ${id}`));
      throw err;
    }
    return fd;
  }

  /** Resolves once a lazily created file of `id` exists or failed to (at once when none is being created). */
  private async created(id?: string): Promise<void> {
    if (id !== undefined) await this.creating.get(id);
    else if (this.creating.size > 0) await Promise.all(this.creating.values());
  }

  async open(id: string): Promise<SessionLog> {
    await this.created(id);
    const path = this.pathFor(id);
    const parsed = await readLog(id, path);
    let fd: number;
    try {
      if (parsed.torn) await truncate(path, parsed.goodLength);
      fd = openSync(path, "a");
    } catch (err) {
      this.doubted = true;
      throw err;
    }
    const log = new SessionLog(parsed.header, parsed.entries, new FileSink(fd, parsed.goodLength, this.writeFn));
    const fixes = recoveryEvents(parsed.entries);
    if (fixes.length > 0) {
      try {
        for (const ev of fixes) log.append(ev);
        await log.checkpoint();
      } catch (err) {
        // Not loadable now (e.g. a full disk): the file keeps its whole lines, the descriptor is closed.
        await log.close().catch(logError(console.error, `[session] closing ${id} after a failed recovery`));
        throw err;
      }
    }
    return log;
  }

  async scan(id: string, sink: (entry: LogEntry) => void): Promise<{ header: SessionHeader; recovers: boolean }> {
    await this.created(id);
    const recovery = new RecoveryState();
    const parsed = await readLog(id, this.pathFor(id), (entry) => {
      recovery.add(entry);
      sink(entry);
    });
    return { header: parsed.header, recovers: recovery.events().length > 0 };
  }

  async readHeader(id: string): Promise<SessionHeader> {
    await this.created(id);
    const text = await readPrefix(id, this.pathFor(id));
    const nl = text.indexOf("\n");
    return parseLog(id, nl === -1 ? text : text.slice(0, nl)).header;
  }

  async list(): Promise<SessionSummary[]> {
    await this.ensureDir();
    await this.created();
    const names = (await readdir(this.dataDir)).filter((n) => n.endsWith(LOG_SUFFIX));
    const out: SessionSummary[] = [];
    await Promise.all(
      names.map(async (name) => {
        let id: string;
        try {
          id = unescapeSessionId(name.slice(0, -LOG_SUFFIX.length));
        } catch {
          return;
        }
        const summary = await this.summarize(id).catch(() => null);
        if (summary) out.push(summary);
      }),
    );
    return out;
  }

  private async summarize(id: string): Promise<SessionSummary> {
    const path = this.pathFor(id);
    const [st, head] = await Promise.all([stat(path), readPrefix(id, path)]);
    const lines = head.split("\n");
    const header = parseLog(id, lines[0] ?? "").header;
    let title: string | undefined;
    for (const line of lines.slice(1)) {
      if (!line.includes('"session/title"')) continue;
      try {
        const ev = JSON.parse(line) as Partial<LogEntry>;
        if (ev.type === "session/title" && typeof ev.title === "string") {
          title = ev.title;
          break;
        }
      } catch {
        break;
      }
    }
    const summary: SessionSummary = { sessionId: id, cwd: header.cwd, updatedAt: st.mtime.toISOString() };
    if (title !== undefined) summary.title = title;
    if (header.parent !== undefined) summary.parent = header.parent;
    if (header.profile !== undefined) summary.profile = header.profile.id;
    return summary;
  }

  async delete(id: string): Promise<void> {
    await this.created(id);
    await rm(this.pathFor(id), { force: true });
    await rm(this.tmpDirFor(id), { recursive: true, force: true });
  }
}

/** The log of `id`, opened to read; SessionNotFoundError when it is not there. */
async function openForReading(id: string, path: string): Promise<FileHandle> {
  try {
    return await open(path, "r");
  } catch (err) {
    if (isErrno(err, "ENOENT")) throw new SessionNotFoundError(id);
    throw err;
  }
}

/** Bytes a log is read in: one buffer, reused (a log is never in memory whole; each read is a thread-pool job). */
const READ_CHUNK = 512 * 1024;

/** Reads and parses a log file chunk by chunk (LogParser; its entries go to `sink` when given). */
async function readLog(id: string, path: string, sink?: (entry: LogEntry) => void): Promise<ParsedLog> {
  const handle = await openForReading(id, path);
  try {
    const parser = new LogParser(id, sink);
    const buf = Buffer.allocUnsafe(READ_CHUNK);
    let total = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, READ_CHUNK, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      parser.push(buf.subarray(0, bytesRead));
    }
    if (total === 0) throw new CorruptSessionError(id, "the file is empty");
    return parser.end();
  } finally {
    await handle.close();
  }
}

/** What a log's header and title are read from: its first bytes. */
const PREFIX_BYTES = 64 * 1024;

/** The first PREFIX_BYTES of the log of `id`, as text. */
async function readPrefix(id: string, path: string): Promise<string> {
  const handle = await openForReading(id, path);
  try {
    const buf = Buffer.alloc(PREFIX_BYTES);
    const { bytesRead } = await handle.read(buf, 0, PREFIX_BYTES, 0);
    return buf.subarray(0, bytesRead).toString("utf8");
  } finally {
    await handle.close();
  }
}
