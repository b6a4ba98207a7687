// Worktree sessions' git core on real repositories: which folders are offered, branch names and
// paths, creating and discarding a worktree, what it changed, and that the folder's branch, index
// and stash stay exactly as they were throughout.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { baseContent, changes, hasUnappliedChanges } from "../../../extension/worktrees/changes";
import { checkBranchName, repoOf, worktreePathFor } from "../../../extension/worktrees/repo";
import { WorktreeError } from "../../../extension/worktrees/userGit";
import { createWorktree, discardWorktree, isMerged, worktreeAdminDir } from "../../../extension/worktrees/worktreeGit";
import { diskUsage } from "../../../extension/worktrees/diskUsage";
import { fileURLToPath } from "node:url";
import { files, folderState, makeRepo, read, sh, tempBase, write } from "./helpers";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const REPO_TS = join(ROOT, "extension/worktrees/repo.ts");

test("repoOf offers a repository's top folder and says why it does not offer the others", async () => {
  const base = tempBase();
  const folder = makeRepo(base);
  const ok = await repoOf(folder);
  assert.ok(ok.ok);
  assert.equal(ok.topLevel, folder);
  assert.equal(ok.commonDir, join(folder, ".git"));
  assert.equal(ok.head, sh(folder, "rev-parse", "HEAD"));

  mkdirSync(join(base, "plain"));
  assert.deepEqual(await repoOf(join(base, "plain")), { ok: false, reason: "plain is not a git repository, so it has no worktrees." });
  mkdirSync(join(base, "fresh"));
  sh(join(base, "fresh"), "init", "-q");
  assert.deepEqual(await repoOf(join(base, "fresh")), {
    ok: false,
    reason: "fresh has no commit yet, so there is nothing to start a worktree from.",
  });
  sh(base, "init", "-q", "--bare", "bare.git");
  const bare = await repoOf(join(base, "bare.git"));
  assert.ok(!bare.ok && /is a bare git repository/.test(bare.reason), JSON.stringify(bare));
  mkdirSync(join(folder, "sub"));
  const sub = await repoOf(join(folder, "sub"));
  assert.ok(!sub.ok && sub.reason.startsWith("sub is a subfolder of the git repository"), JSON.stringify(sub));
  assert.deepEqual(await repoOf(join(base, "gone")), { ok: false, reason: "gone does not exist, so it has no worktrees." });
  // A folder that is itself a linked worktree is offered; its common dir is the main repository's.
  sh(folder, "worktree", "add", "-q", "-b", "side", join(base, "side"));
  const linked = await repoOf(join(base, "side"));
  assert.ok(linked.ok);
  assert.equal(linked.commonDir, join(folder, ".git"));
  // Without git on PATH (in a child with its own environment): the sentence names what is missing.
  const script = `import(${JSON.stringify(REPO_TS)}).then(async (m) => console.log(JSON.stringify(await (m.repoOf ?? m.default.repoOf)(${JSON.stringify(folder)}))))`;
  const out = execFileSync(process.execPath, ["--import", "tsx", "-e", script], {
    cwd: ROOT,
    encoding: "utf8",
    env: { PATH: join(base, "no-git-here") },
  });
  assert.deepEqual(JSON.parse(out), { ok: false, reason: "Worktree sessions need git on PATH (git was not found)." });
});

test("checkBranchName uses git's rules and refuses a branch that exists or collides", async () => {
  const folder = makeRepo(tempBase());
  sh(folder, "branch", "fix/login");
  const repo = await repoOf(folder);
  assert.ok(repo.ok);
  assert.equal(await checkBranchName(repo, "fix-login-bug"), undefined);
  assert.equal(await checkBranchName(repo, "feature/new"), undefined);
  assert.equal(await checkBranchName(repo, "main"), "The branch main already exists.");
  assert.equal(await checkBranchName(repo, "fix/login"), "The branch fix/login already exists.");
  assert.equal(await checkBranchName(repo, "fix"), "The branch fix cannot be made because a branch fix/login exists.");
  assert.equal(await checkBranchName(repo, "main/x"), "The branch main/x cannot be made because a branch main exists.");
  for (const bad of ["a..b", "-x", "has space", "x.lock", "@{-1}", "HEAD", "a~1"]) {
    assert.equal(await checkBranchName(repo, bad), `${bad} is not a valid branch name.`, bad);
  }
  assert.equal(await checkBranchName(repo, ""), "The branch name is empty.");
});

