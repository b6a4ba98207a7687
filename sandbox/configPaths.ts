// Config that makes something run later or changes how the editor or Manifold behaves
// (I-112): protected like git metadata. The list is data, here only; names are compared the way a
// case-folding, NTFS or HFS+ filesystem would (`foldName`, as `isGitName` does). Three questions
// are answered from it: the file tools' "is this one path protected?" (`configProtection`), the
// bwrap/Seatbelt plan "which existing entries are bound read-only and pinned?" (`protectionPlan`,
// the git plan merged with this one), and the catch-and-hold's "which entries are watched?"
// (`watchedEntries`, snapshotted by `configSnapshot.ts`).
import * as fs from "node:fs";
import * as path from "node:path";
import { foldName } from "./gitMeta";
import { gitProtectionPlan, type GitProtection } from "./gitPlan";
import { canonicalize, isInside } from "./pathGuard";

/** Directories whose whole content the editor or an agent honours (folded spelling). */
export const CONFIG_DIRS: readonly string[] = [".vscode", ".devcontainer", ".claude", ".codex", ".gemini", ".opencode"];
/** File name endings the editor opens as configuration (folded spelling). */
export const CONFIG_FILE_SUFFIXES: readonly string[] = [".code-workspace"];
/** Extra protected paths a client may name per session (`_meta["manifold.dev/protectedPaths"]`). */
export const MAX_PROTECTED_PATHS = 64;

const WHY = "the editor and Manifold honour it outside the sandbox";

/** The protected kind a directory name stands for (`.vscode`), or null. */
export function configDirName(name: string): string | null {
  const n = foldName(name);
  return CONFIG_DIRS.includes(n) ? n : null;
}

/** The protected kind a file name stands for (`*.code-workspace`), or null. */
export function configFileName(name: string): string | null {
  const n = foldName(name);
  const suffix = CONFIG_FILE_SUFFIXES.find((s) => n.endsWith(s) && n.length > s.length);
  return suffix ? `*${suffix}` : null;
}

/** Is this top-level name of a folder watched (a config dir or a config file)? */
export function isConfigName(name: string): boolean {
  return configDirName(name) !== null || configFileName(name) !== null;
}

function componentsBelow(p: string, base: string): string[] {
  const rel = isInside(p, base) ? path.relative(base, p) : p;
  return rel.split(/[\\/]+/).filter((c) => c.length > 0);
}

function lstat(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch {
    return null;
  }
}

function canonicalOrNull(p: string): string | null {
  try {
    return canonicalize(p);
  } catch {
    return null;
  }
}

/** The client-named paths that count for a session: absolute, canonical, inside its root. */
export function extraInRoot(root: string, extra: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of extra.slice(0, MAX_PROTECTED_PATHS)) {
    if (!path.isAbsolute(p)) continue;
    const c = canonicalOrNull(p);
    if (c && c !== root && isInside(c, root) && !out.includes(c)) out.push(c);
  }
  return out;
}

/** Existing top-level config entries of the root (any spelling that folds to a protected name). */
export function topLevelConfig(root: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(root);
  } catch {
    return [];
  }
  return names
    .filter(isConfigName)
    .sort()
    .map((n) => path.join(root, n));
}

/** Entries the catch-and-hold watches: the root's top-level config entries and the extra paths. */
export function watchedEntries(root: string, extra: readonly string[]): string[] {
  const out = topLevelConfig(root);
  for (const p of extraInRoot(root, extra)) if (!out.some((o) => o === p || isInside(p, o))) out.push(p);
  return out;
}

