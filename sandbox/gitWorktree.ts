// Worktree mode of the git plan (I-122). A session whose root is a linked worktree (`git worktree
// add -b <branch> <path>`) outside its repository keeps its own git dir and everything a commit
// writes in the shared repository's git dir C, which lies outside the root and so is read-only to
// a confined command. For a GENUINE linked worktree only, the plan (gitPlan.ts) grants what a
// commit on its branch needs: `C/objects`, `C/refs`, `C/logs` and the worktree's own git dir
// `C/worktrees/<id>` (bound onto itself, so it cannot be renamed or replaced), minus that git
// dir's `commondir`, `gitdir` and `config.worktree` (read-only; the last masked when missing) and
// its submodules' git dirs (`modules/`, read-only). `C` itself (`HEAD`, `index`, `config`,
// `packed-refs`, `hooks/`, no new top-level entry), the other worktrees' git dirs, the loose refs of
// the branches other working trees have checked out, and every working tree stay read-only.
//
// Genuine means, checked anew for every command from the host's view of the disk (a forged pointer
// leaves the plan as it is without this mode):
// - `<root>/.git` is a regular file (not a symlink) `gitdir: G`;
// - G, resolved by the kernel (realpath(3), so `link/..` goes where the kernel goes), is exactly
//   `C/worktrees/<id>`, where C is the realpath of `G/commondir` (a regular file) read against G;
// - C is a git dir with real `objects/` and `refs/` dirs, not itself a linked one (no `commondir`);
// - `G/gitdir` (a regular file) names, after realpath, this root's `.git`;
// - C (and so G) and the root are disjoint: neither lies inside the other.
// So a `.git` an agent writes in an ordinary folder, pointing at a dir it crafted (in the folder,
// its temp area) whose `commondir` names another repository, grants nothing: a crafted G is not
// `C/worktrees/<id>` of that repository, and a genuine `C/worktrees/<id>` of it names another
// worktree's `.git`. The grants are paths; the backends bind them by verified descriptor
// (bindFds.ts) or name them in their rules, and refuse them near a dir they mask (`clearOfMasks`).
import * as fs from "node:fs";
import * as path from "node:path";
import { isGitDir } from "./gitMeta";
import { isInside } from "./pathGuard";

/** A validated linked worktree: both paths real. */
export interface LinkedWorktree {
  /** The worktree's own git dir, `<commonDir>/worktrees/<id>`. */
  gitDir: string;
  /** The shared repository's git dir. */
  commonDir: string;
}

/** What worktree mode adds to a plan: all outside the root. */
export interface WorktreeGrants {
  /** Directories bound writable onto themselves, outermost first. */
  writable: string[];
  /** Existing entries inside them that stay read-only. */
  readOnly: string[];
  /** Missing files inside them masked read-only. */
  masked: string[];
}

/** Pointer files are a line; anything bigger is not one. */
const MAX_POINTER = 4096;

function lstat(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch {
    return null;
  }
}

function isRealDir(p: string): boolean {
  return lstat(p)?.isDirectory() === true;
}

