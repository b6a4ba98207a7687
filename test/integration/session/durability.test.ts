// I-109 (in-process): a session log never holds a torn line or a sequence gap, whatever fails —
// serialisation, a short write, a failed write, a failed sync — and a failure is reported, not swallowed.
import assert from "node:assert/strict";
import { mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { SessionEvent } from "../../../agent-server/session/events";
import { FLUSH_MS, SessionLog, type LogSink } from "../../../agent-server/session/log";
import { LogWriteError, UnserializableEventError } from "../../../agent-server/session/errors";
import { FileSink, type WriteFn } from "../../../agent-server/session/fileSink";
import { FileSessionStore } from "../../../agent-server/session/store";
import { header } from "../../support/sessionLogs";

function deepObject(depth: number): Record<string, unknown> {
  let v: Record<string, unknown> = {};
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

const text = (t: string): SessionEvent => ({ type: "assistant/text", messageId: "m", text: t });

/** An in-memory sink that can be told to fail, or to write only part of a batch and then fail. */
class FaultySink implements LogSink {
  data = "";
  failWrites = false;
  /** Bytes the next write may still put down before it fails (a short write). */
  shortBy: number | null = null;
  failSync = false;
  write(t: string): void {
    if (this.shortBy !== null) {
      this.data += t.slice(0, this.shortBy);
      this.shortBy = null;
      throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
    }
    if (this.failWrites) throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
    this.data += t;
  }
  async sync(): Promise<void> {
    if (this.failSync) throw Object.assign(new Error("EIO: i/o error, fsync"), { code: "EIO" });
  }
  async close(): Promise<void> {}
}

/** Records what the log asked of it, in order. */
class CountingSink implements LogSink {
  data = "";
  writes = 0;
  readonly events: string[] = [];
  write(t: string): void {
    this.writes++;
    this.data += t;
    this.events.push(`write:${seqs(t).join(",")}`);
  }
  async sync(): Promise<void> {
    this.events.push("sync");
  }
  async close(): Promise<void> {
    this.events.push("close");
  }
}

function seqs(data: string): number[] {
  return data
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => (JSON.parse(l) as { seq: number }).seq);
}

describe("I-109: session log durability (in-process)", () => {
  let root: string;
  let store: FileSessionStore;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "manifold-durability-"));
    store = new FileSessionStore(join(root, "data"), join(root, "tmp"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("I-109: an event that cannot be serialised takes no seq and leaves no trace; the log reloads", async () => {
    const log = await store.create(header("s"));
    log.append(text("one"));
    const before = log.entries.length;
    assert.throws(
      () => log.append({ type: "user/message", messageId: "u", content: [{ type: "text", text: "x", _meta: deepObject(20_000) }] }),
      (e: unknown) => e instanceof UnserializableEventError,
    );
    assert.equal(log.entries.length, before, "nothing entered memory");
    log.append(text("two"));
    await log.checkpoint();
    await log.close();
    const again = await store.open("s");
    assert.deepEqual(
      again.entries.map((e) => e.seq),
      [1, 2],
    );
    await again.close();
  });

  it("I-109: a failed write keeps its lines and reports; once writes succeed again the file has no gap", async () => {
    const sink = new FaultySink();
    const log = new SessionLog(header("s"), [], sink);
    log.append(text("a"));
    log.flush();
    sink.failWrites = true;
    log.append(text("b"));
    log.append(text("c"));
    log.flush();
    assert.ok(log.failure instanceof LogWriteError, "the failure is visible at once");
    await assert.rejects(log.checkpoint(), LogWriteError);
    assert.deepEqual(seqs(sink.data), [1]);
    sink.failWrites = false;
    log.append(text("d"));
    await log.checkpoint();
    assert.equal(log.failure, null);
    assert.deepEqual(seqs(sink.data), [1, 2, 3, 4]);
  });

  it("I-109: a short write never leaves a torn line in a real file: it is cut back to the last whole line", async () => {
    await (await store.create(header("s"))).close();
    const path = store.pathFor("s");
    const size = statSync(path).size;
    // write(2) puts down part of the batch, then the disk is full: what a filling disk does.
    let shortNext = false;
    let full = false;
    const write: WriteFn = (fd, buf, off, len) => {
      if (full) {
        throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
      }
      if (!shortNext) return writeSync(fd, buf, off, len);
      shortNext = false;
      full = true;
      return writeSync(fd, buf, off, 10);
    };
    const write2: WriteFn = (fd, buf, off, len) => {
      // The second attempt is short without an error first: the loop must finish the line.
      return writeSync(fd, buf, off, Math.min(len, 7));
    };
    let mode: "short-fail" | "short-ok" = "short-fail";
    const sink = new FileSink(openSync(path, "a"), size, (fd, buf, off, len) =>
      mode === "short-fail" ? write(fd, buf, off, len) : write2(fd, buf, off, len),
    );
    const log = new SessionLog(header("s"), [], sink);
    log.append(text("whole"));
    await log.checkpoint();
    const whole = statSync(path).size;
    shortNext = true;
    log.append(text("torn-".repeat(50)));
    await assert.rejects(log.checkpoint(), LogWriteError);
    assert.equal(statSync(path).size, whole, "the torn tail was truncated away");
    full = false; // the disk has room again
    mode = "short-ok";
    log.append(text("after"));
    await log.checkpoint();
    await log.close();
    const lines = readFileSync(path, "utf8").split("\n").filter(Boolean);
    assert.deepEqual(
      lines.slice(1).map((l) => (JSON.parse(l) as { seq: number }).seq),
      [1, 2, 3],
    );
    const again = await store.open("s");
    assert.deepEqual(
      again.entries.map((e) => (e.type === "assistant/text" ? e.text.slice(0, 5) : e.type)),
      ["whole", "torn-", "after"],
    );
    await again.close();
  });

  it("I-109: a failed sync is reported by the checkpoint, and the next checkpoint retries it", async () => {
    const sink = new FaultySink();
    const log = new SessionLog(header("s"), [], sink);
    log.append(text("a"));
    sink.failSync = true;
    await assert.rejects(log.checkpoint(), LogWriteError);
    sink.failSync = false;
    await log.checkpoint();
    assert.equal(log.failure, null);
  });

  it("lines are batched on the flush timer: none is written per append, all of them in one write when it fires", (t) => {
    t.mock.timers.enable({ apis: ["setTimeout"] });
    const sink = new CountingSink();
    const log = new SessionLog(header("s"), [], sink);
    log.append(text("a"));
    log.append(text("b"));
    log.append(text("c"));
    assert.equal(sink.writes, 0, "nothing per append");
    t.mock.timers.tick(FLUSH_MS - 1);
    assert.equal(sink.writes, 0);
    t.mock.timers.tick(1);
    assert.deepEqual([sink.writes, seqs(sink.data)], [1, [1, 2, 3]]);
  });

  it("I-86: the flush timer loses no line at a turn checkpoint or at close: both write what waits, before the sync, and disarm it", async (t) => {
    t.mock.timers.enable({ apis: ["setTimeout"] });
    const sink = new CountingSink();
    const log = new SessionLog(header("s"), [], sink);
    log.append(text("turn"));
    log.append({ type: "turn/end", turnId: "t", reason: "end_turn" });
    await log.checkpoint(); // the timer has not fired
    assert.deepEqual(sink.events, ["write:1,2", "sync"]);
    log.append(text("late"));
    await log.close();
    assert.deepEqual(sink.events, ["write:1,2", "sync", "write:3", "sync", "close"]);
    t.mock.timers.tick(FLUSH_MS); // a timer left armed would write after close
    assert.equal(sink.events.length, 5);
  });

  it("flush() writes at once (before a model request or a tool runs), whatever the timer", (t) => {
    t.mock.timers.enable({ apis: ["setTimeout"] });
    const sink = new CountingSink();
    const log = new SessionLog(header("s"), [], sink);
    log.append(text("before the request"));
    log.flush();
    assert.deepEqual(seqs(sink.data), [1]);
    t.mock.timers.tick(FLUSH_MS);
    assert.equal(sink.writes, 1, "the timer found nothing left to write");
  });
});
