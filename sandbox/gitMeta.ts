// Classifies paths git would execute code from. `core.fsmonitor`,
// `core.hooksPath`, aliases and hooks all come from a git dir's config or hooks, so a write into
// any git dir must never be silent. A git dir is recognised the way git recognises one (HEAD plus
// objects+refs, or a commondir), whatever its name — a `.git` symlink target, a `gitdir:` file's
// target, `.git/modules/<m>`, `.git/worktrees/<w>`, a bare repo — and, by name, anything under a
// `.git` entry (so a git dir being assembled file by file is covered before it is complete).
import * as fs from "node:fs";
import * as path from "node:path";

// Code points HFS+ ignores and NTFS trailing dots/spaces: `.g\u200cit` and `.git.` are `.git` there.
const IGNORABLE = /[\u200b-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

/** A name as a case-folding, NTFS or HFS+ filesystem would compare it (ignorable code points and trailing dots/spaces dropped). */
export function foldName(name: string): string {
  return name
    .replace(IGNORABLE, "")
    .replace(/[. ]+$/, "")
    .toLowerCase();
}

/** Would a filesystem (case-folding, NTFS or HFS+) treat this name as `.git`? */
export function isGitName(name: string): boolean {
  const n = foldName(name);
  return n === ".git" || n === "git~1";
}

function exists(p: string, dir: boolean): boolean {
  try {
    const st = fs.statSync(p);
    return dir ? st.isDirectory() : st.isFile();
  } catch {
    return false;
  }
}

/**
 * Is `dir` a git dir once `rel` (the path being written below it, `/`-separated) exists?
 * Counting the write itself catches the write that would complete a git dir.
 */
function isGitDirAfter(dir: string, rel: string): boolean {
  const first = rel.split("/")[0] ?? "";
  const head = first === "HEAD" || exists(path.join(dir, "HEAD"), false);
  if (!head) return false;
  if (first === "commondir" || exists(path.join(dir, "commondir"), false)) return true;
  const objects = first === "objects" || exists(path.join(dir, "objects"), true);
  const refs = first === "refs" || exists(path.join(dir, "refs"), true);
  return objects && refs;
}

/** Is `dir` a git dir now (HEAD plus objects+refs, or a commondir)? */
export function isGitDir(dir: string): boolean {
  return isGitDirAfter(dir, "");
}

/**
 * Why a write to the canonical path `real` (reached through `spelled`, the path as given, so a
 * `.git` symlink is seen) would change what git executes, or null. Walks every ancestor to `/`.
 */
export function gitProtection(real: string, spelled: string = real): string | null {
  const named = [...spelled.split(/[\\/]+/), ...real.split(/[\\/]+/)].some(isGitName);
  if (named) return "git metadata (a `.git` entry)";
  let dir = path.dirname(real);
  let rel = path.basename(real);
  for (;;) {
    if (isGitDirAfter(dir, rel)) return `git metadata (the git directory ${dir})`;
    const up = path.dirname(dir);
    if (up === dir) return null;
    rel = `${path.basename(dir)}/${rel}`;
    dir = up;
  }
}
