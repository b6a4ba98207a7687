// CheckpointFolders' change signal: the sessions view redraws a folder's changed files when (and only
// when) that folder's checkpoint records change, named by the folder path it asked for (not the realpath).
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { CheckpointFolders } from "../../../extension/checkpoints/checkpointFolders";
import { tempBase, write } from "./helpers";

test("CheckpointFolders signals each records change (prompt checkpoint, turn end, keep, undo) with the folder path it was asked for", async () => {
  const base = tempBase();
  mkdirSync(join(base, "real"));
  // The workspace folder is a symlink: the signal must carry the workspace's path, not the shadow repo's realpath.
  const folder = join(base, "linked");
  symlinkSync(join(base, "real"), folder);
  write(folder, "a.txt", "v1\n");
  const checkpoints = new CheckpointFolders(join(base, "storage"));
  const seen: string[] = [];
  const sub = checkpoints.onDidChange((f) => seen.push(f));
  const ck = checkpoints.get(folder);
  assert.ok(ck);
  await ck.beforePrompt("s1", 0, "edit a");
  write(folder, "a.txt", "v2\n");
  write(folder, "b.txt", "new\n");
  await ck.afterTurn("s1");
  assert.deepEqual(seen, [folder, folder]);
  // A read (the tree's own query) is not a change.
  assert.deepEqual((await ck.changes("s1")).files.map((f) => f.path).sort(), ["a.txt", "b.txt"]);
  assert.equal(seen.length, 2);
  await ck.keep("s1", ["b.txt"]);
  await ck.undoFiles("s1", ["a.txt"]);
  assert.equal(seen.length, 4);
  assert.deepEqual((await ck.changes("s1")).files, []);
  sub.dispose();
  await ck.beforePrompt("s1", 1, "again");
  assert.equal(seen.length, 4, "a disposed listener was still called");
});
