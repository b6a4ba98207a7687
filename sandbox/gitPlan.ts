// Which git metadata a confined command must not change, found the way git
// finds it rather than by the name `.git`: `<root>/.git` may be a directory, a symlink to one, or a
// file `gitdir: <path>`; a git dir may name its common dir in `commondir` (linked worktrees);
// submodules keep their git dirs under `<gitdir>/modules/<name…>`; linked worktrees keep theirs
// under `<commondir>/worktrees/<id>`.
//
// Protected is what git would execute or be configured by: `hooks/`, `config`, `config.worktree`,
// `commondir`, and the `.git` pointer file. Objects, refs and the index stay writable, so `git
// commit` works inside. Each git dir and every directory between the root and it is "pinned"
// (bound onto itself): a mount point cannot be renamed or removed, so `mv .git .realgit`, `mv
// <parent-of-gitdir> x` or `mv .git/modules/sub x` fail with EBUSY and no command can rebuild the
// metadata under the name git will look at. The result is a plan; each backend turns it into its
// own rules (bwrap binds, a Seatbelt profile). A root that is a genuine linked worktree of a
// repository outside it also gets the share of that repository a commit needs, writable
// (`writable`, gitWorktree.ts, I-122); every other plan entry lies inside the root. Pointers
// (`gitdir:`, `commondir`) are resolved as the kernel and git resolve them, `link/..` included.
// (gitMeta.ts answers the file tools' question, "is this one path git metadata?"; both recognise
// a git dir with its `isGitDir`.)
import * as fs from "node:fs";
import * as path from "node:path";
import { isGitDir } from "./gitMeta";
import { resolvePointer, worktreeGrants } from "./gitWorktree";
import { isInside } from "./pathGuard";

export interface GitProtection {
  /** Directories inside the root to bind onto themselves (still writable), outermost first. */
  pinned: string[];
  /**
   * Directories OUTSIDE the root made writable, bound onto themselves: a genuine linked worktree's
   * own git dir and its repository's objects, refs and logs (gitWorktree.ts). Empty otherwise.
   */
  writable: string[];
  /** Existing files or directories inside the root, or inside a `writable` dir, to make read-only, outermost first. */
  readOnly: string[];
  /** Missing files (inside the root or a `writable` dir) to mask read-only with an empty file (git would read them if created). */
  masked: string[];
}

const MAX_MODULE_DEPTH = 8;

function lstat(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch {
    return null;
  }
}

function real(p: string): string | null {
  try {
    return fs.realpathSync(p);
  } catch {
    return null;
  }
}

function readText(p: string): string | null {
  try {
    return fs.readFileSync(p, "utf8");
  } catch {
    return null;
  }
}

/** The git dir `<root>/.git` designates, as git resolves it, and whether `.git` is a pointer file. */
export function gitDirOf(root: string): { gitDir: string; pointerFile: string | null; viaSymlink: boolean } | null {
  const dotgit = path.join(root, ".git");
  const st = lstat(dotgit);
  if (!st) return null;
  if (st.isFile()) {
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(readText(dotgit) ?? "");
    const target = m?.[1] ? resolvePointer(root, m[1]) : null;
    return target && lstat(target)?.isDirectory() ? { gitDir: target, pointerFile: dotgit, viaSymlink: false } : null;
  }
  const target = real(dotgit);
  if (!target || !fs.statSync(target).isDirectory()) return null;
  return { gitDir: target, pointerFile: null, viaSymlink: st.isSymbolicLink() };
}

/** Submodule git dirs below `<gitDir>/modules` (names may contain slashes, so nest). */
function moduleGitDirs(dir: string, depth = 0): string[] {
  if (depth > MAX_MODULE_DEPTH) return [];
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of names) {
    const d = path.join(dir, name);
    if (!lstat(d)?.isDirectory()) continue;
    if (isGitDir(d)) out.push(d);
    else out.push(...moduleGitDirs(d, depth + 1));
  }
  return out;
}

/** The plan being built for one root: it takes only paths inside the root, each once. */
class PlanBuilder {
  readonly plan: GitProtection = { pinned: [], writable: [], readOnly: [], masked: [] };
  constructor(private readonly root: string) {}

  inRoot(p: string): boolean {
    return p !== this.root && isInside(p, this.root);
  }

  pin(dir: string): void {
    // The dir and each ancestor up to the root: renaming any of them would move the metadata away.
    for (let d = dir; this.inRoot(d); d = path.dirname(d)) if (!this.plan.pinned.includes(d)) this.plan.pinned.push(d);
  }

  readOnly(p: string): void {
    if (this.inRoot(p) && !this.plan.readOnly.includes(p)) this.plan.readOnly.push(p);
  }

  mask(p: string): void {
    this.plan.masked.push(p);
  }

