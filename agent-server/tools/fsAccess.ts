// File reads and writes after the path guard approved the target. Reads and writes go through the
// ACP client when it offers fs (unsaved buffers, undoable edits) for files of the session folder;
// otherwise through the disk. Only regular files are opened, reads are capped (class 7), and disk
// writes are atomic and race-free (sandbox/safeWrite.ts: verified dir fds, temp + rename; I-70).
import * as fs from "node:fs";
import { FileTooLargeError, NotRegularFileError, openRegular, readRegular, describeKind } from "../../sandbox/fileRead";
import { configProtection } from "../../sandbox/configPaths";
import { hasOtherHardLinks, isInside, realRoot, type GuardedPath } from "../../sandbox/pathGuard";
import { ensureParentDirs, PathChangedError, writeFileAtomic } from "../../sandbox/safeWrite";
import type { ToolContext } from "./types";

type FsCtx = Pick<ToolContext, "clientFs" | "sandbox">;

/** Largest file read_file/edit_file read whole; bigger ones are paged with bash (head/sed). */
export const MAX_TEXT_BYTES = 10 * 1024 * 1024;

/**
 * The client serves files of the session's folder only (it confines what it serves, I-94); a path
 * elsewhere that the policy allowed (a read outside, an approved write outside) goes to the disk.
 */
function clientServes(ctx: FsCtx, real: string): boolean {
  return isInside(real, realRoot(ctx.sandbox.root));
}

/** Refuse a FIFO, socket or device before anyone (we or the client) opens it, and cap the size. */
async function checkReadable(real: string): Promise<void> {
  const { handle, stat } = await openRegular(real);
  await handle.close();
  if (stat.size > MAX_TEXT_BYTES) throw new FileTooLargeError(real, stat.size, MAX_TEXT_BYTES);
}

export async function readText(ctx: FsCtx, real: string, signal?: AbortSignal): Promise<string> {
  const read = ctx.clientFs?.readTextFile;
  if (read && clientServes(ctx, real)) {
    await checkReadable(real);
    return read.call(ctx.clientFs, real);
  }
  const { bytes } = await readRegular(real, MAX_TEXT_BYTES, { refuseLarger: true, signal });
  return bytes.toString("utf8");
}

/** Old content for a diff, or null when the file does not exist. Special files are refused. */
export async function readIfExists(ctx: FsCtx, real: string, signal?: AbortSignal): Promise<string | null> {
  let st: fs.Stats;
  try {
    st = await fs.promises.lstat(real);
  } catch {
    return null;
  }
  if (!st.isFile()) throw new NotRegularFileError(real, describeKind(st));
  if (st.size > MAX_TEXT_BYTES) return `(previous content not shown: ${st.size} bytes)`;
  return readText(ctx, real, signal);
}

export interface WriteCheck {
  /** Test hooks of the atomic write (after the directory is verified / before the rename). */
  beforeCreate?: () => void;
  beforeRename?: () => void;
}

export class WriteRefused extends Error {}

/**
 * Write through the checked canonical path only. The disk write re-verifies every directory
 * component with O_NOFOLLOW at mutation time, so a swap after the guard's check is refused.
 */
export async function writeChecked(ctx: FsCtx, target: GuardedPath, content: string, check: WriteCheck = {}): Promise<void> {
  const real = target.real;
  try {
    const write = ctx.clientFs?.writeTextFile;
    // A hard-linked file goes to the disk: the rename replaces the name instead of writing through.
    // So does protected config the user just approved: the client refuses it to every agent (I-112).
    const sb = ctx.sandbox;
    const guarded = target.protected !== null || configProtection(real, target.spelled, sb.root, sb.protectedPaths ?? []) !== null;
    if (write && clientServes(ctx, real) && !hasOtherHardLinks(real) && !guarded) {
      await ensureParentDirs(real);
      const st = await fs.promises.lstat(real).catch(() => null);
      if (st && !st.isFile()) throw new NotRegularFileError(real, describeKind(st));
      await write.call(ctx.clientFs, real, content);
      return;
    }
    await writeFileAtomic(real, content, { mkdirs: true, ...check });
  } catch (err) {
    if (err instanceof PathChangedError)
      throw new WriteRefused(`The path ${target.input} changed while it was being written; nothing was written.`);
    if (err instanceof NotRegularFileError)
      throw new WriteRefused(`${target.input} is ${err.kind}, not a regular file; nothing was written.`);
    throw err;
  }
}

/** Model-readable message for the read-side refusals, or null. */
export function fileRefusalMessage(err: unknown, input: string): string | null {
  if (err instanceof NotRegularFileError) return `${input} is ${err.kind}, not a regular file; file tools only read regular files.`;
  if (err instanceof FileTooLargeError)
    return `${input} is ${err.size} bytes, over the ${err.limit}-byte limit of this tool; read parts of it with bash (head, tail, sed -n).`;
  return null;
}
