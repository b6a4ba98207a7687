// What a worktree session changed: the worktree's files against its base commit, committed or not,
// tracked or new (not ignored). Read through a temporary index (a copy of the worktree's, with new
// files marked intent-to-add) under the OS temp folder, removed after, so the worktree's own index
// is never changed and no file content is written into the repository.
import * as fs from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { splitZ } from "../checkpoints/git";
import { text, userGit } from "./userGit";
import { folderRepo, requireWorktree, type WorktreeRecord } from "./worktreeGit";

export interface WorktreeChange {
  path: string;
  status: "added" | "modified" | "deleted" | "renamed";
  /** The path in the base commit, for a rename. */
  oldPath?: string;
}

/** Options every diff Manifold reads or applies gets, whatever the repository's diff config says. */
const DIFF = ["--no-ext-diff", "--no-textconv", "--no-color", "--src-prefix=a/", "--dst-prefix=b/", "--ignore-submodules=none"];

/**
 * A copy of an index that git reads as it reads the original: with the original's mtime. Git takes an
 * entry whose file has the cached size and mtime as unchanged unless the entry is as new as the index
 * ("racily clean", then it reads the file); a copy written later would hide an edit made in the second
 * the index was written. Date's milliseconds can only make the copy older, so git checks more, not less.
 */
async function copyIndex(from: string, to: string): Promise<void> {
  const st = await fs.stat(from);
  await fs.copyFile(from, to);
  await fs.utimes(to, st.atime, st.mtime);
}

/** Runs `fn` with a temporary index holding the worktree's state (new files intent-to-add), in the worktree. */
export async function withWorktreeIndex<T>(
  rec: WorktreeRecord,
  fn: (run: (args: readonly string[]) => Promise<Buffer>) => Promise<T>,
): Promise<T> {
  await requireWorktree(rec);
  const { commonDir } = await folderRepo(rec.folder);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "manifold-worktree-index-"));
  const indexFile = path.join(dir, "index");
  const run = async (args: readonly string[]) => (await userGit(commonDir, rec.path, args, { indexFile })).stdout;
  try {
    const own = text(await userGit(commonDir, rec.path, ["rev-parse", "--path-format=absolute", "--git-path", "index"]));
    const copied = await copyIndex(own, indexFile).then(
      () => true,
      () => false,
    );
    if (!copied) await run(["read-tree", "HEAD"]);
    await run(["add", "--all", "--intent-to-add", "--", "."]);
    return await fn(run);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** `--name-status -z` records → changes. */
export function parseNameStatus(records: readonly string[]): WorktreeChange[] {
  const out: WorktreeChange[] = [];
  for (let i = 0; i < records.length;) {
    const code = records[i++] ?? "";
    const letter = code[0];
    if (letter === "R" || letter === "C") {
      const from = records[i++] ?? "";
      const to = records[i++] ?? "";
      out.push(letter === "R" ? { path: to, status: "renamed", oldPath: from } : { path: to, status: "added" });
      continue;
    }
    const p = records[i++] ?? "";
    out.push({ path: p, status: letter === "A" ? "added" : letter === "D" ? "deleted" : "modified" });
  }
  return out;
}

/** The worktree's changes against its base: commits on its branch, uncommitted edits and new files. */
export function changes(rec: WorktreeRecord): Promise<WorktreeChange[]> {
  return withWorktreeIndex(rec, async (run) =>
    parseNameStatus(splitZ(await run(["diff", ...DIFF, "-z", "--name-status", "-M", rec.base, "--"]))),
  );
}

/** The worktree's changes against its base as one binary patch (no renames), for `git apply`. */
export function worktreePatch(rec: WorktreeRecord): Promise<Buffer> {
  return withWorktreeIndex(rec, (run) => run(["diff", ...DIFF, "--binary", "--full-index", "--no-renames", rec.base, "--"]));
}

/** A file's content in the base commit (the diff's left side), undefined when the base has no such file. */
export async function baseContent(rec: WorktreeRecord, file: string): Promise<Buffer | undefined> {
  const { commonDir, folder } = await folderRepo(rec.folder);
  const run = await userGit(commonDir, folder, ["cat-file", "blob", `${rec.base}:${file}`], { okCodes: [128] });
  return run.code === 0 ? run.stdout : undefined;
}

/** What a path is on disk: absent, a symlink's target, or a file's mode bit and bytes. */
async function stateOf(file: string): Promise<string | Buffer> {
  const st = await fs.lstat(file).catch(() => undefined);
  if (!st) return "absent";
  if (st.isSymbolicLink()) return `link:${await fs.readlink(file)}`;
  if (!st.isFile()) return "other";
  return Buffer.concat([Buffer.from(st.mode & 0o111 ? "x:" : "f:"), await fs.readFile(file)]);
}

function same(a: string | Buffer, b: string | Buffer): boolean {
  return typeof a === "string" || typeof b === "string" ? a === b : a.equals(b);
}

/** Whether some changed path of the worktree is not (yet) the same in the folder's working tree. */
export async function hasUnappliedChanges(rec: WorktreeRecord): Promise<boolean> {
  const { folder } = await folderRepo(rec.folder);
  for (const c of await changes(rec)) {
    for (const p of c.oldPath === undefined ? [c.path] : [c.path, c.oldPath]) {
      if (!same(await stateOf(path.join(rec.path, p)), await stateOf(path.join(folder, p)))) return true;
    }
  }
  return false;
}
