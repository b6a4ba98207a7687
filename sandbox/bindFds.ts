// Binds by verified descriptor (I-112, the bind race). The git plan names directories inside the
// session root, which a concurrent command (a background task, another session whose folder
// contains this one) may swap for a symlink at any moment. A bind by path follows such a link when
// bubblewrap resolves its sources, and would mount an OUTSIDE directory writable. So every bind
// source is opened here as an O_PATH|O_NOFOLLOW descriptor, walking component by component from
// `/` (on Linux `/proc/self/fd/<dirfd>/<name>` gives openat semantics, as in safeWrite.ts), and is
// checked to be the expected type still at the planned path; a symlink or anything else where the
// plan had a directory or file refuses the command. bwrap gets the descriptors (`--bind-fd N DEST`)
// and, after mounting, compares what DEST names with the descriptor (dev/inode) and dies on a
// mismatch. That alone is not enough: bwrap resolves the descriptor back to a path before it
// mounts, so a swap there and back can mount an outside directory at a symlink's target and still
// pass; the mount check (mountCheck.ts) refuses such a sandbox before the command runs.
//
// Descriptors reach the child as extra stdio: `fds[i]` is the child's fd `3 + i`. A WrappedCommand
// that carries them is single-use; its spawner closes them once spawn() returned, whatever happened
// (`releaseDescriptors`).
import * as fs from "node:fs";
import * as path from "node:path";
import { hasProcFd } from "./safeWrite";
import type { WrappedCommand } from "./types";

/** The child's fd number of the first descriptor (0–2 are stdio). */
export const FIRST_CHILD_FD = 3;

/** Linux's O_PATH (the same value on every architecture Node runs on); Node does not export it. */
const O_PATH = (fs.constants as { O_PATH?: number }).O_PATH ?? 0o10000000;
const { O_DIRECTORY, O_NOFOLLOW, O_RDONLY } = fs.constants;

export class BindChangedError extends Error {
  constructor(
    readonly path: string,
    why: string,
  ) {
    super(
      `Refusing to run the command: ${path} changed while its sandbox was being set up (${why}). ` +
        "A directory the sandbox binds was replaced, e.g. by a symlink; nothing ran.",
    );
    this.name = "BindChangedError";
  }
}

/** What a bind source must be: a directory, anything but a symlink (read-only binds), the null device (masks). */
export type BindKind = "dir" | "not-symlink" | "char-device";

function errCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

function kindOf(st: fs.Stats): string {
  if (st.isSymbolicLink()) return "a symlink";
  if (st.isDirectory()) return "a directory";
  if (st.isFile()) return "a file";
  return "a special file";
}

function matches(st: fs.Stats, kind: BindKind): boolean {
  if (kind === "dir") return st.isDirectory();
  if (kind === "char-device") return st.isCharacterDevice();
  return !st.isSymbolicLink();
}

export function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    /* already closed */
  }
}

/** The components of a canonical absolute path. */
function components(real: string): string[] {
  if (!path.isAbsolute(real) || path.normalize(real) !== real) throw new BindChangedError(real, "not a canonical path");
  return real.split(path.sep).filter((c) => c.length > 0);
}

/**
 * Opens `real` from `/` without following any symlink: every directory O_PATH|O_DIRECTORY|O_NOFOLLOW,
 * the last component O_PATH|O_NOFOLLOW (a symlink there opens as itself and fails the type check).
 * Returns the descriptor of the last component; nothing else stays open.
 */
function openNoFollow(real: string, kind: BindKind): number {
  if (!hasProcFd()) throw new Error("Binding by descriptor needs Linux with /proc mounted.");
  const parts = components(real);
  let fd = fs.openSync("/", O_PATH | O_DIRECTORY);
  try {
    parts.forEach((name, i) => {
      const last = i === parts.length - 1;
      const next = fs.openSync(`/proc/self/fd/${fd}/${name}`, O_PATH | O_NOFOLLOW | (last ? 0 : O_DIRECTORY));
      fs.closeSync(fd);
      fd = next;
    });
    const st = fs.fstatSync(fd);
    if (!matches(st, kind)) throw new BindChangedError(real, `it is now ${kindOf(st)}`);
    // Opened without following a link, so it is at `real` unless renamed meanwhile: then refuse too.
    const at = fs.readlinkSync(`/proc/self/fd/${fd}`);
    if (at !== real) throw new BindChangedError(real, `it moved to ${at}`);
    return fd;
  } catch (err) {
    closeQuietly(fd);
    const c = errCode(err);
    if (c === "ELOOP" || c === "ENOTDIR") throw new BindChangedError(real, "a component is no longer a directory");
    if (c === "ENOENT") throw new BindChangedError(real, "it no longer exists");
    throw err;
  }
}

/** The descriptors of one command under construction; `take()` hands them over, `close()` on failure. */
export class BindFds {
  #fds: number[] = [];

  #add(fd: number): number {
    this.#fds.push(fd);
    return FIRST_CHILD_FD + this.#fds.length - 1;
  }

  /** A verified descriptor of the canonical path `real`; returns the fd number the child will see it at. */
  open(real: string, kind: BindKind): number {
    return this.#add(openNoFollow(real, kind));
  }

  /** A file read by the child through its fd (the seccomp filter): opened read-only, never through a symlink. */
  openForReading(file: string): number {
    return this.#add(fs.openSync(file, O_RDONLY | O_NOFOLLOW));
  }

  /**
   * Fails unless the missing file `real` (a mask target) can be masked where the plan saw it: every
   * directory above it is still a directory (no symlink), and it is still missing or a regular file.
   */
  checkMaskTarget(real: string): void {
    const dir = openNoFollow(path.dirname(real), "dir");
    try {
      const st = fs.lstatSync(`/proc/self/fd/${dir}/${path.basename(real)}`, { throwIfNoEntry: false });
      if (st && !st.isFile()) throw new BindChangedError(real, `it is now ${kindOf(st)}`);
    } finally {
      fs.closeSync(dir);
    }
  }

  /** The descriptors, once: from now on the WrappedCommand (its spawner) owns them. */
  take(): number[] {
    const out = this.#fds;
    this.#fds = [];
    return out;
  }

  close(): void {
    for (const fd of this.take()) closeQuietly(fd);
  }
}

/** Closes a wrapped command's descriptors (after spawn, or for one that will not be spawned). Idempotent. */
export function releaseDescriptors(cmd: WrappedCommand): void {
  for (const fd of cmd.fds?.splice(0) ?? []) closeQuietly(fd);
}
