// How much disk a worktree takes: the bytes of every entry under it (symlinks counted as links, never
// followed), walked asynchronously and bounded, so a huge tree answers "at least" instead of hanging.
import * as fs from "node:fs/promises";
import * as path from "node:path";

export const MAX_ENTRIES = 200_000;

export interface DiskUsage {
  bytes: number;
  entries: number;
  /** The walk stopped at the entry cap: the real figure is at least `bytes`. */
  capped: boolean;
}

/** Bytes of the files under `root` (lstat sizes), counting at most `maxEntries` entries. */
export async function diskUsage(root: string, maxEntries = MAX_ENTRIES): Promise<DiskUsage> {
  const usage: DiskUsage = { bytes: 0, entries: 0, capped: false };
  const dirs = [root];
  while (dirs.length > 0 && !usage.capped) {
    const dir = dirs.pop()!;
    const names = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    const files: string[] = [];
    for (const d of names) {
      if (usage.entries >= maxEntries) {
        usage.capped = true;
        break;
      }
      usage.entries++;
      const full = path.join(dir, d.name);
      if (d.isDirectory()) dirs.push(full);
      else files.push(full);
    }
    for (let i = 0; i < files.length; i += 64) {
      const sizes = await Promise.all(
        files.slice(i, i + 64).map((f) =>
          fs.lstat(f).then(
            (s) => s.size,
            () => 0,
          ),
        ),
      );
      for (const s of sizes) usage.bytes += s;
    }
  }
  return usage;
}

/** "12.3 MB", or "≥ 1.2 GB" when the walk was capped. */
export function formatDiskUsage(u: DiskUsage): string {
  const units = ["bytes", "KB", "MB", "GB", "TB"];
  let n = u.bytes;
  let i = 0;
  while (n >= 1000 && i < units.length - 1) {
    n /= 1000;
    i++;
  }
  const figure = i === 0 ? `${n} bytes` : `${n.toFixed(1)} ${units[i]}`;
  return u.capped ? `≥ ${figure}` : figure;
}
