import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { RequestError } from "@agentclientprotocol/sdk";
import { SessionFileService, sliceLines, type EditorFiles } from "../../../extension/client/fileService";
import { PathConfinement } from "../../../extension/client/folderConfinement";
import { detectSandbox, isInside } from "../../../sandbox";
import { TerminalService } from "../../../extension/client/terminals";

function fixture() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "manifold-guard-")));
  const ws = join(base, "ws");
  const outside = join(base, "outside");
  const evil = join(base, "ws-evil");
  for (const d of [ws, outside, evil, join(ws, "src")]) mkdirSync(d, { recursive: true });
  writeFileSync(join(outside, "secret.txt"), "secret");
  writeFileSync(join(evil, "x.txt"), "evil");
  writeFileSync(join(ws, "src", "a.txt"), "one\ntwo\nthree\n");
  symlinkSync(outside, join(ws, "link-out"));
  symlinkSync(join(outside, "nope", "missing.txt"), join(ws, "dangling"));
  symlinkSync(join(ws, "src"), join(ws, "link-in"));
  // An alias of the root itself (the session folder reached through a symlink).
  symlinkSync(ws, join(base, "alias"));
  return { base, ws, outside, evil };
}

test("I-94: the path confinement refuses ../outside, absolute paths elsewhere, symlink escapes and the prefix trick", async () => {
  const { base, ws, outside, evil } = fixture();
  const guard = new PathConfinement(ws);
  const verdicts: Record<string, boolean> = {};
  for (const p of [
    "../outside/secret.txt",
    join(outside, "secret.txt"),
    "/etc/passwd",
    join(evil, "x.txt"),
    "link-out/secret.txt",
    "link-out/new.txt",
    "dangling",
    "link-in/../../outside/secret.txt",
    "src/../../outside",
    "missing/../../outside",
    "bad\0name",
    // inside
    "src/a.txt",
    join(ws, "src", "a.txt"),
    "link-in/a.txt",
    "..foo",
    "...",
    "missing/../src/a.txt",
    "new/dir/file.txt",
    join(base, "alias", "src", "a.txt"),
    ".",
  ]) {
    verdicts[p] = (await guard.confine(p)).ok;
  }
  assert.deepEqual(verdicts, {
    "../outside/secret.txt": false,
    [join(outside, "secret.txt")]: false,
    "/etc/passwd": false,
    [join(evil, "x.txt")]: false,
    "link-out/secret.txt": false,
    "link-out/new.txt": false,
    dangling: false,
    "link-in/../../outside/secret.txt": false,
    "src/../../outside": false,
    "missing/../../outside": false,
    "bad\0name": false,
    "src/a.txt": true,
    [join(ws, "src", "a.txt")]: true,
    "link-in/a.txt": true,
    "..foo": true,
    "...": true,
    "missing/../src/a.txt": true,
    "new/dir/file.txt": true,
    [join(base, "alias", "src", "a.txt")]: true,
    ".": true,
  });
  // `link-in/..` follows the link first (kernel semantics): ws/src/.. = ws, inside; returned path is real.
  assert.deepEqual(await guard.confine("link-in/../src/a.txt"), { ok: true, path: join(ws, "src", "a.txt") });
});

test("I-94: the shared isInside (real, root) compares whole components, not string prefixes", () => {
  assert.deepEqual(
    ["/ws", "/ws/a", "/ws-evil", "/w", "/", "/ws/../etc"].map((p) => isInside(p, "/ws")),
    [true, true, false, false, false, false],
  );
});

test("I-94: fs/read_text_file and fs/write_text_file served to an agent refuse paths outside the session folder", async () => {
  const { ws, outside, evil } = fixture();
  const writes: string[] = [];
  const editor: EditorFiles = {
    openDocumentText: (p) => (p === join(ws, "src", "a.txt") ? "unsaved\nbuffer" : undefined),
    writeOpenDocument: async (p) => {
      writes.push(p);
      return false;
    },
  };
  const files = new SessionFileService(new PathConfinement(ws), editor);
  const escapes = ["../outside/secret.txt", join(outside, "secret.txt"), "link-out/secret.txt", join(evil, "x.txt"), "dangling"];
  const results: string[] = [];
  for (const path of escapes) {
    for (const op of ["read", "write"] as const) {
      try {
        if (op === "read") await files.readTextFile({ sessionId: "s", path });
        else await files.writeTextFile({ sessionId: "s", path, content: "pwned" });
        results.push(`${op} ${path}: allowed`);
      } catch (err) {
        results.push(`${op} ${path}: ${err instanceof RequestError ? err.code : "other"}`);
      }
    }
  }
  assert.deepEqual(
    results,
    escapes.flatMap((p) => [`read ${p}: -32602`, `write ${p}: -32602`]),
  );
  assert.deepEqual(writes, []);
  assert.equal(readFileSync(join(outside, "secret.txt"), "utf8"), "secret");
  assert.equal(existsSync(join(outside, "nope")), false);
  // Inside: unsaved buffer wins, line/limit honoured; a write is offered to the editor first, then
  // goes to the disk when no document is open.
  assert.deepEqual(await files.readTextFile({ sessionId: "s", path: join(ws, "src", "a.txt"), line: 2, limit: 1 }), { content: "buffer" });
  await files.writeTextFile({ sessionId: "s", path: join(ws, "new.txt"), content: "hi" });
  assert.deepEqual(writes, [join(ws, "new.txt")]);
  assert.equal(readFileSync(join(ws, "new.txt"), "utf8"), "hi");
});

test("I-94: terminal/create refuses a cwd outside the session folder", async () => {
  const { ws, outside } = fixture();
  const sandbox = detectSandbox(process.env, { log: () => undefined });
  const terms = new TerminalService(new PathConfinement(ws), { sessionId: "s", sandbox: () => sandbox });
  const outcomes: string[] = [];
  for (const cwd of [outside, join(ws, "link-out"), join(ws, "..")]) {
    try {
      await terms.create({ sessionId: "s", command: "/bin/true", cwd });
      outcomes.push("allowed");
    } catch (err) {
      outcomes.push(err instanceof RequestError ? String(err.code) : "other");
    }
  }
  assert.deepEqual(outcomes, ["-32602", "-32602", "-32602"]);
  const { terminalId } = await terms.create({ sessionId: "s", command: "pwd" });
  assert.deepEqual(await terms.waitForExit(terminalId), { exitCode: 0, signal: null });
  assert.deepEqual(terms.output(terminalId), { output: `${ws}\n`, truncated: false, exitStatus: { exitCode: 0, signal: null } });
  await terms.release(terminalId);
  await terms.shutdown();
});

test("sliceLines honours 1-based line and limit", () => {
  assert.deepEqual(
    [sliceLines("a\nb\nc", 2), sliceLines("a\nb\nc", 1, 2), sliceLines("a\nb\nc"), sliceLines("a\nb\nc", 5, 1)],
    ["b\nc", "a\nb", "a\nb\nc", ""],
  );
});
