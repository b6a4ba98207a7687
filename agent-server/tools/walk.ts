import * as fs from "node:fs";
import * as path from "node:path";
import { SKIP_DIRS } from "./glob";

export interface WalkEntry {
  rel: string;
  isDir: boolean;
  /** A regular file (not a FIFO, socket, device or symlink): the only kind a tool may open. */
  isFile: boolean;
}

export interface WalkOptions {
  signal?: AbortSignal;
  /** Directories (canonical) not to list or enter, e.g. the fenced areas. */
  refuses?: (real: string) => boolean;
}

/**
 * Depth-first walk yielding `/`-separated paths relative to `dir` (a canonical directory); does
 * not follow symlinks, so every joined path below stays canonical.
 */
export async function* walk(dir: string, opts: WalkOptions = {}, rel = ""): AsyncGenerator<WalkEntry> {
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(rel ? path.join(dir, rel) : dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    if (opts.signal?.aborted) return;
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) {
      if (opts.refuses?.(path.join(dir, r))) continue;
      yield { rel: r, isDir: true, isFile: false };
      if (!SKIP_DIRS.has(e.name)) yield* walk(dir, opts, r);
    } else yield { rel: r, isDir: false, isFile: e.isFile() };
  }
}
