// Merge branch: the worktree's uncommitted changes are committed to its branch (in the worktree),
// then the folder merges the branch with `git merge --no-ff --no-edit`. That moves the tip of the
// branch the folder has checked out (the user asked for it) but never which branch that is. A merge
// that conflicts or that git would refuse leaves the folder as it was, its index file included: both
// are found before `git merge` runs, with `git merge-tree` (no working tree involved) and the
// folder's status (staged changes, or local changes where the merge writes); a merge that still
// stops (the folder changed meanwhile) is undone with `git merge --abort`.
import { GitError, splitZ } from "../checkpoints/git";
import { gitReason, text, userGit, WorktreeError } from "./userGit";
import { folderRepo, requireWorktree, type WorktreeRecord } from "./worktreeGit";

export type MergeResult = { merged: true; commit: string } | { merged: false; reason: string; files: string[] };

/** The tab-indented file lines git lists under "would be overwritten" and similar messages. */
function listedFiles(stderr: string): string[] {
  return stderr
    .split("\n")
    .filter((l) => l.startsWith("\t"))
    .map((l) => l.trim());
}

const some = (files: readonly string[]) =>
  files.length > 3 ? `${files.slice(0, 3).join(", ")} and ${files.length - 3} more` : files.join(", ");

const wouldOverwrite = (branch: string, files: readonly string[]) =>
  `Merging ${branch} would overwrite changes in the folder not yet committed (${some(files)}), so nothing was merged.`;

/** The folder's staged paths and its other local changes (unstaged, untracked), from `git status -z` (which writes nothing here). */
export function parseStatus(records: readonly string[]): { staged: string[]; local: string[] } {
  const staged: string[] = [];
  const local: string[] = [];
  for (let i = 0; i < records.length; i++) {
    const rec = records[i]!;
    const [x, y, p] = [rec[0], rec[1], rec.slice(3)];
    if (x === "R" || x === "C") i++; // the original path follows
    if (x === "?" || x === "!") local.push(p);
    else {
      if (x !== " ") staged.push(p);
      if (y !== " ") local.push(p);
    }
  }
  return { staged, local };
}

/** Paths of `a` that are, contain or lie inside a path of `b`. */
export function overlapping(a: readonly string[], b: readonly string[]): string[] {
  const bare = (p: string) => p.replace(/\/$/, "");
  return a.filter((p) => b.some((q) => bare(p) === bare(q) || bare(q).startsWith(`${bare(p)}/`) || bare(p).startsWith(`${bare(q)}/`)));
}

/** Commits the worktree's changes with `message`, then merges its branch into the folder's current branch. */
export async function mergeBranch(rec: WorktreeRecord, opts: { message: string }): Promise<MergeResult> {
  await requireWorktree(rec);
  const { commonDir, folder } = await folderRepo(rec.folder);
  const inWorktree = (args: readonly string[], okCodes?: number[]) => userGit(commonDir, rec.path, args, { okCodes });
  const inFolder = (args: readonly string[], okCodes?: number[]) => userGit(commonDir, folder, args, { okCodes });
  const no = (reason: string, files: string[] = []): MergeResult => ({ merged: false, reason, files });
  try {
    const on = text(await inWorktree(["symbolic-ref", "--quiet", "HEAD"], [1]));
    if (on !== `refs/heads/${rec.branch}`) return no(`The worktree is no longer on its branch ${rec.branch}, so nothing was merged.`);
    await inWorktree(["add", "--all", "--", "."]);
    if ((await inWorktree(["diff", "--cached", "--quiet", "--no-ext-diff", "--no-textconv"], [1])).code === 1) {
      await inWorktree(["commit", "--quiet", "--no-verify", "--allow-empty-message", "-m", opts.message]);
    }
    const trial = await inFolder(["merge-tree", "--write-tree", "--name-only", "--no-messages", "HEAD", `refs/heads/${rec.branch}`], [1]);
    if (trial.code === 1) {
      const files = text(trial).split("\n").slice(1).filter(Boolean);
      return no(`Merging ${rec.branch} conflicts in ${some(files)}, so nothing was merged.`, files);
    }
    const tree = text(trial).split("\n")[0]!;
    const status = parseStatus(
      splitZ((await inFolder(["status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames"])).stdout),
    );
    if (status.staged.length > 0) {
      return no(
        `The folder has staged changes (${some(status.staged)}), so nothing was merged; commit or unstage them first.`,
        status.staged,
      );
    }
    const written = splitZ((await inFolder(["diff-tree", "-r", "-z", "--name-only", "--no-renames", "HEAD", tree])).stdout);
    const inTheWay = overlapping(status.local, written);
    if (inTheWay.length > 0) return no(wouldOverwrite(rec.branch, inTheWay), inTheWay);
    const merge = await inFolder(
      [
        "merge",
        "--no-ff",
        "--no-edit",
        "--no-verify",
        "--no-stat",
        "--quiet",
        "-m",
        `Merge branch '${rec.branch}'`,
        `refs/heads/${rec.branch}`,
      ],
      [1, 2, 128],
    );
    if (merge.code === 0) return { merged: true, commit: text(await inFolder(["rev-parse", "HEAD"])) };
    const halfway = (await inFolder(["rev-parse", "--quiet", "--verify", "MERGE_HEAD"], [1])).code === 0;
    if (halfway) await inFolder(["merge", "--abort"]);
    const conflicted = [...merge.stdout.toString("utf8").matchAll(/^CONFLICT .*? in (.+)$/gm)].map((m) => m[1]!);
    const files = [...listedFiles(merge.stderr), ...conflicted];
    if (/would be overwritten/.test(merge.stderr)) {
      return no(wouldOverwrite(rec.branch, files), files);
    }
    if (halfway) return no(`Merging ${rec.branch} conflicts, so nothing was merged.`, files);
    return no(`Git did not merge ${rec.branch}: ${gitReason(merge.stderr || merge.stdout.toString("utf8"))}.`, files);
  } catch (e) {
    if (e instanceof GitError) throw new WorktreeError(`Git could not merge ${rec.branch}: ${gitReason(e.stderr)}.`);
    throw e;
  }
}
