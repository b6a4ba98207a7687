// Worktree sessions' pure parts: branch name suggestions, git output parsers, the driver overrides,
// disk usage text, and the window's records (zod-checked on read, bad entries dropped).
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { test } from "node:test";
import { parseApplyErrors } from "../../../extension/worktrees/apply";
import { parseNameStatus } from "../../../extension/worktrees/changes";
import { formatDiskUsage } from "../../../extension/worktrees/diskUsage";
import { overlapping, parseStatus } from "../../../extension/worktrees/merge";
import { branchNameFor } from "../../../extension/worktrees/repo";
import { driverOverrides, gitReason } from "../../../extension/worktrees/userGit";
import { STATE_KEY, WorktreeRecords, type MementoLike, type StoredWorktree } from "../../../extension/worktrees/worktreeRecords";

test("branchNameFor slugs a task into a branch name", () => {
  assert.equal(branchNameFor("Fix login bug!"), "fix-login-bug");
  assert.equal(branchNameFor("  Crème brûlée: v2.0 / refactor  "), "creme-brulee-v2-0-refactor");
  assert.equal(branchNameFor("!!!"), "worktree-session");
  assert.equal(branchNameFor("日本語"), "worktree-session");
  const long = branchNameFor("make the login page remember the user across restarts and devices please");
  assert.ok(long.length <= 48 && !long.endsWith("-") && long.startsWith("make-the-login-page"), long);
  assert.equal(branchNameFor("x".repeat(100)), "x".repeat(48));
});

test("parseNameStatus maps git's letters, renames with their old path", () => {
  assert.deepEqual(
    parseNameStatus(["M", "a.txt", "A", "new dir/b.txt", "D", "c.txt", "R087", "old.txt", "new.txt", "T", "link", "C100", "x", "y"]),
    [
      { path: "a.txt", status: "modified" },
      { path: "new dir/b.txt", status: "added" },
      { path: "c.txt", status: "deleted" },
      { path: "new.txt", status: "renamed", oldPath: "old.txt" },
      { path: "link", status: "modified" },
      { path: "y", status: "added" },
    ],
  );
});

test("parseApplyErrors names each conflicting path once with git's reason, also paths holding ': '", () => {
  const stderr = [
    "error: patch failed: b.txt:1",
    "error: b.txt: patch does not apply",
    "error: c.txt: already exists in working directory",
    "error: odd: name.txt: does not exist in working directory",
    "error: the patch applies to 'img.bin' (0123), which does not match the current contents.",
    "error: something else entirely",
  ].join("\n");
  assert.deepEqual(parseApplyErrors(stderr, ["a.txt", "b.txt", "c.txt", "odd: name.txt", "odd", "img.bin"]), [
    { path: "b.txt", reason: "patch does not apply" },
    { path: "c.txt", reason: "already exists in working directory" },
    { path: "odd: name.txt", reason: "does not exist in working directory" },
    { path: "img.bin", reason: "the patch applies to 'img.bin' (0123), which does not match the current contents." },
    { path: "", reason: "something else entirely" },
  ]);
  assert.deepEqual(parseApplyErrors("fatal: corrupt patch at line 3\n", ["a.txt"]), [{ path: "", reason: "corrupt patch at line 3" }]);
});

test("parseStatus splits staged from local changes; overlapping sees files and folders in the way", () => {
  assert.deepEqual(
    parseStatus(["M  staged.txt", " M local.txt", "MM both.txt", "?? new/file.txt", "R  to.txt", "from.txt", " D gone.txt"]),
    {
      staged: ["staged.txt", "both.txt", "to.txt"],
      local: ["local.txt", "both.txt", "new/file.txt", "gone.txt"],
    },
  );
  assert.deepEqual(overlapping(["a.txt", "dir", "x/y.txt", "other"], ["a.txt", "dir/inner.txt", "x", "others"]), [
    "a.txt",
    "dir",
    "x/y.txt",
  ]);
});

