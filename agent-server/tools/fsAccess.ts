// File reads and writes after the path guard approved the target. Reads and writes go through the
// ACP client when it offers fs (unsaved buffers, undoable edits); otherwise through the disk. A
// write re-resolves its target at mutation time and writes through the checked path (I-70).
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { canonicalize, hasOtherHardLinks, isInside, realRoot, type GuardedPath } from "../../sandbox/pathGuard";
import type { ToolContext } from "./types";

type FsCtx = Pick<ToolContext, "clientFs" | "sandbox">;

/**
 * The client serves files of the session's folder only (it confines what it serves, I-94); a path
 * elsewhere that the policy allowed (a read outside, an approved write outside) goes to the disk.
 */
function clientServes(ctx: FsCtx, real: string): boolean {
  return isInside(real, realRoot(ctx.sandbox.root));
}

export async function readText(ctx: FsCtx, real: string): Promise<string> {
  const read = ctx.clientFs?.readTextFile;
  if (read && clientServes(ctx, real)) return read.call(ctx.clientFs, real);
  return fs.promises.readFile(real, "utf8");
}

/** Old content for a diff, or null when the file does not exist. */
export async function readIfExists(ctx: FsCtx, real: string): Promise<string | null> {
  try {
    const st = await fs.promises.stat(real);
    if (!st.isFile()) return null;
  } catch {
    return null;
  }
  return readText(ctx, real);
}

export interface WriteCheck {
  /** The session root (real) the input was resolved against. */
  base: string;
  /** Roots a write must stay in, unless `anywhere`. */
  roots: readonly string[];
  anywhere: boolean;
  /** Test hook: runs between the re-check and the mutation. */
  beforeMutate?: () => void;
}

export class WriteRefused extends Error {}

function recheck(target: GuardedPath, check: WriteCheck): void {
  const absolute = path.isAbsolute(target.input) ? target.input : realRoot(check.base) + path.sep + target.input;
  const now = canonicalize(absolute);
  if (now !== target.real) throw new WriteRefused(`The path ${target.input} changed while it was being written (it now resolves to ${now}); nothing was written.`);
  if (!check.anywhere && !check.roots.some((r) => isInside(now, realRoot(r)))) {
    throw new WriteRefused(`${target.input} resolves outside the workspace; nothing was written.`);
  }
}

function fdPath(fd: number): string | null {
  if (process.platform !== "linux") return null;
  try {
    return fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}

/** Write through the checked real path only. */
export async function writeChecked(ctx: FsCtx, target: GuardedPath, content: string, check: WriteCheck): Promise<void> {
  const real = target.real;
  await fs.promises.mkdir(path.dirname(real), { recursive: true });
  recheck(target, check);
  check.beforeMutate?.();
  if (hasOtherHardLinks(real)) {
    // Another name shares this inode (possibly outside the root): replace the name, not the inode.
    const tmp = `${real}.manifold-${randomBytes(6).toString("hex")}.tmp`;
    await fs.promises.writeFile(tmp, content, { flag: "wx" });
    recheck(target, check);
    await fs.promises.rename(tmp, real);
    return;
  }
  const write = ctx.clientFs?.writeTextFile;
  if (write && clientServes(ctx, real)) {
    await write.call(ctx.clientFs, real, content);
    return;
  }
  const existed = fs.existsSync(real);
  const flags = fs.constants.O_WRONLY | fs.constants.O_NOFOLLOW | (existed ? 0 : fs.constants.O_CREAT | fs.constants.O_EXCL);
  let fd: number;
  try {
    fd = fs.openSync(real, flags, 0o644);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ELOOP" || code === "EEXIST" || code === "ENOENT" || code === "ENOTDIR") {
      throw new WriteRefused(`The path ${target.input} changed while it was being written; nothing was written.`);
    }
    throw err;
  }
  try {
    const opened = fdPath(fd);
    if (opened !== null && opened !== real) {
      if (!existed) fs.rmSync(opened, { force: true });
      throw new WriteRefused(`The path ${target.input} changed while it was being written; nothing was written.`);
    }
    fs.ftruncateSync(fd, 0);
    fs.writeSync(fd, content, 0, "utf8");
  } finally {
    fs.closeSync(fd);
  }
}
