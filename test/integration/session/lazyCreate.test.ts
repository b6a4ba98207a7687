// A session with a server-minted id gets its log file after session/new has answered (store.create
// with `lazy`): the answer never waits for the exclusive create, and nothing of I-88 or I-109 gives.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { LogWriteError } from "../../../agent-server/session/errors";
import { FileSessionStore } from "../../../agent-server/session/store";
import { header, lines } from "../../support/sessionLogs";

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("session store: a log created lazily", () => {
  let root: string;
  let dir: string;
  let store: FileSessionStore;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "manifold-lazy-"));
    dir = join(root, "data");
    store = new FileSessionStore(dir, join(root, "tmp"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("resolves before its file exists; what is appended meanwhile follows the header once it does", async () => {
    const log = await store.create(header("s1"), { lazy: true });
    assert.equal(existsSync(store.pathFor("s1")), false, "the file is made after the caller has answered");
    log.append({ type: "session/title", title: "early" });
    log.flush(); // no file yet: the line stays queued, no failure
    assert.equal(log.failure, null);
    assert.equal(log.unsaved, 1);
    await log.ready();
    assert.deepEqual(lines(store.pathFor("s1")), [header("s1"), { ...log.entries[0] }]);
    assert.equal(log.unsaved, 0);
    await log.checkpoint();
    await log.close();
  });

  it("list, readHeader and open wait for a file still being created (read-your-writes)", async () => {
    const log = await store.create(header("s2"), { lazy: true });
    const [listed, head] = await Promise.all([store.list(), store.readHeader("s2")]);
    assert.deepEqual(
      listed.map((s) => s.sessionId),
      ["s2"],
    );
    assert.deepEqual(head, header("s2"));
    await log.close();
    const again = await store.open("s2");
    assert.equal(again.id, "s2");
    await again.close();
  });

  it("I-88: an id whose file already exists is never overwritten; the log's checkpoint fails and says why", async () => {
    mkdirSync(dir, { recursive: true });
    const planted = JSON.stringify(header("taken")) + "\n" + '{"type":"session/title","title":"theirs","seq":1,"at":"x"}\n';
    writeFileSync(store.pathFor("taken"), planted);
    const log = await store.create(header("taken"), { lazy: true });
    const failures: LogWriteError[] = [];
    log.onWriteFailure((err) => failures.push(err));
    log.append({ type: "session/title", title: "ours" });
    await assert.rejects(log.checkpoint(), (err: unknown) => err instanceof LogWriteError && /already exists/.test(err.message));
    await assert.rejects(log.ready(), LogWriteError); // tried again, refused again
    assert.equal(failures.length, 1, "reported once per run of failures");
    assert.equal(readFileSync(store.pathFor("taken"), "utf8"), planted);
    assert.equal(log.unsaved, 1, "the line is held, not dropped (I-109)");
    await log.close().catch(() => undefined);
    assert.equal(readFileSync(store.pathFor("taken"), "utf8"), planted);
  });

  it("a creation that failed is tried again at the next checkpoint, which then saves everything", async () => {
    const log = await store.create(header("s3"), { lazy: true });
    // Before the creation runs (it starts in the next turn), the data dir becomes a file.
    rmSync(dir, { recursive: true, force: true });
    writeFileSync(dir, "not a directory");
    log.append({ type: "session/title", title: "held" });
    await turn();
    await assert.rejects(log.checkpoint(), LogWriteError);
    assert.ok(log.failure);
    rmSync(dir);
    mkdirSync(dir);
    await log.checkpoint();
    assert.equal(log.failure, null);
    assert.deepEqual(
      lines(store.pathFor("s3")).map((l) => l.type),
      ["header", "session/title"],
    );
    await log.close();
  });

  it("a log closed after its file could not be made never makes it later, even when asked", async () => {
    const log = await store.create(header("s6"), { lazy: true });
    rmSync(dir, { recursive: true, force: true });
    writeFileSync(dir, "not a directory");
    await assert.rejects(log.close(), LogWriteError);
    rmSync(dir);
    mkdirSync(dir);
    await assert.rejects(log.ready(), LogWriteError); // even when asked: closed is closed
    await turn();
    assert.equal(existsSync(store.pathFor("s6")), false);
  });

  it("after a failed write in the data dir, creations are made before the answer again until one succeeds", async () => {
    let full = false;
    const failing = new FileSessionStore(dir, join(root, "tmp"), (fd, buffer, offset, length) => {
      if (full) throw Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" });
      return writeSync(fd, buffer, offset, length);
    });
    const a = await failing.create(header("a"), { lazy: true });
    assert.equal(existsSync(failing.pathFor("a")), false);
    await a.ready();
    full = true;
    a.append({ type: "session/title", title: "lost?" });
    await assert.rejects(a.checkpoint(), LogWriteError);
    // Doubted: the next creation exists when create resolves, so session/new could fail at once.
    const b = await failing.create(header("b"), { lazy: true });
    assert.equal(existsSync(failing.pathFor("b")), true);
    full = false;
    await a.checkpoint();
    // That creation succeeded: trusted again, the next one is lazy.
    const c = await failing.create(header("c"), { lazy: true });
    assert.equal(existsSync(failing.pathFor("c")), false);
    await Promise.all([a.close(), b.close(), c.close()]);
  });

  it("a log closed before its file exists still gets its file, whole, and keeps no descriptor", async () => {
    const log = await store.create(header("s4"), { lazy: true });
    log.append({ type: "session/title", title: "last words" });
    await log.close();
    assert.deepEqual(
      lines(store.pathFor("s4")).map((l) => l.type),
      ["header", "session/title"],
    );
    const fds = readdirSync("/proc/self/fd").length;
    const other = await store.create(header("s5"), { lazy: true });
    await other.close();
    assert.equal(readdirSync("/proc/self/fd").length, fds);
  });
});