test("worktreePathFor is a sibling <folder>.worktrees/<branch> outside the working tree, unique", async () => {
  const base = tempBase();
  const folder = makeRepo(base);
  assert.equal(await worktreePathFor(folder, "fix/login"), join(base, "alpha.worktrees", "fix-login"));
  mkdirSync(join(base, "alpha.worktrees", "fix-login"), { recursive: true });
  assert.equal(await worktreePathFor(folder, "fix/login"), join(base, "alpha.worktrees", "fix-login-2"));
  writeFileSync(join(base, "alpha.worktrees", "fix-login-2"), "");
  assert.equal(await worktreePathFor(folder, "fix/login"), join(base, "alpha.worktrees", "fix-login-3"));
});

test("createWorktree makes the branch at HEAD and checks it out beside the folder, leaving the folder's branch, index and stash alone", async () => {
  const base = tempBase();
  const folder = makeRepo(base);
  // The user is mid-work: a staged change, an unstaged one, an untracked file and a stash.
  write(folder, "stashed.txt", "s\n");
  sh(folder, "add", "stashed.txt");
  sh(folder, "stash", "push", "-q", "-m", "mine");
  write(folder, "b.txt", "staged\n");
  sh(folder, "add", "b.txt");
  write(folder, "a.txt", "unstaged\n");
  write(folder, "new.txt", "untracked\n");
  const before = folderState(folder);
  const contentBefore = files(folder);
  const rec = await createWorktree(folder, { branch: "fix-login" });
  assert.match(rec.id, /^[0-9a-f-]{36}$/);
  assert.equal(rec.folder, folder);
  assert.equal(rec.path, join(base, "alpha.worktrees", "fix-login"));
  assert.equal(rec.branch, "fix-login");
  assert.equal(rec.base, before.head);
  assert.ok(Math.abs(rec.createdAt - Date.now()) < 60_000);
  assert.equal(read(rec.path, "a.txt"), "one\ntwo\nthree\n", "the worktree has HEAD's content, not the folder's edits");
  assert.equal(existsSync(join(rec.path, "new.txt")), false);
  assert.equal(sh(rec.path, "symbolic-ref", "HEAD"), "refs/heads/fix-login");
  assert.equal(sh(folder, "rev-parse", "refs/heads/fix-login"), before.head);
  assert.deepEqual(folderState(folder), before);
  assert.deepEqual(files(folder), contentBefore);
  await assert.rejects(createWorktree(folder, { branch: "fix-login" }), (e: unknown) => {
    assert.ok(e instanceof WorktreeError);
    assert.equal(e.message, "The branch fix-login already exists.");
    return true;
  });
  await assert.rejects(createWorktree(join(base, "nowhere"), { branch: "x" }), /nowhere does not exist, so it has no worktrees\./);
});

test("changes lists committed, uncommitted and new files against the base without touching either index", async () => {
  const base = tempBase();
  const folder = makeRepo(base, { "a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n", "old.txt": "a long enough file\n".repeat(10) });
  const rec = await createWorktree(folder, { branch: "agent" });
  assert.deepEqual(await changes(rec), []);
  // The agent commits one change, leaves others uncommitted, adds files and renames one.
  write(rec.path, "a.txt", "a changed\n");
  sh(rec.path, "commit", "-q", "-am", "agent commit");
  write(rec.path, "b.txt", "b changed\n");
  rmSync(join(rec.path, "c.txt"));
  write(rec.path, "dir/new.txt", "new\n");
  write(rec.path, "ignored.log", "x\n");
  write(rec.path, ".gitignore", "*.log\n");
  sh(rec.path, "mv", "old.txt", "renamed.txt");
  const worktreeIndex = sh(rec.path, "rev-parse", "--path-format=absolute", "--git-path", "index");
  const indexBefore = readFileSync(worktreeIndex);
  const folderBefore = folderState(folder);
  const tmpBefore = readdirSync(tmpdir()).filter((n) => n.startsWith("manifold-worktree-index-"));
  const got = (await changes(rec)).sort((x, y) => x.path.localeCompare(y.path));
  assert.deepEqual(got, [
    { path: ".gitignore", status: "added" },
    { path: "a.txt", status: "modified" },
    { path: "b.txt", status: "modified" },
    { path: "c.txt", status: "deleted" },
    { path: "dir/new.txt", status: "added" },
    { path: "renamed.txt", status: "renamed", oldPath: "old.txt" },
  ]);
  assert.ok(readFileSync(worktreeIndex).equals(indexBefore), "the worktree's own index changed");
  assert.deepEqual(folderState(folder), folderBefore);
  assert.deepEqual(
    readdirSync(tmpdir()).filter((n) => n.startsWith("manifold-worktree-index-")),
    tmpBefore,
    "a temporary index was left behind",
  );
  assert.equal((await baseContent(rec, "a.txt"))?.toString("utf8"), "a\n");
  assert.equal((await baseContent(rec, "old.txt"))?.toString("utf8"), "a long enough file\n".repeat(10));
  assert.equal(await baseContent(rec, "dir/new.txt"), undefined);
  assert.equal(await baseContent(rec, "missing/x.txt"), undefined);
});