  /** Worktree mode's grants, all outside the root (gitWorktree.ts validated them). */
  grant(g: { writable: string[]; readOnly: string[]; masked: string[] }): void {
    this.plan.writable.push(...g.writable);
    this.plan.readOnly.push(...g.readOnly);
    this.plan.masked.push(...g.masked);
  }

  /** The plan, outermost first. */
  done(): GitProtection {
    const plan = this.plan;
    const depth = (p: string): number => p.split(path.sep).length;
    // Pins inside a wholly read-only git dir would make parts of it writable again.
    plan.pinned = plan.pinned.filter((d) => !plan.readOnly.some((ro) => isInside(d, ro))).sort((a, b) => depth(a) - depth(b));
    plan.writable.sort((a, b) => depth(a) - depth(b));
    plan.readOnly.sort((a, b) => depth(a) - depth(b));
    return plan;
  }
}

/**
 * The protection plan for a workspace-write root. Only paths inside `root` are listed (everything
 * else is read-only already), but for a genuine linked worktree's grants. Side effect (as `git
 * init` does): an in-root git dir without `hooks/` gets an empty one, so there is a directory to
 * bind (and a worktree's common dir without `logs/` an empty one).
 */
export function gitProtectionPlan(root: string): GitProtection {
  const b = new PlanBuilder(root);
  const first = gitDirOf(root);
  if (!first) return b.plan;
  if (first.pointerFile) b.readOnly(first.pointerFile);
  const grants = first.pointerFile ? worktreeGrants(root) : null;
  if (grants) b.grant(grants);

  const seen = new Set<string>();
  const queue = [first.gitDir];
  while (queue.length > 0) {
    const gitDir = queue.shift() ?? "";
    if (seen.has(gitDir)) continue;
    seen.add(gitDir);
    if (!b.inRoot(gitDir)) {
      // Outside the root it is read-only already, but its common dir may lie inside.
      const common = readText(path.join(gitDir, "commondir"));
      const c = common ? resolvePointer(gitDir, common.trim()) : null;
      if (c) queue.push(c);
      continue;
    }
    queue.push(...protectGitDir(b, gitDir));
  }
  return b.done();
}

/** One git dir inside the root: pinned, what git runs or reads protected. Returns the git dirs it leads to (common dir, submodules). */
function protectGitDir(b: PlanBuilder, gitDir: string): string[] {
  b.pin(gitDir);
  const hooks = path.join(gitDir, "hooks");
  const config = path.join(gitDir, "config");
  // A symlinked hooks dir or config could be swapped for a new one (a bind follows the link, the
  // link itself stays writable): make the whole git dir read-only instead.
  // The link targets (when inside the root) are made read-only as well.
  if (lstat(hooks)?.isSymbolicLink() || lstat(config)?.isSymbolicLink()) {
    b.readOnly(gitDir);
    for (const p of [hooks, config]) {
      const target = real(p);
      if (target) b.readOnly(target);
    }
    return [];
  }
  if (!lstat(hooks)) {
    try {
      fs.mkdirSync(hooks);
    } catch {
      /* masked below */
    }
  }
  if (lstat(hooks)) b.readOnly(hooks);
  else b.mask(hooks);
  if (lstat(config)) b.readOnly(config);
  else b.mask(config);
  // config.worktree is read only with extensions.worktreeConfig; then a missing one is masked.
  const worktreeConfigOn = /worktreeconfig/i.test(readText(config) ?? "");
  const protectWorktreeConfig = (dir: string): void => {
    const f = path.join(dir, "config.worktree");
    if (lstat(f)) b.readOnly(f);
    else if (worktreeConfigOn && b.inRoot(f)) b.mask(f);
  };
  protectWorktreeConfig(gitDir);
  const next: string[] = [];
  const commondir = path.join(gitDir, "commondir");
  if (lstat(commondir)) {
    b.readOnly(commondir);
    const c = resolvePointer(gitDir, (readText(commondir) ?? "").trim());
    if (c) next.push(c);
  }
  next.push(...moduleGitDirs(path.join(gitDir, "modules")));
  protectWorktrees(b, gitDir, protectWorktreeConfig);
  return next;
}

/** Linked worktrees' own git dirs: per-worktree config.worktree and their commondir pointer. */
function protectWorktrees(b: PlanBuilder, gitDir: string, protectWorktreeConfig: (dir: string) => void): void {
  let ids: string[] = [];
  try {
    ids = fs.readdirSync(path.join(gitDir, "worktrees"));
  } catch {
    /* none */
  }
  for (const id of ids) {
    const wt = path.join(gitDir, "worktrees", id);
    if (!lstat(wt)?.isDirectory()) continue;
    b.pin(wt);
    for (const f of ["commondir", "gitdir"]) if (lstat(path.join(wt, f))) b.readOnly(path.join(wt, f));
    protectWorktreeConfig(wt);
  }
}