/** The content of a small regular file, never through a symlink, or null. */
function readPointer(p: string): string | null {
  let fd: number;
  try {
    fd = fs.openSync(p, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.size > MAX_POINTER) return null;
    const buf = Buffer.alloc(MAX_POINTER + 1);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    return n > MAX_POINTER ? null : buf.subarray(0, n).toString("utf8");
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Where a pointer's path (`gitdir:`, `commondir`) leads from `base`, resolved as the kernel and git
 * resolve it: realpath(3) of the spelled path, never `path.resolve`, which folds `link/..` before
 * following `link`. Null when it leads nowhere.
 */
export function resolvePointer(base: string, named: string): string | null {
  if (named === "" || named.includes("\0")) return null;
  try {
    return fs.realpathSync.native(path.isAbsolute(named) ? named : `${base}${path.sep}${named}`);
  } catch {
    return null;
  }
}

/** The path a `.git` file names (`gitdir: <path>` on its first line), as git reads it. */
function gitdirLine(text: string): string | null {
  const first = text.split("\n")[0]?.replace(/\r$/, "") ?? "";
  return first.startsWith("gitdir: ") ? first.slice("gitdir: ".length).trim() : null;
}

/** The linked worktree `root` (real) is, validated as above, or null. */
export function linkedWorktreeOf(root: string): LinkedWorktree | null {
  const dotgit = path.join(root, ".git");
  const pointer = readPointer(dotgit);
  const named = pointer === null ? null : gitdirLine(pointer);
  const gitDir = named === null ? null : resolvePointer(root, named);
  if (!gitDir || !isRealDir(gitDir)) return null;
  const common = readPointer(path.join(gitDir, "commondir"));
  const commonDir = common === null ? null : resolvePointer(gitDir, common.trim());
  if (!commonDir || !isRealDir(commonDir) || !isGitDir(commonDir) || lstat(path.join(commonDir, "commondir"))) return null;
  if (path.dirname(gitDir) !== path.join(commonDir, "worktrees")) return null;
  if (!isRealDir(path.join(commonDir, "objects")) || !isRealDir(path.join(commonDir, "refs"))) return null;
  const back = readPointer(path.join(gitDir, "gitdir"));
  if (back === null || resolvePointer(gitDir, back.trim()) !== dotgit) return null;
  if (isInside(commonDir, root) || isInside(root, commonDir)) return null;
  return { gitDir, commonDir };
}

/**
 * The grants of worktree mode for `root`, or null when it is no genuine linked worktree (then the
 * plan is as without this mode). Side effect (as git does on its first reflog write): a common dir
 * without `logs/` gets an empty one, so there is a directory to bind.
 */
export function worktreeGrants(root: string): WorktreeGrants | null {
  const wt = linkedWorktreeOf(root);
  if (!wt) return null;
  const logs = path.join(wt.commonDir, "logs");
  if (!lstat(logs)) {
    try {
      fs.mkdirSync(logs);
    } catch {
      /* checked below */
    }
  }
  if (!isRealDir(logs)) return null;
  const grants: WorktreeGrants = {
    writable: ["objects", "refs", "logs"].map((n) => path.join(wt.commonDir, n)).concat(wt.gitDir),
    readOnly: [path.join(wt.gitDir, "commondir"), path.join(wt.gitDir, "gitdir")],
    masked: [],
  };
  const worktreeConfig = path.join(wt.gitDir, "config.worktree");
  const cfg = lstat(worktreeConfig);
  // A symlink could not be bound read-only (the link itself would stay replaceable): no mode then.
  if (cfg?.isSymbolicLink()) return null;
  if (cfg) grants.readOnly.push(worktreeConfig);
  else grants.masked.push(worktreeConfig);
  const modules = path.join(wt.gitDir, "modules");
  const mod = lstat(modules);
  if (mod?.isSymbolicLink()) return null;
  if (mod) grants.readOnly.push(modules);
  grants.readOnly.push(...checkedOutElsewhere(wt));
  return grants;
}

/**
 * The loose ref files of the branches the main working tree and the other worktrees have checked
 * out: read-only, so a commit here can move only refs no other working tree stands on (git updates
 * a ref by renaming a lock file onto it, which a read-only bind refuses). A branch kept only in
 * `packed-refs` has no file to bind; Landlock cannot express single files inside a granted tree.
 */
function checkedOutElsewhere(wt: LinkedWorktree): string[] {
  const heads = [path.join(wt.commonDir, "HEAD")];
  let ids: string[] = [];
  try {
    ids = fs.readdirSync(path.join(wt.commonDir, "worktrees"));
  } catch {
    /* none */
  }
  for (const id of ids) {
    const other = path.join(wt.commonDir, "worktrees", id);
    if (other !== wt.gitDir) heads.push(path.join(other, "HEAD"));
  }
  const out: string[] = [];
  for (const head of heads) {
    const m = /^ref: (refs\/heads\/[^\n]+)\n?$/.exec(readPointer(head) ?? "");
    const ref = m?.[1];
    if (!ref || ref.split("/").includes("..")) continue;
    const file = path.join(wt.commonDir, ...ref.split("/"));
    if (lstat(file)?.isFile() && isInside(file, path.join(wt.commonDir, "refs")) && !out.includes(file)) out.push(file);
  }
  return out;
}

/** Entries of a plan that lie outside `root` (worktree mode's grants). */
export function outsideRoot(paths: readonly string[], root: string): string[] {
  return paths.filter((p) => !isInside(p, root));
}

/**
 * The plan without its outside-root grants when one of them lies in or holds one of `masks` (dirs
 * the backend masks or replaces, e.g. the parent of the session temp areas, the data dir, bwrap's
 * `/tmp`): a bind there would re-expose what the mask hides. Everything inside the root stays.
 */
export function clearOfMasks<P extends WorktreeGrants>(plan: P, root: string, masks: readonly string[]): P {
  const near = plan.writable.some((w) => masks.some((m) => isInside(w, m) || isInside(m, w)));
  if (!near) return plan;
  const inRoot = (ps: readonly string[]): string[] => ps.filter((p) => isInside(p, root));
  return { ...plan, writable: [], readOnly: inRoot(plan.readOnly), masked: inRoot(plan.masked) };
}
