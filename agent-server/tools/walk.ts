import * as fs from "node:fs";
import * as path from "node:path";
import { SKIP_DIRS } from "./glob";

/** Depth-first walk yielding `/`-separated paths relative to `dir`; does not follow symlinked dirs. */
export async function* walk(dir: string, signal?: AbortSignal, rel = ""): AsyncGenerator<{ rel: string; isDir: boolean }> {
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(path.join(dir, rel), { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    if (signal?.aborted) return;
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) {
      yield { rel: r, isDir: true };
      if (!SKIP_DIRS.has(e.name)) yield* walk(dir, signal, r);
    } else yield { rel: r, isDir: false };
  }
}
