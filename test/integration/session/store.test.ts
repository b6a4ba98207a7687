import assert from "node:assert/strict";
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import {
  CorruptSessionError,
  SessionExistsError,
  SessionNotFoundError,
  UnsupportedVersionError,
} from "../../../agent-server/session/errors";
import { LOG_FORMAT_VERSION } from "../../../agent-server/session/events";
import { escapeSessionId, resolveDataDir } from "../../../agent-server/session/fileName";
import { FileSessionStore } from "../../../agent-server/session/store";
import { header, lines } from "../../support/sessionLogs";

describe("session store", () => {
  let root: string;
  let dir: string;
  let store: FileSessionStore;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "manifold-store-"));
    dir = join(root, "data");
    store = new FileSessionStore(dir, join(root, "tmp"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("appends events with contiguous seq after the header and reads them back", async () => {
    const log = await store.create(header("s1"));
    log.append({ type: "turn/start", turnId: "t1", messageId: "m1", source: "user" });
    log.append({ type: "assistant/text", messageId: "a1", text: "hi" });
    log.append({ type: "turn/end", turnId: "t1", reason: "end_turn" });
    await log.close();
    const raw = lines(store.pathFor("s1"));
    assert.deepEqual(raw[0], header("s1"));
    assert.deepEqual(
      raw.slice(1).map((e) => e.seq),
      [1, 2, 3],
    );
    const again = await store.open("s1");
    assert.deepEqual(
      again.entries.map((e) => [e.seq, e.type]),
      [
        [1, "turn/start"],
        [2, "assistant/text"],
        [3, "turn/end"],
      ],
    );
    await again.close();
  });

  it("I-88: racing first creates of one id: exactly one wins and the committed log is not overwritten", async () => {
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => store.create(header("same"))));
    const won = results.filter((r) => r.status === "fulfilled");
    assert.equal(won.length, 1);
    for (const r of results) if (r.status === "rejected") assert.ok(r.reason instanceof SessionExistsError);
    const log = (won[0] as PromiseFulfilledResult<Awaited<ReturnType<FileSessionStore["create"]>>>).value;
    log.append({ type: "session/title", title: "kept" });
    await log.close();
    await assert.rejects(store.create(header("same", "/w/other")), SessionExistsError);
    const raw = lines(store.pathFor("same"));
    assert.equal(raw.length, 2);
    assert.equal(raw[0]!.cwd, "/w/a");
  });

  it("I-75: ids are escaped injectively and never leave the data dir", async () => {
    const ids = ["../../etc/x", "a/b", "a%2Fb", "a.b", "..", ".", "a b", "ä", "%", "a_b", "a-b", "Label-session-x", "label-session-x"];
    const names = ids.map(escapeSessionId);
    assert.equal(new Set(names).size, ids.length);
    // Distinct even where the file system folds case.
    assert.equal(new Set(names.map((n) => n.toLowerCase())).size, ids.length);
    for (const n of names) assert.match(n, /^[A-Za-z0-9_%-]+$/);
    for (const id of ids) {
      const log = await store.create(header(id));
      await log.close();
    }
    assert.equal(readdirSync(dir).length, ids.length);
    assert.equal(existsSync(join(root, "etc")), false);
    assert.deepEqual((await store.list()).map((s) => s.sessionId).sort(), [...ids].sort());
    const again = await store.open("../../etc/x");
    assert.equal(again.id, "../../etc/x");
    await again.close();
  });

  it("I-87: a log cut mid-turn loads with unanswered tool calls balanced and the turn closed `interrupted`", async () => {
    const log = await store.create(header("crash"));
    log.append({ type: "turn/start", turnId: "t1", messageId: "m1", source: "user" });
    log.append({ type: "user/message", messageId: "m1", content: [{ type: "text", text: "go" }] });
    log.append({ type: "tool/call", toolCallId: "c1", name: "bash", input: {}, title: "bash", kind: "execute" });
    log.append({ type: "tool/call", toolCallId: "c2", name: "bash", input: {}, title: "bash", kind: "execute" });
    log.append({ type: "tool/result", toolCallId: "c2", status: "completed", output: "ok", isError: false });
    await log.checkpoint();
    await log.close();
    appendFileSync(store.pathFor("crash"), '{"type":"assistant/text","messageId":"x","te'); // torn write
    const opened = await store.open("crash");
    const tail = opened.entries.slice(-2).map(({ at: _at, ...e }) => e);
    assert.deepEqual(tail, [
      {
        type: "tool/result",
        toolCallId: "c1",
        status: "failed",
        output: "The agent stopped before this tool call finished; its outcome is unknown.",
        isError: true,
        seq: 6,
      },
      { type: "turn/end", turnId: "t1", reason: "interrupted", seq: 7 },
    ]);
    await opened.close();
    // The recovery is durable and the file is well-formed again.
    const raw = lines(store.pathFor("crash"));
    assert.deepEqual(
      raw.slice(1).map((e) => e.seq),
      [1, 2, 3, 4, 5, 6, 7],
    );
    const reopened = await store.open("crash");
    assert.equal(reopened.entries.length, 7);
    await reopened.close();
  });

  it("I-89: an unknown format version is refused on load", async () => {
    await (await store.create(header("v"))).close();
    const path = store.pathFor("v");
    const text = readFileSync(path, "utf8").replace(`"version":${LOG_FORMAT_VERSION}`, '"version":99');
    writeFileSync(path, text);
    await assert.rejects(store.open("v"), UnsupportedVersionError);
    await assert.rejects(store.readHeader("v"), UnsupportedVersionError);
  });

  it("I-89: a header naming another id, or a corrupt header, is refused; a missing id is not found", async () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(store.pathFor("x"), JSON.stringify(header("y")) + "\n", { flag: "w" });
    await assert.rejects(store.open("x"), CorruptSessionError);
    writeFileSync(store.pathFor("z"), '{"type":"hea');
    await assert.rejects(store.open("z"), CorruptSessionError);
    await assert.rejects(store.open("nope"), SessionNotFoundError);
  });

  it("a corrupt line in the middle is an error, not silently dropped", async () => {
    const log = await store.create(header("mid"));
    log.append({ type: "session/title", title: "a" });
    log.append({ type: "session/title", title: "b" });
    await log.close();
    const path = store.pathFor("mid");
    const parts = readFileSync(path, "utf8").split("\n");
    parts[1] = "garbage";
    writeFileSync(path, parts.join("\n"));
    await assert.rejects(store.open("mid"), CorruptSessionError);
  });

  it("delete removes the log and the temp area; unknown ids succeed quietly", async () => {
    await (await store.create(header("d"))).close(); // closed before the delete: a log whose file vanished reports it (I-109)
    const tmp = store.tmpDirFor("d");
    mkdirSync(tmp, { recursive: true });
    writeFileSync(join(tmp, "secret"), "x");
    await store.delete("d");
    await store.delete("never-existed");
    assert.equal(existsSync(store.pathFor("d")), false);
    assert.equal(existsSync(tmp), false);
  });

  it("list reports cwd, title and updatedAt", async () => {
    const log = await store.create(header("l1", "/w/one"));
    log.append({ type: "session/title", title: "Fix the build" });
    await log.close();
    const [s] = await store.list();
    assert.equal(s?.sessionId, "l1");
    assert.equal(s?.cwd, "/w/one");
    assert.equal(s?.title, "Fix the build");
    assert.match(s?.updatedAt ?? "", /^\d{4}-\d\d-\d\dT/);
  });

  it("data dir: --data-dir, then MANIFOLD_DATA_DIR, then the platform default", () => {
    assert.equal(resolveDataDir(["--data-dir", "/d"], { MANIFOLD_DATA_DIR: "/e" }), "/d");
    assert.equal(resolveDataDir(["--data-dir=/d2"], {}), "/d2");
    assert.equal(resolveDataDir([], { MANIFOLD_DATA_DIR: "/e" }), "/e");
    assert.equal(resolveDataDir([], { HOME: "/home/u" }, "linux"), "/home/u/.local/share/manifold/sessions");
    assert.equal(resolveDataDir([], { HOME: "/home/u", XDG_DATA_HOME: "/x" }, "linux"), "/x/manifold/sessions");
    assert.equal(resolveDataDir([], { HOME: "/Users/u" }, "darwin"), "/Users/u/Library/Application Support/manifold/sessions");
    assert.throws(() => resolveDataDir(["--data-dir"], {}));
  });

  it("a 10,000-event log loads completely", async () => {
    const log = await store.create(header("big"));
    for (let i = 0; i < 10_000; i++) log.append({ type: "assistant/text", messageId: `m${i >> 6}`, text: `chunk ${i} ` });
    await log.close();
    const opened = await store.open("big");
    assert.equal(opened.entries.length, 10_000);
    assert.equal(opened.lastSeq, 10_000);
    await opened.close();
  });
});
