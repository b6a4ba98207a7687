// Snapshot and diff of a folder's protected config (I-112), for the catch-and-hold of commands that
// create or change it by a route no bind can block in advance (a path that does not exist yet, a
// backend without binds). Records what `configPaths.watchedEntries` names — the root's top-level
// config entries and the client's extra paths — walked recursively within a bound: type, size,
// mtime, inode, mode, a symlink's target and the content of small files (what a restore needs).
// Pure apart from reading the disk; the hold itself lives in agent-server/tools/configHold.ts.
import * as fs from "node:fs";
import * as path from "node:path";
import { watchedEntries } from "./configPaths";

export interface EntryState {
  type: "file" | "dir" | "symlink" | "other";
  size: number;
  mtimeMs: number;
  ino: number;
  mode: number;
  /** Small regular files only (see `SnapshotLimits.maxFileBytes`). */
  content?: Buffer;
  link?: string;
}

export interface ConfigSnapshot {
  root: string;
  /** Keyed by the path relative to the root (`/`-separated on POSIX as the platform spells it). */
  entries: Map<string, EntryState>;
  /** The walk stopped at a bound: entries beyond it are not recorded (and a diff may miss them). */
  truncated: boolean;
}

export interface SnapshotLimits {
  maxEntries: number;
  maxDepth: number;
  maxFileBytes: number;
  maxTotalBytes: number;
}

export const DEFAULT_SNAPSHOT_LIMITS: SnapshotLimits = {
  maxEntries: 2000,
  maxDepth: 16,
  maxFileBytes: 256 * 1024,
  maxTotalBytes: 8 * 1024 * 1024,
};

export interface ConfigChange {
  rel: string;
  kind: "created" | "changed" | "removed";
  before?: EntryState;
  after?: EntryState;
}

function typeOf(st: fs.Stats): EntryState["type"] {
  return st.isSymbolicLink() ? "symlink" : st.isDirectory() ? "dir" : st.isFile() ? "file" : "other";
}

interface Budget {
  entries: number;
  bytes: number;
  truncated: boolean;
}

function record(abs: string, rel: string, depth: number, out: Map<string, EntryState>, b: Budget, lim: SnapshotLimits): void {
  if (b.entries >= lim.maxEntries || depth > lim.maxDepth) {
    b.truncated = true;
    return;
  }
  let st: fs.Stats;
  try {
    st = fs.lstatSync(abs);
  } catch {
    return;
  }
  b.entries++;
  const e: EntryState = { type: typeOf(st), size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, mode: st.mode & 0o7777 };
  if (e.type === "symlink") {
    try {
      e.link = fs.readlinkSync(abs);
    } catch {
      /* vanished */
    }
  } else if (e.type === "file" && st.size <= lim.maxFileBytes && b.bytes + st.size <= lim.maxTotalBytes) {
    try {
      const fd = fs.openSync(abs, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | (fs.constants.O_NONBLOCK ?? 0));
      try {
        const buf = Buffer.alloc(st.size);
        const n = fs.readSync(fd, buf, 0, st.size, 0);
        e.content = buf.subarray(0, n);
        b.bytes += n;
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      /* unreadable: recorded without content */
    }
  }
  out.set(rel, e);
  if (e.type !== "dir") return;
  let names: string[];
  try {
    names = fs.readdirSync(abs).sort();
  } catch {
    return;
  }
  for (const n of names) record(path.join(abs, n), path.join(rel, n), depth + 1, out, b, lim);
}

/** The protected config of `root` now (`extra`: the session's client-named paths). */
export function takeSnapshot(root: string, extra: readonly string[] = [], lim: SnapshotLimits = DEFAULT_SNAPSHOT_LIMITS): ConfigSnapshot {
  const entries = new Map<string, EntryState>();
  const b: Budget = { entries: 0, bytes: 0, truncated: false };
  for (const abs of watchedEntries(root, extra)) record(abs, path.relative(root, abs), 0, entries, b, lim);
  return { root, entries, truncated: b.truncated };
}

/** Re-record `reals` (and what lies below them) in place: a write the user approved is the new baseline. */
export function refreshPaths(snap: ConfigSnapshot, reals: readonly string[], lim: SnapshotLimits = DEFAULT_SNAPSHOT_LIMITS): void {
  for (const real of reals) {
    const rel = path.relative(snap.root, real);
    if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) continue;
    for (const k of [...snap.entries.keys()]) if (k === rel || k.startsWith(rel + path.sep)) snap.entries.delete(k);
    const b: Budget = { entries: snap.entries.size, bytes: 0, truncated: false };
    record(real, rel, 0, snap.entries, b, lim);
    snap.truncated ||= b.truncated;
  }
}

function sameEntry(a: EntryState, b: EntryState): boolean {
  if (a.type !== b.type || a.mode !== b.mode) return false;
  // Same recorded bytes: the same file to whoever reads it (an atomic rewrite changes only the inode).
  if (a.type === "file" && a.content && b.content) return a.content.equals(b.content);
  if (a.ino !== b.ino) return false;
  if (a.type === "dir") return true; // a child's change is its own entry; the dir's mtime follows it
  if (a.type === "symlink") return a.link === b.link;
  return a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/** Is `rel` below (not at) `dir`? */
function below(rel: string, dir: string): boolean {
  return rel.startsWith(dir + path.sep);
}

/**
 * What changed from `a` to `b`, topmost only: below a created, removed or replaced entry (another
 * type or inode) nothing more is listed, since the hold moves and restores that entry whole.
 */
export function diffSnapshots(a: ConfigSnapshot, b: ConfigSnapshot): ConfigChange[] {
  const all: ConfigChange[] = [];
  for (const [rel, after] of b.entries) {
    const before = a.entries.get(rel);
    if (!before) all.push({ rel, kind: "created", after });
    else if (!sameEntry(before, after)) all.push({ rel, kind: "changed", before, after });
  }
  for (const [rel, before] of a.entries) if (!b.entries.has(rel)) all.push({ rel, kind: "removed", before });
  all.sort((x, y) => x.rel.length - y.rel.length || (x.rel < y.rel ? -1 : 1));
  const whole = (c: ConfigChange): boolean => c.kind !== "changed" || c.before?.type !== c.after?.type || c.before?.ino !== c.after?.ino;
  const out: ConfigChange[] = [];
  for (const c of all) if (!out.some((o) => whole(o) && below(c.rel, o.rel))) out.push(c);
  return out;
}

/** The recorded entries at and below `rel`, parents first (what restoring `rel` recreates). */
export function subtree(snap: ConfigSnapshot, rel: string): Array<[string, EntryState]> {
  return [...snap.entries].filter(([k]) => k === rel || below(k, rel)).sort(([x], [y]) => x.length - y.length || (x < y ? -1 : 1));
}
