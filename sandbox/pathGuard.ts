// Path guard for the file tools (reference/sandbox.md §1.5). Resolves a model-supplied path the
// way the kernel would — component by component from the real filesystem root, following every
// symlink (dangling ones too) — and only then decides whether it lies inside a root. Never uses
// path.resolve/join on the raw input: they fold `link/..` lexically, the kernel does not.
import * as fs from "node:fs";
import * as path from "node:path";
import { gitProtection } from "./gitMeta";

export type PathGuardErrorCode = "NUL" | "ELOOP" | "EMPTY" | "INVALID" | "NOTDIR";

export class PathGuardError extends Error {
  constructor(
    readonly code: PathGuardErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "PathGuardError";
  }
}

const MAX_LINKS = 40;
const realRootCache = new Map<string, string>();
const foldCache = new Map<string, boolean>();

/** realpath of a root, cached (the root of a session does not move while it lives). */
export function realRoot(root: string): string {
  let real = realRootCache.get(root);
  if (real === undefined) {
    real = fs.realpathSync.native(root);
    if (realRootCache.size > 1000) realRootCache.clear();
    realRootCache.set(root, real);
  }
  return real;
}

function splitComponents(p: string): string[] {
  return p.split(/[\\/]+/).filter((c) => c.length > 0);
}

function fsRootOf(p: string): string {
  return path.parse(p).root || path.sep;
}

function childOf(cur: string, name: string): string {
  return cur.endsWith(path.sep) ? cur + name : cur + path.sep + name;
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/**
 * Canonical form of an absolute path as the kernel would resolve it; missing trailing components
 * are kept as spelled (with `..` inside the missing tail resolved against the last real directory).
 */
export function canonicalize(absolute: string): string {
  if (absolute.includes("\0")) throw new PathGuardError("NUL", "The path contains a NUL byte.");
  if (!path.isAbsolute(absolute)) throw new PathGuardError("INVALID", `Not an absolute path: ${absolute}`);
  let cur = fsRootOf(absolute);
  let rest = splitComponents(absolute.slice(cur.length));
  let links = 0;
  while (rest.length > 0) {
    const name = rest.shift() as string;
    if (name === ".") continue;
    if (name === "..") {
      cur = path.dirname(cur);
      continue;
    }
    const next = childOf(cur, name);
    let st: fs.Stats;
    try {
      st = fs.lstatSync(next);
    } catch (err) {
      if (!isMissing(err)) throw err;
      const tail = [name, ...rest];
      if (!tail.includes("..")) return tail.reduce(childOf, cur);
      // Nothing below `cur` exists, so the tail is purely lexical: fold its `..` and walk again.
      rest = splitComponents(path.posix.normalize(tail.join("/")));
      continue;
    }
    if (st.isSymbolicLink()) {
      if (++links > MAX_LINKS) throw new PathGuardError("ELOOP", "Too many levels of symbolic links.");
      const target = fs.readlinkSync(next);
      const restart = path.isAbsolute(target) ? target : cur + path.sep + target;
      cur = fsRootOf(restart);
      rest = [...splitComponents(restart.slice(cur.length)), ...rest];
      continue;
    }
    if (!st.isDirectory() && rest.length > 0 && rest.some((c) => c !== "." && c !== "..")) {
      throw new PathGuardError("NOTDIR", `Not a directory: ${next}`);
    }
    cur = next;
  }
  return cur;
}

/** Does this root's filesystem fold case? (stat the root's name with its case flipped.) */
function foldsCase(real: string): boolean {
  if (process.platform === "win32") return true;
  let cached = foldCache.get(real);
  if (cached !== undefined) return cached;
  cached = false;
  const base = path.basename(real);
  const flipped = [...base].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join("");
  if (flipped !== base) {
    try {
      const a = fs.statSync(real);
      const b = fs.statSync(path.join(path.dirname(real), flipped));
      cached = a.dev === b.dev && a.ino === b.ino;
    } catch {
      cached = false;
    }
  }
  foldCache.set(real, cached);
  return cached;
}

function fold(p: string, insensitive: boolean): string {
  let out = process.platform === "darwin" ? p.normalize("NFC") : p;
  if (insensitive) out = out.toLowerCase();
  return out;
}

/** Separator-aware containment of a canonical path in a real root. */
export function isInside(real: string, rootReal: string): boolean {
  const insensitive = foldsCase(rootReal);
  const rel = path.relative(fold(rootReal, insensitive), fold(real, insensitive));
  if (rel === "") return true;
  return rel !== ".." && !rel.startsWith(".." + path.sep) && !path.isAbsolute(rel);
}

export interface GuardedPath {
  /** What the model wrote. */
  readonly input: string;
  /** Canonical target: always operate on this, never on the input. */
  readonly real: string;
  /** The first of the given roots that contains it, or null. */
  readonly within: string | null;
  readonly exists: boolean;
  /** The absolute path as spelled (before any symlink is followed): what a name-based check must see too. */
  readonly spelled: string;
  /**
   * Why writing here is never silent (git would execute code from it: a git dir's config or
   * hooks, or anything under a `.git` entry), or null. The policy decides what to do with it.
   */
  readonly protected: string | null;
}

/**
 * Resolve `input` (relative to `base`, which must be a real directory — the session root) and
 * report which of `roots` contains it. Relative inputs are appended as a string, never joined.
 */
export function guardPath(input: string, base: string, roots: readonly string[]): GuardedPath {
  if (input.includes("\0")) throw new PathGuardError("NUL", "The path contains a NUL byte.");
  if (input.trim() === "") throw new PathGuardError("EMPTY", "The path is empty.");
  if (process.platform === "win32" && /^[^\\/]*:|[\\/][^\\/]*:/.test(input.replace(/^[a-zA-Z]:/, ""))) {
    throw new PathGuardError("INVALID", "Paths with ':' (alternate data streams) are not allowed.");
  }
  const baseReal = realRoot(base);
  const absolute = path.isAbsolute(input) ? input : baseReal + path.sep + input;
  const real = canonicalize(absolute);
  let within: string | null = null;
  for (const r of roots) {
    let rr: string;
    try {
      rr = realRoot(r);
    } catch {
      continue;
    }
    if (isInside(real, rr)) {
      within = r;
      break;
    }
  }
  return { input, real, within, exists: fs.existsSync(real), spelled: absolute, protected: gitProtection(real, absolute) };
}

/** True when an existing regular file has other hard links (writing through it could alter an outside file). */
export function hasOtherHardLinks(real: string): boolean {
  try {
    const st = fs.lstatSync(real);
    return st.isFile() && st.nlink > 1;
  } catch {
    return false;
  }
}