/** Canonical targets of symlinks among the watched entries (a write there changes what the link shows). */
function linkTargets(root: string, extra: readonly string[], budget = 2000): string[] {
  const out: string[] = [];
  const visit = (p: string, depth: number): void => {
    if (--budget < 0 || depth > 16) return;
    const st = lstat(p);
    if (!st) return;
    if (st.isSymbolicLink()) {
      const t = canonicalOrNull(p);
      if (t && !out.includes(t)) out.push(t);
      return;
    }
    if (!st.isDirectory()) return;
    let names: string[] = [];
    try {
      names = fs.readdirSync(p);
    } catch {
      /* unreadable: nothing to follow */
    }
    for (const n of names) visit(path.join(p, n), depth + 1);
  };
  for (const p of watchedEntries(root, extra)) visit(p, 0);
  return out;
}

/**
 * Why a write to the canonical path `real` (reached through `spelled`) would change configuration
 * the editor or Manifold honours, or null. Inside `base` (the session root) only the components
 * below it count, so a folder that itself lives under `~/.claude/` is not protected as a whole.
 */
export function configProtection(real: string, spelled: string, base: string, extra: readonly string[] = []): string | null {
  for (const p of [spelled, real]) {
    const parts = componentsBelow(p, base);
    const dir = parts.map(configDirName).find((n) => n !== null);
    if (dir) return `editor/agent configuration (a \`${dir}\` entry): ${WHY}`;
    const file = parts.length > 0 ? configFileName(parts[parts.length - 1] ?? "") : null;
    if (file) return `editor/agent configuration (a \`${file}\` file): ${WHY}`;
  }
  for (const e of extraInRoot(base, extra))
    if (real === e || isInside(real, e)) return `a file a configured MCP server reads (${e}): Manifold honours it outside the sandbox`;
  for (const t of linkTargets(base, extra))
    if (real === t || isInside(real, t)) return `editor/agent configuration (the target of a symlink in a protected entry): ${WHY}`;
  return null;
}

/**
 * The config half of the command sandbox's plan: existing top-level config entries and extra paths
 * read-only (a read-only bind is a mount point too, so it cannot be renamed or removed), and the
 * directories between the root and an extra path pinned. A symlinked entry has its in-root target
 * bound instead (a bind follows the link); the link itself, like every missing path, is left to
 * the catch-and-hold.
 */
export function configProtectionPlan(root: string, extra: readonly string[] = []): GitProtection {
  const plan: GitProtection = { pinned: [], writable: [], readOnly: [], masked: [] };
  const readOnly = (p: string): void => {
    if (p !== root && isInside(p, root) && !plan.readOnly.includes(p)) plan.readOnly.push(p);
  };
  for (const p of topLevelConfig(root)) {
    const st = lstat(p);
    if (!st) continue;
    if (st.isSymbolicLink()) {
      const t = canonicalOrNull(p);
      if (t && lstat(t)) readOnly(t);
    } else readOnly(p);
  }
  for (const p of extraInRoot(root, extra)) {
    if (lstat(p)) readOnly(p);
    // Its directories stay where they are, so no rename can put another file at the protected name.
    for (let d = path.dirname(p); d !== root && isInside(d, root); d = path.dirname(d))
      if (lstat(d)?.isDirectory() && !plan.pinned.includes(d)) plan.pinned.push(d);
  }
  return plan;
}

/** One plan for a backend: git metadata (gitPlan.ts) and config, merged; pins inside a read-only path dropped. */
export function protectionPlan(root: string, extra: readonly string[] = []): GitProtection {
  const git = gitProtectionPlan(root);
  const config = configProtectionPlan(root, extra);
  const union = (a: string[], b: string[]): string[] => [...a, ...b.filter((p) => !a.includes(p))];
  const readOnly = union(git.readOnly, config.readOnly);
  const depth = (p: string): number => p.split(path.sep).length;
  return {
    pinned: union(git.pinned, config.pinned)
      .filter((d) => !readOnly.some((ro) => d === ro || isInside(d, ro)))
      .sort((a, b) => depth(a) - depth(b)),
    writable: git.writable,
    readOnly: readOnly.sort((a, b) => depth(a) - depth(b)),
    masked: union(git.masked, config.masked),
  };
}
