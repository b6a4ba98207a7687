// Reading a model-named file without letting it block the process. Only
// regular files are ever opened: FIFOs block open/read forever (holding a thread-pool thread even
// after cancel), devices like /dev/zero never end, and opening some devices has side effects. The
// type is checked with lstat before the open, the open is O_NONBLOCK|O_NOCTTY|O_NOFOLLOW, and
// fstat must show the same regular inode; reads stop at a byte cap, so a sparse 600 MB file or a
// file growing while read costs at most the cap.
import * as fs from "node:fs";

export class NotRegularFileError extends Error {
  constructor(
    readonly path: string,
    readonly kind: string,
  ) {
    super(`${path} is ${kind}, not a regular file; file tools only open regular files.`);
    this.name = "NotRegularFileError";
  }
}

export class FileTooLargeError extends Error {
  constructor(
    readonly path: string,
    readonly size: number,
    readonly limit: number,
  ) {
    super(`${path} is ${size} bytes, over the ${limit}-byte limit of this tool.`);
    this.name = "FileTooLargeError";
  }
}

export function describeKind(st: fs.Stats): string {
  if (st.isFIFO()) return "a FIFO";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isDirectory()) return "a directory";
  if (st.isSymbolicLink()) return "a symbolic link";
  return "a special file";
}

const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOCTTY ?? 0) | (fs.constants.O_NOFOLLOW ?? 0);

/** Open a canonical path for reading only if it is a regular file (never opens anything else). */
export async function openRegular(real: string): Promise<{ handle: fs.promises.FileHandle; stat: fs.Stats }> {
  const before = await fs.promises.lstat(real);
  if (!before.isFile()) throw new NotRegularFileError(real, describeKind(before));
  const handle = await fs.promises.open(real, OPEN_FLAGS);
  try {
    const stat = await handle.stat();
    // Swapped between lstat and open (a background command racing us): refuse, never read it.
    if (!stat.isFile() || stat.ino !== before.ino || stat.dev !== before.dev) throw new NotRegularFileError(real, describeKind(stat));
    return { handle, stat };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** Synchronous twin for worker threads and sync callers; same checks. */
export function openRegularSync(real: string): { fd: number; stat: fs.Stats } {
  const before = fs.lstatSync(real);
  if (!before.isFile()) throw new NotRegularFileError(real, describeKind(before));
  const fd = fs.openSync(real, OPEN_FLAGS);
  const stat = fs.fstatSync(fd);
  if (!stat.isFile() || stat.ino !== before.ino || stat.dev !== before.dev) {
    fs.closeSync(fd);
    throw new NotRegularFileError(real, describeKind(stat));
  }
  return { fd, stat };
}

/** The first bytes of a regular file, up to `limit`; `FileTooLargeError` when it is bigger and `refuseLarger`. */
export async function readRegular(
  real: string,
  limit: number,
  opts: { refuseLarger?: boolean; signal?: AbortSignal } = {},
): Promise<{ bytes: Buffer; size: number; truncated: boolean }> {
  const { handle, stat } = await openRegular(real);
  try {
    if (opts.refuseLarger && stat.size > limit) throw new FileTooLargeError(real, stat.size, limit);
    const chunks: Buffer[] = [];
    let n = 0;
    // Read one byte past the cap: that tells a file that grew while read from one that fits exactly.
    while (n <= limit) {
      opts.signal?.throwIfAborted();
      const buf = Buffer.allocUnsafe(Math.min(Math.max(stat.size - n + 1, 4096), 1 << 20, limit + 1 - n));
      const { bytesRead } = await handle.read(buf, 0, buf.length, n);
      if (bytesRead === 0) break;
      chunks.push(buf.subarray(0, bytesRead));
      n += bytesRead;
    }
    const truncated = n > limit;
    if (truncated && opts.refuseLarger) throw new FileTooLargeError(real, n, limit);
    return { bytes: Buffer.concat(chunks).subarray(0, Math.min(n, limit)), size: stat.size, truncated };
  } finally {
    await handle.close();
  }
}
