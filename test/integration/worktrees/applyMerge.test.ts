// Bringing a worktree session's changes back: Apply to folder writes the folder's working tree all
// or nothing, Merge branch commits in the worktree and merges into the folder's current branch, and
// every refusal leaves the folder exactly as it was. Before either, nothing reaches the folder.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { applyToFolder } from "../../../extension/worktrees/apply";
import { changes, hasUnappliedChanges } from "../../../extension/worktrees/changes";
import { mergeBranch } from "../../../extension/worktrees/merge";
import { createWorktree, isMerged } from "../../../extension/worktrees/worktreeGit";
import { files, folderState, makeRepo, read, sh, tempBase, write } from "./helpers";

test("I-122: two worktree sessions' changes reach the folder only through an Apply, and only that one's", async () => {
  const folder = makeRepo(tempBase());
  const one = await createWorktree(folder, { branch: "one" });
  const two = await createWorktree(folder, { branch: "two" });
  write(folder, "mine.txt", "the user's own work\n");
  write(one.path, "a.txt", "one's edit\n");
  write(one.path, "one.txt", "new in one\n");
  write(two.path, "b.txt", "two's edit\n");
  sh(two.path, "commit", "-q", "-am", "two commits");
  const before = files(folder);
  const state = folderState(folder);
  await changes(one);
  await changes(two);
  await hasUnappliedChanges(one);
  await isMerged(two);
  assert.deepEqual(files(folder), before, "a worktree's change reached the folder before any Apply or Merge");
  assert.deepEqual(folderState(folder), state);
  const seen: string[][] = [];
  const result = await applyToFolder(one, {
    beforeWrite: async (paths) => {
      seen.push([...paths].sort());
      assert.deepEqual(files(folder), before, "beforeWrite must run before anything is written");
    },
  });
  assert.deepEqual(result, { applied: ["a.txt", "one.txt"] });
  assert.deepEqual(seen, [["a.txt", "one.txt"]]);
  assert.deepEqual(files(folder), {
    ...before,
    "a.txt": Buffer.from("one's edit\n").toString("base64"),
    "one.txt": Buffer.from("new in one\n").toString("base64"),
  });
  assert.equal(read(folder, "b.txt"), "bee\n", "the other session's change reached the folder");
  // Working tree only: the branch, HEAD, index and stash are as they were.
  const after = folderState(folder);
  assert.deepEqual({ ...after, status: state.status }, state);
  assert.equal(await hasUnappliedChanges(one), false);
  assert.equal(await hasUnappliedChanges(two), true);
});

test("applyToFolder carries binary files, deletions and new folders", async () => {
  const folder = makeRepo(tempBase(), { "a.txt": "a\n", "gone.txt": "g\n", "img.bin": "\u0000\u0001old" });
  const rec = await createWorktree(folder, { branch: "bin" });
  write(rec.path, "img.bin", Buffer.from([0, 1, 2, 255, 0, 7]));
  write(rec.path, "deep/new/file.bin", Buffer.from([0, 0, 0, 9]));
  sh(rec.path, "rm", "-q", "gone.txt");
  const result = await applyToFolder(rec);
  assert.deepEqual("applied" in result && [...result.applied].sort(), ["deep/new/file.bin", "gone.txt", "img.bin"]);
  assert.deepEqual([...readFileSync(join(folder, "img.bin"))], [0, 1, 2, 255, 0, 7]);
  assert.deepEqual([...readFileSync(join(folder, "deep/new/file.bin"))], [0, 0, 0, 9]);
  assert.equal(existsSync(join(folder, "gone.txt")), false);
  assert.deepEqual(await applyToFolder(await createWorktree(folder, { branch: "empty" })), { applied: [] });
});

test("I-122: applyToFolder is all or nothing: one conflicting file and neither is written, each conflict with git's reason", async () => {
  const folder = makeRepo(tempBase());
  const rec = await createWorktree(folder, { branch: "clash" });
  write(rec.path, "a.txt", "one\nTWO\nthree\n");
  write(rec.path, "b.txt", "bee changed\n");
  write(rec.path, "c.txt", "new\n");
  write(folder, "b.txt", "the user changed bee\n"); // conflicts with the worktree's b.txt
  write(folder, "c.txt", "the user's own c\n"); // and c.txt already exists here
  const before = files(folder);
  const state = folderState(folder);
  let called = false;
  const result = await applyToFolder(rec, { beforeWrite: async () => void (called = true) });
  assert.ok("conflicts" in result, JSON.stringify(result));
  assert.deepEqual(result.conflicts.map((c) => c.path).sort(), ["b.txt", "c.txt"], JSON.stringify(result.conflicts));
  assert.equal(result.conflicts.find((c) => c.path === "b.txt")?.reason, "patch does not apply");
  assert.equal(result.conflicts.find((c) => c.path === "c.txt")?.reason, "already exists in working directory");
  assert.equal(called, false, "beforeWrite ran although nothing is written");
  assert.deepEqual(files(folder), before, "a file was written although another conflicted");
  assert.deepEqual(folderState(folder), state);
});

