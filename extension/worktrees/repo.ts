// Which folders are offered worktree sessions, and the names a new one gets: the repository a folder
// is the top of, a branch name from the task and its checks, and where the worktree goes, a sibling
// folder `<parent>/<folder>.worktrees/<branch>` that is never inside the folder's working tree.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { GitError, GitMissingError } from "../checkpoints/git";
import { gitReason, probeGit, text, userGit } from "./userGit";

export interface RepoInfo {
  /** The folder's real path, the top of its working tree. */
  readonly topLevel: string;
  /** The repository's common git directory (shared by all its worktrees). */
  readonly commonDir: string;
  /** The full sha HEAD is at. */
  readonly head: string;
}

export type RepoLookup = ({ ok: true } & RepoInfo) | { ok: false; reason: string };

/** The repository `folder` is the top of, or why the folder is not offered worktree sessions. */
export async function repoOf(folder: string): Promise<RepoLookup> {
  const name = path.basename(folder) || folder;
  const no = (reason: string): RepoLookup => ({ ok: false, reason });
  let real: string;
  try {
    real = await fs.realpath(folder);
    if (!(await fs.stat(real)).isDirectory()) return no(`${name} is not a folder, so it has no worktrees.`);
  } catch {
    return no(`${name} does not exist, so it has no worktrees.`);
  }
  try {
    const kind = text(await probeGit(real, ["rev-parse", "--is-bare-repository", "--is-inside-git-dir"])).split("\n");
    if (kind[0] === "true") return no(`${name} is a bare git repository, so it has no working tree to start a worktree from.`);
    if (kind[1] === "true") return no(`${name} is inside a git directory, so it has no worktrees.`);
    const [topLevel = "", common = ""] = text(await probeGit(real, ["rev-parse", "--show-toplevel", "--git-common-dir"])).split("\n");
    if (path.resolve(topLevel) !== real) {
      return no(`${name} is a subfolder of the git repository ${topLevel}; worktree sessions start from the repository's top folder.`);
    }
    const commonDir = await fs.realpath(path.resolve(real, common));
    const head = await userGit(commonDir, real, ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], { okCodes: [1] });
    if (head.code !== 0) return no(`${name} has no commit yet, so there is nothing to start a worktree from.`);
    return { ok: true, topLevel: real, commonDir, head: text(head) };
  } catch (e) {
    if (e instanceof GitMissingError) return no(e.message);
    if (e instanceof GitError && /not a git repository/i.test(e.stderr))
      return no(`${name} is not a git repository, so it has no worktrees.`);
    if (e instanceof GitError && /dubious ownership/i.test(e.stderr)) {
      return no(`Git does not trust ${name} (it belongs to another user), so it has no worktrees.`);
    }
    if (e instanceof GitError) return no(`Git could not read ${name}: ${gitReason(e.stderr)}.`);
    throw e;
  }
}

const MAX_SLUG = 48;

/** A branch name suggested for a task: lower-case words joined by `-` ("Fix login bug!" → `fix-login-bug`). */
export function branchNameFor(task: string): string {
  const words = task
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  let slug = "";
  for (const w of words) {
    const next = slug ? `${slug}-${w}` : w;
    if (next.length > MAX_SLUG) {
      if (!slug) slug = w.slice(0, MAX_SLUG);
      break;
    }
    slug = next;
  }
  return slug || "worktree-session";
}

/** Why `name` cannot be the new worktree's branch in `repo`, or undefined when it can. */
export async function checkBranchName(repo: RepoInfo, name: string): Promise<string | undefined> {
  if (name.trim() === "") return "The branch name is empty.";
  const checked = await userGit(repo.commonDir, repo.topLevel, ["check-ref-format", "--branch", name], { okCodes: [1, 128] });
  if (checked.code !== 0 || text(checked) !== name) return `${name} is not a valid branch name.`;
  const listed = await userGit(repo.commonDir, repo.topLevel, ["for-each-ref", "--format=%(refname:strip=2)", "refs/heads/"]);
  const branches = new Set(text(listed).split("\n").filter(Boolean));
  if (branches.has(name)) return `The branch ${name} already exists.`;
  const parts = name.split("/");
  for (let i = 1; i < parts.length; i++) {
    const prefix = parts.slice(0, i).join("/");
    if (branches.has(prefix)) return `The branch ${name} cannot be made because a branch ${prefix} exists.`;
  }
  const under = [...branches].find((b) => b.startsWith(`${name}/`));
  if (under) return `The branch ${name} cannot be made because a branch ${under} exists.`;
  return undefined;
}

/** The worktrees' sibling folder of `folder`: `<parent>/<folder>.worktrees`. */
export function worktreesDirOf(folder: string): string {
  const abs = path.resolve(folder);
  if (path.dirname(abs) === abs) throw new Error(`${abs} has no parent folder to keep worktrees in.`);
  return path.join(path.dirname(abs), `${path.basename(abs)}.worktrees`);
}

/** A free path for `branch`'s worktree: `<parent>/<folder>.worktrees/<branch, / as ->`, then `-2`, `-3`, … when taken. */
export async function worktreePathFor(folder: string, branch: string): Promise<string> {
  const dir = worktreesDirOf(folder);
  const leaf = branch.replace(/\//g, "-");
  for (let n = 1; ; n++) {
    const candidate = path.join(dir, n === 1 ? leaf : `${leaf}-${n}`);
    try {
      await fs.lstat(candidate);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return candidate;
      throw e;
    }
  }
}
