// Race-free, atomic file writes for the file tools. A background
// command in the same folder may swap any directory for a symlink at any moment, so nothing is
// resolved by path after the check: every component of the (canonical) target is opened from the
// filesystem root with O_DIRECTORY|O_NOFOLLOW relative to the directory fd before it — on Linux
// `/proc/self/fd/<dirfd>/<name>` gives openat semantics — missing directories are created through
// the verified parent fd, and the content goes to a temp file in the verified directory that is
// renamed over the target. A symlink where the canonical path had a directory means the path
// changed since the check: the write is refused and nothing is created. The rename also breaks a
// hard link instead of writing through it, and a SIGKILL mid-write leaves the old file intact.
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { describeKind, NotRegularFileError } from "./fileRead";
import { ignoreError } from "../base/errors";

export class PathChangedError extends Error {
  constructor(readonly path: string) {
    super(`The path ${path} changed while it was being written; nothing was written.`);
    this.name = "PathChangedError";
  }
}

export interface AtomicWriteOptions {
  /** Create missing parent directories (through the verified fds). */
  mkdirs?: boolean;
  /** Test hook: runs after the parent directory is verified, before anything is created in it. */
  beforeCreate?: () => void;
  /** Test hook: runs after the temp file is written, before the rename. */
  beforeRename?: () => void;
}

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_WRONLY, O_CREAT, O_EXCL } = fs.constants;
const DIR_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW;
const TEMP_FLAGS = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW;

let procFd: boolean | undefined;
/** `/proc/self/fd/<n>/<name>` resolves relative to an open directory (Linux with /proc mounted). */
export function hasProcFd(): boolean {
  procFd ??= process.platform === "linux" && fs.existsSync("/proc/self/fd");
  return procFd;
}