test("driverOverrides switches off every configured filter and replaces every merge driver with git's own", () => {
  assert.deepEqual(
    driverOverrides(["filter.lfs.clean", "filter.lfs.smudge", "filter.a.b.process", "merge.npm.driver", "merge.npm.name", "core.bare"]),
    [
      "filter.lfs.clean=",
      "filter.lfs.smudge=",
      "filter.lfs.process=",
      "filter.lfs.required=false",
      "filter.a.b.clean=",
      "filter.a.b.smudge=",
      "filter.a.b.process=",
      "filter.a.b.required=false",
      "merge.npm.driver=git merge-file --marker-size=%L %A %O %B",
    ],
  );
  assert.equal(gitReason("hint: x\nfatal: 'p' is not a working tree.\n"), "'p' is not a working tree");
});

test("formatDiskUsage says ≥ when the walk stopped early", () => {
  assert.equal(formatDiskUsage({ bytes: 512, entries: 1, capped: false }), "512 bytes");
  assert.equal(formatDiskUsage({ bytes: 12_345_678, entries: 9, capped: false }), "12.3 MB");
  assert.equal(formatDiskUsage({ bytes: 1_200_000_000, entries: 200_000, capped: true }), "≥ 1.2 GB");
});

function memento(initial?: unknown): MementoLike & { value: unknown; writes: number } {
  const m = {
    value: initial,
    writes: 0,
    get: (key: string) => (key === STATE_KEY ? m.value : undefined),
    update: async (key: string, value: unknown) => {
      assert.equal(key, STATE_KEY);
      await new Promise((r) => setTimeout(r, 1));
      m.value = JSON.parse(JSON.stringify(value));
      m.writes++;
    },
  };
  return m;
}

const rec = (over: Partial<StoredWorktree> = {}): StoredWorktree => ({
  id: randomUUID(),
  folder: "/ws/alpha",
  path: "/ws/alpha.worktrees/fix",
  branch: "fix",
  base: "a".repeat(40),
  createdAt: 1_700_000_000_000,
  ...over,
});

test("WorktreeRecords lists, adds, updates and removes, per folder, and concurrent writes keep each other", async () => {
  const m = memento();
  const records = new WorktreeRecords(m);
  assert.deepEqual(records.list(), []);
  const a = rec();
  const b = rec({ folder: "/ws/beta", path: "/ws/beta.worktrees/x", branch: "x" });
  const c = rec({ branch: "other", path: "/ws/alpha.worktrees/other" });
  await Promise.all([records.add(a), records.add(b), records.add(c)]);
  assert.deepEqual(
    records.list().map((r) => r.id),
    [a.id, b.id, c.id],
  );
  assert.deepEqual(
    records.list("/ws/alpha").map((r) => r.id),
    [a.id, c.id],
  );
  const [updated] = await Promise.all([records.update(a.id, { sessionId: "s-1" }), records.update(c.id, { appliedAt: 5 })]);
  assert.equal(updated?.sessionId, "s-1");
  assert.equal(records.get(c.id)?.appliedAt, 5);
  assert.equal(records.get(a.id)?.sessionId, "s-1", "a concurrent update lost another");
  assert.equal(await records.update(randomUUID(), { sessionId: "x" }), undefined);
  await records.remove(b.id);
  assert.deepEqual(
    records.list().map((r) => r.id),
    [a.id, c.id],
  );
  await assert.rejects(records.add({ ...a, base: "not a sha" }));
  await assert.rejects(records.update(a.id, { appliedAt: "soon" as unknown as number }));
  assert.equal(records.get(a.id)?.appliedAt, undefined);
});

test("WorktreeRecords drops entries that do not parse instead of throwing", () => {
  const good = rec();
  const m = memento([
    good,
    null,
    7,
    { ...rec(), id: "not-a-uuid" },
    { ...rec(), base: "xyz" },
    { ...rec(), createdAt: "yesterday" },
    { id: good.id },
    good,
  ]);
  assert.deepEqual(new WorktreeRecords(m).list(), [good]);
  assert.deepEqual(new WorktreeRecords(memento({ not: "a list" })).list(), []);
});