test("changes sees an edit that keeps a file's size and mtime, made in the second git last wrote the worktree's index", async () => {
  const base = tempBase();
  const folder = makeRepo(base, { "a.txt": "one\n", "b.txt": "bee\n" });
  const rec = await createWorktree(folder, { branch: "racy" });
  // The index records a.txt at second T; the file is then edited in that same second (same size, same
  // mtime) and the index was written in that second too: git itself takes such an entry as "racily
  // clean" and reads the file. A copy of the index written later must not make it look clean.
  const t = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
  const file = join(rec.path, "a.txt");
  utimesSync(file, t, t);
  sh(rec.path, "update-index", "--refresh");
  const index = sh(rec.path, "rev-parse", "--path-format=absolute", "--git-path", "index").trim();
  writeFileSync(file, "ONE\n");
  utimesSync(file, t, t);
  utimesSync(index, t, t);
  assert.deepEqual(await changes(rec), [{ path: "a.txt", status: "modified" }]);
});

test("isMerged and hasUnappliedChanges follow the branch and the folder's files", async () => {
  const folder = makeRepo(tempBase());
  const rec = await createWorktree(folder, { branch: "agent" });
  assert.equal(await isMerged(rec), false, "a branch with no commits of its own is not merged");
  assert.equal(await hasUnappliedChanges(rec), false);
  write(rec.path, "a.txt", "agent\n");
  assert.equal(await hasUnappliedChanges(rec), true);
  write(folder, "a.txt", "agent\n"); // the same content reached the folder
  assert.equal(await hasUnappliedChanges(rec), false);
  sh(folder, "checkout", "-q", "--", "a.txt");
  sh(rec.path, "commit", "-q", "-am", "agent");
  assert.equal(await isMerged(rec), false);
  sh(folder, "merge", "-q", "--no-ff", "--no-edit", "agent");
  assert.equal(await isMerged(rec), true);
  assert.equal(await hasUnappliedChanges(rec), false);
});

test("discardWorktree leaves no folder, no worktree metadata and, when asked, no branch", async () => {
  const base = tempBase();
  const folder = makeRepo(base);
  const rec = await createWorktree(folder, { branch: "gone" });
  write(rec.path, "a.txt", "uncommitted\n");
  write(rec.path, "untracked.txt", "u\n");
  const admin = await worktreeAdminDir(rec);
  assert.ok(admin && existsSync(admin) && admin.startsWith(join(folder, ".git", "worktrees")), String(admin));
  const before = folderState(folder);
  await discardWorktree(rec, { deleteBranch: true });
  assert.equal(existsSync(rec.path), false);
  assert.equal(existsSync(admin), false);
  assert.equal(sh(folder, "branch", "--list", "gone"), "");
  assert.equal(sh(folder, "worktree", "list", "--porcelain").includes(rec.path), false);
  assert.deepEqual(folderState(folder), before);

  // The branch stays when not asked; a worktree folder the user already deleted is pruned.
  const kept = await createWorktree(folder, { branch: "kept" });
  const keptAdmin = await worktreeAdminDir(kept);
  rmSync(kept.path, { recursive: true, force: true });
  await discardWorktree(kept, { deleteBranch: false });
  assert.equal(existsSync(keptAdmin!), false);
  assert.equal(sh(folder, "branch", "--list", "kept"), "kept");
  assert.deepEqual(folderState(folder), before);
});

test("diskUsage counts the worktree's bytes, not what a symlink points at, and says when it stopped early", async () => {
  const base = tempBase();
  write(base, "t/a.bin", Buffer.alloc(1000));
  write(base, "t/d/b.bin", Buffer.alloc(2345));
  write(base, "big/huge.bin", Buffer.alloc(1_000_000));
  symlinkSync(join(base, "big"), join(base, "t", "link"));
  const u = await diskUsage(join(base, "t"));
  assert.equal(u.capped, false);
  assert.equal(u.entries, 4);
  assert.ok(u.bytes >= 3345 && u.bytes < 3345 + 4096, String(u.bytes));
  const capped = await diskUsage(join(base, "t"), 2);
  assert.equal(capped.capped, true);
  assert.equal(capped.entries, 2);
});
