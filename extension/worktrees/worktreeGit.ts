// A worktree session's linked git worktree: created from the folder's HEAD with its own new branch,
// asked whether that branch is merged, and discarded. Only git writes the repository, and only the
// worktree's branch and worktree metadata: the folder's branch, index and stash are never touched.
import { randomUUID } from "node:crypto";
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { GitError } from "../checkpoints/git";
import { checkBranchName, repoOf, worktreePathFor } from "./repo";
import { gitReason, probeGit, text, userGit, WorktreeError } from "./userGit";

/** What Manifold keeps of one worktree session's worktree. */
export interface WorktreeRecord {
  readonly id: string;
  /** The workspace folder it was made from (as the window names it). */
  readonly folder: string;
  /** The worktree's folder. */
  readonly path: string;
  readonly branch: string;
  /** The full sha of the folder's HEAD when it was made. */
  readonly base: string;
  /** Epoch milliseconds. */
  readonly createdAt: number;
}

/** The folder's real path and its repository's common git directory. */
export interface FolderRepo {
  readonly folder: string;
  readonly commonDir: string;
}

const repos = new Map<string, Promise<FolderRepo>>();

/** The repository of a record's folder (cached per folder). */
export function folderRepo(folder: string): Promise<FolderRepo> {
  let found = repos.get(folder);
  if (!found) {
    found = (async () => {
      const real = await fs.realpath(folder).catch(() => {
        throw new WorktreeError(`The folder ${folder} no longer exists.`);
      });
      const common = text(await probeGit(real, ["rev-parse", "--git-common-dir"]));
      return { folder: real, commonDir: await fs.realpath(path.resolve(real, common)) };
    })();
    repos.set(folder, found);
    found.catch(() => repos.delete(folder));
  }
  return found;
}

/** Fails with a sentence when the worktree's folder is gone. */
export async function requireWorktree(rec: WorktreeRecord): Promise<void> {
  const st = await fs.stat(rec.path).catch(() => undefined);
  if (!st?.isDirectory()) throw new WorktreeError(`The worktree ${rec.path} no longer exists.`);
}

/** A new worktree of `folder` at its current HEAD on the new branch `branch`, in the folder's `.worktrees` sibling. */
export async function createWorktree(folder: string, opts: { branch: string }): Promise<WorktreeRecord> {
  const repo = await repoOf(folder);
  if (!repo.ok) throw new WorktreeError(repo.reason);
  const bad = await checkBranchName(repo, opts.branch);
  if (bad) throw new WorktreeError(bad);
  const where = await worktreePathFor(repo.topLevel, opts.branch);
  await fs.mkdir(path.dirname(where), { recursive: true }).catch((e: NodeJS.ErrnoException) => {
    throw new WorktreeError(`The folder for worktrees, ${path.dirname(where)}, could not be made (${e.code ?? e.message}).`);
  });
  try {
    await userGit(repo.commonDir, repo.topLevel, ["worktree", "add", "--quiet", "--no-track", "-b", opts.branch, where, repo.head]);
  } catch (e) {
    if (e instanceof GitError) throw new WorktreeError(`Git could not create the worktree for ${opts.branch}: ${gitReason(e.stderr)}.`);
    throw e;
  }
  return { id: randomUUID(), folder, path: where, branch: opts.branch, base: repo.head, createdAt: Date.now() };
}

/** The branch's tip, or undefined when the branch is gone. */
export async function branchTip(rec: WorktreeRecord): Promise<string | undefined> {
  const repo = await folderRepo(rec.folder);
  const run = await userGit(repo.commonDir, repo.folder, ["rev-parse", "--verify", "--quiet", `refs/heads/${rec.branch}^{commit}`], {
    okCodes: [1],
  });
  return run.code === 0 ? text(run) : undefined;
}

/** Whether the branch has commits of its own and its tip is in the folder's HEAD (a fresh branch is not "merged"). */
export async function isMerged(rec: WorktreeRecord): Promise<boolean> {
  const tip = await branchTip(rec);
  if (tip === undefined || tip === rec.base) return false;
  const repo = await folderRepo(rec.folder);
  const run = await userGit(repo.commonDir, repo.folder, ["merge-base", "--is-ancestor", tip, "HEAD"], { okCodes: [1] });
  return run.code === 0;
}

/** The worktree's metadata folder `<common>/worktrees/<name>`, found by its `gitdir` file; undefined when none names it. */
export async function worktreeAdminDir(rec: WorktreeRecord): Promise<string | undefined> {
  const repo = await folderRepo(rec.folder);
  const dir = path.join(repo.commonDir, "worktrees");
  const wanted = new Set([path.join(rec.path, ".git")]);
  const real = await fs.realpath(rec.path).catch(() => undefined);
  if (real) wanted.add(path.join(real, ".git"));
  for (const name of await fs.readdir(dir).catch(() => [])) {
    const gitdir = await fs.readFile(path.join(dir, name, "gitdir"), "utf8").catch(() => "");
    if (wanted.has(gitdir.trim())) return path.join(dir, name);
  }
  return undefined;
}

/**
 * Removes the worktree (its uncommitted changes too) through `git worktree remove --force`, prunes its
 * metadata when git left it (the folder was already gone), and deletes the branch when asked.
 */
export async function discardWorktree(rec: WorktreeRecord, opts: { deleteBranch: boolean }): Promise<void> {
  const repo = await folderRepo(rec.folder);
  const present = await fs.lstat(rec.path).then(
    () => true,
    () => false,
  );
  if (present) {
    try {
      await userGit(repo.commonDir, repo.folder, ["worktree", "remove", "--force", rec.path]);
    } catch (e) {
      if (e instanceof GitError) throw new WorktreeError(`Git could not remove the worktree ${rec.path}: ${gitReason(e.stderr)}.`);
      throw e;
    }
  }
  if (await worktreeAdminDir(rec)) await userGit(repo.commonDir, repo.folder, ["worktree", "prune"]);
  if (await worktreeAdminDir(rec))
    throw new WorktreeError(`Git kept the metadata of the worktree ${rec.path}; it is locked or still in use.`);
  if (!opts.deleteBranch || (await branchTip(rec)) === undefined) return;
  try {
    await userGit(repo.commonDir, repo.folder, ["branch", "-D", "--", rec.branch]);
  } catch (e) {
    if (e instanceof GitError) throw new WorktreeError(`Git could not delete the branch ${rec.branch}: ${gitReason(e.stderr)}.`);
    throw e;
  }
}