function code(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

function components(real: string): string[] {
  if (!path.isAbsolute(real)) throw new Error(`Not an absolute path: ${real}`);
  const parts = real
    .slice(path.parse(real).root.length)
    .split(path.sep)
    .filter((c) => c.length > 0);
  if (parts.length === 0 || parts.some((c) => c === "." || c === "..")) throw new Error(`Not a canonical file path: ${real}`);
  return parts;
}

/** Removing a temp file after a failed write: the write's own failure is what the caller hears. */
const tempLeft = ignoreError("a temp file left behind is clutter, not damage; the write's failure is reported");

function tempName(leaf: string): string {
  const tag = `.manifold-${randomBytes(6).toString("hex")}.tmp`;
  return leaf.length + tag.length + 1 <= 255 ? `.${leaf}${tag}` : tag;
}

/** Open (creating if asked) each directory of `dirs` below `/`, never following a symlink; returns the last fd. */
function openDirChain(dirs: readonly string[], display: string, mkdirs: boolean): number {
  let fd = fs.openSync("/", DIR_FLAGS);
  try {
    for (const name of dirs) {
      const at = `/proc/self/fd/${fd}/${name}`;
      let next: number;
      try {
        next = fs.openSync(at, DIR_FLAGS);
      } catch (err) {
        if (code(err) !== "ENOENT" || !mkdirs) throw err;
        try {
          fs.mkdirSync(at, 0o777);
        } catch (e) {
          if (code(e) !== "EEXIST") throw e;
        }
        next = fs.openSync(at, DIR_FLAGS);
      }
      fs.closeSync(fd);
      fd = next;
    }
    return fd;
  } catch (err) {
    fs.closeSync(fd);
    const c = code(err);
    if (c === "ELOOP" || c === "ENOTDIR") throw new PathChangedError(display);
    throw err;
  }
}

/**
 * Write `data` to the canonical path `real` atomically (temp file + rename in the same directory),
 * keeping an existing file's permission bits. Refuses a target that is not a regular file, and
 * any path whose directories changed (a symlink appeared) since it was canonicalised.
 */
export async function writeFileAtomic(real: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): Promise<void> {
  if (!hasProcFd()) return writeFileAtomicByPath(real, data, opts);
  const parts = components(real);
  const leaf = parts.pop() as string;
  const dirFd = openDirChain(parts, real, opts.mkdirs ?? false);
  const at = (name: string) => `/proc/self/fd/${dirFd}/${name}`;
  let temp: string | null = null;
  try {
    const mode = await existingMode(at(leaf), real);
    opts.beforeCreate?.();
    const name = tempName(leaf);
    await createFilled(at(name), data, mode);
    temp = name;
    opts.beforeRename?.();
    await fs.promises.rename(at(temp), at(leaf));
    temp = null;
  } finally {
    if (temp !== null) await fs.promises.unlink(at(temp)).catch(tempLeft);
    fs.closeSync(dirFd);
  }
}

/**
 * Creates `file` exclusively, never through a symlink (O_CREAT|O_EXCL|O_NOFOLLOW), with `data` and
 * `mode`. If writing fails, nothing of it is left.
 */
async function createFilled(file: string, data: string | Uint8Array, mode: number | null): Promise<void> {
  const handle = await fs.promises.open(file, TEMP_FLAGS, mode ?? 0o666);
  try {
    await handle.writeFile(data);
    if (mode !== null) await handle.chmod(mode);
  } catch (err) {
    await fs.promises.unlink(file).catch(tempLeft);
    throw err;
  } finally {
    await handle.close();
  }
}

/** Permission bits of an existing regular target (null when missing); refuses anything else. */
async function existingMode(at: string, display: string): Promise<number | null> {
  let st: fs.Stats;
  try {
    st = await fs.promises.lstat(at);
  } catch (err) {
    if (code(err) === "ENOENT") return null;
    throw err;
  }
  if (st.isSymbolicLink()) throw new PathChangedError(display);
  if (!st.isFile()) throw new NotRegularFileError(display, describeKind(st));
  return st.mode & 0o777;
}

/** Create the missing parent directories of `real` through verified fds (for writes another party performs). */
export async function ensureParentDirs(real: string): Promise<void> {
  const parts = components(real);
  parts.pop();
  if (!hasProcFd()) {
    await mkdirsByPath(parts, real);
    return;
  }
  fs.closeSync(openDirChain(parts, real, true));
}

// Best effort where there is no /proc/self/fd (macOS, Windows): lstat every component (a symlink
// refuses), create the temp file O_EXCL|O_NOFOLLOW, and check the parent is still the same inode
// right before the rename. A swap between that check and the rename remains possible there.
async function mkdirsByPath(dirs: readonly string[], display: string): Promise<fs.Stats> {
  let cur = path.parse(display).root;
  let st = await fs.promises.lstat(cur);
  for (const name of dirs) {
    cur = path.join(cur, name);
    try {
      st = await fs.promises.lstat(cur);
    } catch (err) {
      if (code(err) !== "ENOENT") throw err;
      await fs.promises.mkdir(cur).catch((e: unknown) => {
        if (code(e) !== "EEXIST") throw e;
      });
      st = await fs.promises.lstat(cur);
    }
    if (!st.isDirectory()) throw new PathChangedError(display);
  }
  return st;
}

async function writeFileAtomicByPath(real: string, data: string | Uint8Array, opts: AtomicWriteOptions): Promise<void> {
  const parts = components(real);
  const leaf = parts.pop() as string;
  const dir = path.join(path.parse(real).root, ...parts);
  const dirSt = opts.mkdirs ? await mkdirsByPath(parts, real) : await fs.promises.lstat(dir);
  if (!dirSt.isDirectory()) throw new PathChangedError(real);
  const mode = await existingMode(path.join(dir, leaf), real);
  opts.beforeCreate?.();
  const temp = path.join(dir, tempName(leaf));
  let created = false;
  try {
    await createFilled(temp, data, mode);
    created = true;
    opts.beforeRename?.();
    const now = await fs.promises.lstat(dir);
    if (!now.isDirectory() || now.ino !== dirSt.ino || now.dev !== dirSt.dev) throw new PathChangedError(real);
    await fs.promises.rename(temp, path.join(dir, leaf));
    created = false;
  } finally {
    if (created) await fs.promises.unlink(temp).catch(tempLeft);
  }
}

/**
 * Remove the non-directory entry at the canonical path `real` through verified directory fds (a
 * symlink swapped in for a parent refuses). Missing: nothing to do. A directory is refused with
 * `EISDIR`: whoever asked must say so, never remove a tree silently.
 */
export async function removeFileAt(real: string): Promise<void> {
  const parts = components(real);
  const leaf = parts.pop() as string;
  if (!hasProcFd()) {
    const dirSt = await fs.promises.lstat(path.join(path.parse(real).root, ...parts));
    if (!dirSt.isDirectory()) throw new PathChangedError(real);
    await unlinkLeaf(path.join(path.parse(real).root, ...parts, leaf));
    return;
  }
  let dirFd: number;
  try {
    dirFd = openDirChain(parts, real, false);
  } catch (err) {
    if (code(err) === "ENOENT") return;
    throw err;
  }
  try {
    await unlinkLeaf(`/proc/self/fd/${dirFd}/${leaf}`);
  } finally {
    fs.closeSync(dirFd);
  }
}

async function unlinkLeaf(at: string): Promise<void> {
  let st: fs.Stats;
  try {
    st = await fs.promises.lstat(at);
  } catch (err) {
    if (code(err) === "ENOENT") return;
    throw err;
  }
  if (st.isDirectory()) throw Object.assign(new Error(`${at} is a directory`), { code: "EISDIR" });
  await fs.promises.unlink(at);
}

/** Create (or replace a non-directory entry with) a symlink at the canonical path `real`, parents through verified fds. */
export async function writeSymlinkAt(real: string, target: string): Promise<void> {
  const parts = components(real);
  const leaf = parts.pop() as string;
  if (!hasProcFd()) {
    await mkdirsByPath(parts, real);
    const at = path.join(path.parse(real).root, ...parts, leaf);
    await unlinkLeaf(at);
    await fs.promises.symlink(target, at);
    return;
  }
  const dirFd = openDirChain(parts, real, true);
  try {
    const temp = `/proc/self/fd/${dirFd}/${tempName(leaf)}`;
    await fs.promises.symlink(target, temp);
    const at = `/proc/self/fd/${dirFd}/${leaf}`;
    const st = await fs.promises.lstat(at).catch(ignoreError("nothing there yet: the rename creates it"));
    if (st?.isDirectory()) {
      await fs.promises.unlink(temp);
      throw Object.assign(new Error(`${real} is a directory`), { code: "EISDIR" });
    }
    await fs.promises.rename(temp, at);
  } finally {
    fs.closeSync(dirFd);
  }
}