test("mergeBranch commits the worktree's changes as the user and merges them into the folder's branch, which stays checked out", async () => {
  const folder = makeRepo(tempBase());
  const rec = await createWorktree(folder, { branch: "feature" });
  sh(folder, "tag", "feature", "HEAD"); // a tag of the same name is not what gets merged
  write(rec.path, "a.txt", "one\ntwo\nthree\nfour\n");
  write(rec.path, "added.txt", "added\n");
  const stash = sh(folder, "stash", "list");
  const result = await mergeBranch(rec, { message: "Add four" });
  assert.ok(result.merged, JSON.stringify(result));
  assert.equal(sh(folder, "symbolic-ref", "HEAD"), "refs/heads/main");
  assert.equal(sh(folder, "rev-parse", "HEAD"), result.commit);
  assert.equal(sh(folder, "rev-list", "--parents", "-n", "1", "HEAD").split(" ").length, 3, "not a merge commit");
  assert.equal(sh(folder, "log", "-1", "--format=%s|%an <%ae>", "refs/heads/feature"), "Add four|Ada Lovelace <ada@example.com>");
  assert.equal(sh(folder, "log", "-1", "--format=%s|%an <%ae>", "HEAD"), "Merge branch 'feature'|Ada Lovelace <ada@example.com>");
  assert.equal(read(folder, "a.txt"), "one\ntwo\nthree\nfour\n");
  assert.equal(read(folder, "added.txt"), "added\n");
  assert.equal(sh(folder, "status", "--porcelain"), "");
  assert.equal(sh(folder, "stash", "list"), stash);
  assert.equal(await isMerged(rec), true);
});

test("mergeBranch on a conflict merges nothing and leaves the folder exactly as it was", async () => {
  const folder = makeRepo(tempBase());
  const rec = await createWorktree(folder, { branch: "conflicting" });
  write(rec.path, "a.txt", "one\nworktree\nthree\n");
  write(folder, "a.txt", "one\nfolder\nthree\n");
  sh(folder, "commit", "-q", "-am", "folder moves on");
  write(folder, "b.txt", "uncommitted in the folder\n");
  const before = files(folder);
  const state = folderState(folder);
  const result = await mergeBranch(rec, { message: "worktree" });
  assert.deepEqual(result, { merged: false, reason: "Merging conflicting conflicts in a.txt, so nothing was merged.", files: ["a.txt"] });
  assert.deepEqual(files(folder), before);
  assert.deepEqual(folderState(folder), state);
  assert.equal(existsSync(join(folder, ".git", "MERGE_HEAD")), false);
});

test("mergeBranch that git refuses (uncommitted changes in the way) leaves the folder exactly as it was", async () => {
  const folder = makeRepo(tempBase());
  const rec = await createWorktree(folder, { branch: "blocked" });
  write(rec.path, "a.txt", "one\ntwo\nthree\nworktree\n");
  write(folder, "a.txt", "the user's unsaved work\n");
  write(folder, "staged.txt", "staged\n");
  const before = files(folder);
  const state = folderState(folder);
  const result = await mergeBranch(rec, { message: "worktree" });
  assert.equal(result.merged, false);
  assert.ok(
    !result.merged && /would overwrite changes in the folder not yet committed \(a\.txt\), so nothing was merged\./.test(result.reason),
    JSON.stringify(result),
  );
  assert.deepEqual(files(folder), before);
  assert.deepEqual(folderState(folder), state);
});

test("mergeBranch refuses with staged changes in the folder, an untracked file in the way, or a worktree off its branch, changing nothing", async () => {
  const folder = makeRepo(tempBase());
  const rec = await createWorktree(folder, { branch: "careful" });
  write(rec.path, "added.txt", "from the worktree\n");
  write(folder, "b.txt", "staged by the user\n");
  sh(folder, "add", "b.txt");
  let before = files(folder);
  let state = folderState(folder);
  const staged = await mergeBranch(rec, { message: "w" });
  assert.deepEqual(staged, {
    merged: false,
    reason: "The folder has staged changes (b.txt), so nothing was merged; commit or unstage them first.",
    files: ["b.txt"],
  });
  assert.deepEqual(files(folder), before);
  assert.deepEqual(folderState(folder), state);

  sh(folder, "reset", "-q");
  sh(folder, "checkout", "-q", "--", "b.txt");
  write(folder, "added.txt", "the user's own untracked file\n");
  before = files(folder);
  state = folderState(folder);
  const inTheWay = await mergeBranch(rec, { message: "w" });
  assert.ok(!inTheWay.merged && inTheWay.files.includes("added.txt"), JSON.stringify(inTheWay));
  assert.deepEqual(files(folder), before);
  assert.deepEqual(folderState(folder), state);

  sh(rec.path, "checkout", "-q", "--detach");
  const detached = await mergeBranch(rec, { message: "w" });
  assert.deepEqual(detached, {
    merged: false,
    reason: "The worktree is no longer on its branch careful, so nothing was merged.",
    files: [],
  });
  assert.deepEqual(folderState(folder), state);
});
