// Restoring files from a checkpoint tree into the folder. Every target is resolved with the one path
// guard (sandbox/pathGuard.ts) and written with the race-free writers of sandbox/safeWrite.ts, so a
// restore never lands outside the session's folder or in git metadata. Each file succeeds or fails on
// its own with a reason a user can act on; the caller took a checkpoint first, so a partial restore
// is both explained and undoable.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { guardPath, realRoot } from "../../sandbox";
import { NotRegularFileError } from "../../sandbox/fileRead";
import { PathChangedError, removeFileAt, writeFileAtomic, writeSymlinkAt } from "../../sandbox/safeWrite";
import type { ShadowRepo, TreeChange } from "./shadowRepo";
import { errorMessage, ignoreError } from "../../base/errors";

export interface RestoreItem {
  path: string;
  /** write: the file gets the checkpoint's content; delete: the file did not exist then. */
  action: "write" | "delete";
  mode: string;
  blob: string;
  added: number | null;
  removed: number | null;
  /** Why this file deserves a second look (changed by hand since the checkpoint, unsaved in the editor). */
  userEdit?: string;
  /** Set when the file is left alone whatever the user chooses (not recorded now: ignored or too large). */
  leaveAlone?: string;
}

export interface RestoreResult {
  path: string;
  ok: boolean;
  /** Why it failed or was skipped. */
  reason?: string;
}

/** What a restore from `current` (now) to `target` would do, per file. */
export async function planRestore(
  repo: ShadowRepo,
  current: string,
  target: string,
  userEdits: ReadonlyMap<string, string>,
): Promise<RestoreItem[]> {
  const changes = await repo.diff(current, target);
  const items: RestoreItem[] = [];
  for (const c of changes) items.push(await itemFor(repo.folder, c, userEdits.get(c.path)));
  return items;
}

async function itemFor(folder: string, c: TreeChange, userEdit: string | undefined): Promise<RestoreItem> {
  const item: RestoreItem = {
    path: c.path,
    action: c.status === "D" ? "delete" : "write",
    mode: c.toMode,
    blob: c.toBlob,
    // Counted as the restore changes the file now: lines it adds back, lines it removes.
    added: c.added,
    removed: c.removed,
    ...(userEdit ? { userEdit } : {}),
  };
  // In the checkpoint, not in the current snapshot, yet on disk: the file is not recorded now.
  if (c.status === "A") {
    const st = await fs.lstat(path.join(folder, c.path)).catch(ignoreError("absent or unreadable: nothing on disk to leave alone"));
    if (st && !st.isDirectory()) item.leaveAlone = "exists but is not recorded now (ignored, too large or unreadable); left as it is";
  }
  return item;
}

/** Applies `items` (already filtered by the user's choices) to the folder. Never throws per file. */
export async function applyRestore(repo: ShadowRepo, items: readonly RestoreItem[]): Promise<RestoreResult[]> {
  const root = realRoot(repo.folder);
  const results: RestoreResult[] = [];
  const emptied = new Set<string>();
  // Removals first, then the directories they emptied, then writes: a file that became a directory
  // full of new files comes back as the file.
  const ordered = [...items.filter((i) => i.action === "delete"), ...items.filter((i) => i.action === "write")];
  let dirsCleared = false;
  for (const item of ordered) {
    if (item.action === "write" && !dirsCleared) {
      dirsCleared = true;
      for (const dir of [...emptied].sort((a, b) => b.length - a.length)) await removeEmptyDirs(dir, root);
    }
    if (item.leaveAlone) {
      results.push({ path: item.path, ok: false, reason: item.leaveAlone });
      continue;
    }
    try {
      const real = confined(root, item.path);
      if (item.action === "delete") {
        await removeFileAt(real);
        emptied.add(path.dirname(real));
      } else if (item.mode === "120000") {
        await writeSymlinkAt(real, (await repo.blob(item.blob)).toString("utf8"));
      } else {
        await writeFileAtomic(real, await repo.blob(item.blob), { mkdirs: true });
        const exec = item.mode === "100755";
        const st = await fs.lstat(real);
        const want = exec ? st.mode | 0o111 : st.mode & ~0o111;
        if ((st.mode & 0o777) !== (want & 0o777)) await fs.chmod(real, want & 0o777);
      }
      results.push({ path: item.path, ok: true });
    } catch (err) {
      results.push({ path: item.path, ok: false, reason: describeFailure(err) });
    }
  }
  // Directories a restore emptied go too (git records no directories); a non-empty one stays.
  if (!dirsCleared) for (const dir of [...emptied].sort((a, b) => b.length - a.length)) await removeEmptyDirs(dir, root);
  return results.sort((a, b) => a.path.localeCompare(b.path));
}

/** The canonical target of a recorded path: inside the real folder and not git metadata. */
function confined(root: string, rel: string): string {
  if (rel.includes("\0") || path.isAbsolute(rel) || rel.split("/").some((c) => c === ".." || c === ""))
    throw new RestoreRefused(`${rel}: not a plain relative path`);
  const g = guardPath(rel, root, [root]);
  if (g.within === null) throw new RestoreRefused(`${rel} resolves outside the folder (through a symlink); not touched`);
  if (g.protected) throw new RestoreRefused(`${rel} is git metadata (${g.protected}); not touched`);
  return g.real;
}

class RestoreRefused extends Error {}

async function removeEmptyDirs(dir: string, root: string): Promise<void> {
  let cur = dir;
  while (cur.startsWith(root + path.sep)) {
    try {
      await fs.rmdir(cur);
    } catch {
      return;
    }
    cur = path.dirname(cur);
  }
}

/** A reason a user can act on, for each way a file write or removal fails. */
export function describeFailure(err: unknown): string {
  if (err instanceof RestoreRefused) return err.message;
  if (err instanceof PathChangedError) return "a directory on its path was replaced (by a symlink or a file) since the check; not touched";
  if (err instanceof NotRegularFileError) return "is now a directory or a special file; not replaced (move it away and restore again)";
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case "ENOSPC":
    case "EDQUOT":
      return "the disk is full; the file was left as it was";
    case "EACCES":
    case "EPERM":
      return "permission denied (the file or its directory is read-only or locked)";
    case "EBUSY":
    case "ETXTBSY":
      return "the file is locked by another program";
    case "EISDIR":
      return "is now a directory; not removed (delete it yourself if that is intended)";
    case "ENOTDIR":
      return "a parent path is now a file, not a directory; not touched";
    case "EROFS":
      return "the file system is read-only";
    default:
      return errorMessage(err);
  }
}
