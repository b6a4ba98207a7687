// A repository with one commit and two linked worktrees outside its working tree, laid out as
// Manifold's worktree sessions will be (`<parent>/<repo>.worktrees/<slug>`, made with
// `git worktree add -b <branch> <path> HEAD`). Host git runs with an isolated config.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

/** Host git with an isolated config (no system/global settings leak in or out). */
export const GIT_ENV = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@t",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@t",
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "safe.directory=*", ...args], { cwd, env: GIT_ENV, stdio: ["ignore", "pipe", "pipe"] }).toString();
}

export interface WorktreeRepo {
  /** The main working tree. */
  main: string;
  /** Its git dir (the worktrees' common dir), real. */
  common: string;
  /** The first linked worktree (branch `task`) and its own git dir. */
  wt: string;
  wtGitDir: string;
  /** The second linked worktree (branch `other`) and its own git dir. */
  other: string;
  otherGitDir: string;
}

/** Builds the repository under `base` (real, outside /tmp), named `name`. */
export function makeWorktreeRepo(base: string, name: string): WorktreeRepo {
  const main = path.join(base, name);
  fs.mkdirSync(main, { recursive: true });
  git(main, "init", "-q", "-b", "main");
  fs.writeFileSync(path.join(main, "f.txt"), "1\n");
  git(main, "add", "f.txt");
  git(main, "commit", "-qm", "init");
  const wt = path.join(base, `${name}.worktrees`, "task");
  const other = path.join(base, `${name}.worktrees`, "other");
  git(main, "worktree", "add", "-q", "-b", "task", wt, "HEAD");
  git(main, "worktree", "add", "-q", "-b", "other", other, "HEAD");
  const common = fs.realpathSync(path.join(main, ".git"));
  const gitDirOf = (w: string): string => {
    const line = fs.readFileSync(path.join(w, ".git"), "utf8").trim();
    return fs.realpathSync(line.replace(/^gitdir: /, ""));
  };
  return { main, common, wt, wtGitDir: gitDirOf(wt), other, otherGitDir: gitDirOf(other) };
}

/** The commit a branch points at, as the host sees it. */
export function branchHead(repo: WorktreeRepo, branch: string): string {
  return git(repo.main, "rev-parse", `refs/heads/${branch}`).trim();
}
