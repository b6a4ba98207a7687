// What SessionFileService serves to any agent inside the session folder, on a real disk with a fake
// editor: writes that race another writer, writes into open documents, and missing files.
import assert from "node:assert/strict";
import { existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { RequestError } from "@agentclientprotocol/sdk";
import { SessionFileService, noEditor, type EditorFiles } from "../../../extension/client/fileService";
import { PathConfinement } from "../../../extension/client/folderConfinement";

function folder(): string {
  const ws = join(realpathSync(mkdtempSync(join(tmpdir(), "manifold-clientfiles-"))), "ws");
  mkdirSync(ws);
  return ws;
}

function serviceOf(ws: string, editor: EditorFiles = noEditor): SessionFileService {
  return new SessionFileService(new PathConfinement(ws), editor);
}

async function codeOf(p: Promise<unknown>): Promise<number | "ok"> {
  try {
    await p;
    return "ok";
  } catch (err) {
    if (err instanceof RequestError) return err.code;
    throw err;
  }
}

test("fs/write_text_file: a file another writer creates between the request and the write gets the requested content, whole", async () => {
  const ws = folder();
  const target = join(ws, "deep", "new", "file.txt");
  // The other writer (opencode writes the file itself right after asking) strikes after the service
  // has confined and checked the path, at the last step before it writes.
  const editor: EditorFiles = {
    openDocumentText: () => undefined,
    writeOpenDocument: async (p) => {
      mkdirSync(join(ws, "deep", "new"), { recursive: true });
      writeFileSync(p, "the agent's own, longer, copy of the file\n");
      return false;
    },
  };
  await serviceOf(ws, editor).writeTextFile({ sessionId: "s", path: target, content: "requested\n" });
  assert.equal(readFileSync(target, "utf8"), "requested\n");
});

test("fs/write_text_file: an existing file is replaced, a missing folder created, an open document left to the editor", async () => {
  const ws = folder();
  writeFileSync(join(ws, "old.txt"), "old\n");
  const handled: string[] = [];
  const editor: EditorFiles = {
    openDocumentText: () => undefined,
    writeOpenDocument: async (p) => {
      handled.push(p);
      return p.endsWith("open.txt");
    },
  };
  const files = serviceOf(ws, editor);
  await files.writeTextFile({ sessionId: "s", path: join(ws, "old.txt"), content: "new\n" });
  await files.writeTextFile({ sessionId: "s", path: "sub/dir/fresh.txt", content: "fresh\n" });
  await files.writeTextFile({ sessionId: "s", path: "open.txt", content: "into the editor\n" });
  assert.deepEqual(
    { old: readFileSync(join(ws, "old.txt"), "utf8"), fresh: readFileSync(join(ws, "sub/dir/fresh.txt"), "utf8"), handled },
    { old: "new\n", fresh: "fresh\n", handled: [join(ws, "old.txt"), join(ws, "sub/dir/fresh.txt"), join(ws, "open.txt")] },
  );
  assert.equal(existsSync(join(ws, "open.txt")), false, "the editor wrote the open document; the service must not write it too");
});

test("fs/write_text_file: a directory or a hard-linked file is refused with invalid params and left as it was", async () => {
  const ws = folder();
  mkdirSync(join(ws, "adir"));
  writeFileSync(join(ws, "linked.txt"), "shared\n");
  linkSync(join(ws, "linked.txt"), join(ws, "..", "outside-alias.txt"));
  const files = serviceOf(ws);
  assert.deepEqual(
    [
      await codeOf(files.writeTextFile({ sessionId: "s", path: "adir", content: "x" })),
      await codeOf(files.writeTextFile({ sessionId: "s", path: "linked.txt", content: "x" })),
    ],
    [-32602, -32602],
  );
  assert.equal(readFileSync(join(ws, "..", "outside-alias.txt"), "utf8"), "shared\n");
});

test("fs/read_text_file: a missing file inside the folder reads as empty text marked as not existing; outside stays refused", async () => {
  const ws = folder();
  const files = serviceOf(ws);
  assert.deepEqual(await files.readTextFile({ sessionId: "s", path: join(ws, "not", "there.txt") }), {
    content: "",
    _meta: { "manifold/exists": false },
  });
  assert.deepEqual(await files.readTextFile({ sessionId: "s", path: "missing.txt", line: 3, limit: 2 }), {
    content: "",
    _meta: { "manifold/exists": false },
  });
  assert.equal(await codeOf(files.readTextFile({ sessionId: "s", path: "../elsewhere.txt" })), -32602);
  mkdirSync(join(ws, "adir"));
  assert.equal(await codeOf(files.readTextFile({ sessionId: "s", path: "adir" })), -32602);
});
