// Apply to folder: the worktree's changes against its base, as one binary patch, written into the
// folder's working tree (never its index) all or nothing. `git apply --check` first; only when every
// file applies does the caller's `beforeWrite` run (a checkpoint) and then `git apply`, which checks
// again before it writes anything. A conflict applies nothing and names each file with git's reason.
import { GitError, splitZ } from "../checkpoints/git";
import { worktreePatch } from "./changes";
import { gitReason, userGit, WorktreeError } from "./userGit";
import { folderRepo, type WorktreeRecord } from "./worktreeGit";

export interface ApplyConflict {
  path: string;
  reason: string;
}

export type ApplyResult = { applied: string[] } | { conflicts: ApplyConflict[] };

/** The paths a patch writes (`git apply --numstat -z`: added, removed, path). */
function patchPaths(numstat: Buffer): string[] {
  return splitZ(numstat).map((rec) => rec.split("\t").slice(2).join("\t"));
}

/** git apply's `error:` lines → one conflict per named path (a path of the patch the line starts with or quotes). */
export function parseApplyErrors(stderr: string, paths: readonly string[]): ApplyConflict[] {
  const byLength = [...paths].sort((a, b) => b.length - a.length);
  const out = new Map<string, string>();
  for (const raw of stderr.split("\n")) {
    const line = raw.replace(/^error:\s*/, "").trim();
    if (!raw.startsWith("error:") || line.startsWith("patch failed:")) continue;
    const lead = byLength.find((p) => line.startsWith(`${p}: `));
    if (lead !== undefined) {
      if (!out.has(lead)) out.set(lead, line.slice(lead.length + 2));
      continue;
    }
    const quoted = byLength.find((p) => line.includes(`'${p}'`));
    if (quoted !== undefined) {
      if (!out.has(quoted)) out.set(quoted, line);
      continue;
    }
    if (!out.has("")) out.set("", line);
  }
  if (out.size === 0) out.set("", gitReason(stderr) || "git apply refused the changes");
  return [...out].map(([p, reason]) => ({ path: p, reason }));
}

/** Applies the worktree's changes to the folder's working tree, all or nothing. */
export async function applyToFolder(
  rec: WorktreeRecord,
  opts: { beforeWrite?: (paths: string[]) => Promise<void> } = {},
): Promise<ApplyResult> {
  const { commonDir, folder } = await folderRepo(rec.folder);
  const patch = await worktreePatch(rec);
  if (patch.length === 0) return { applied: [] };
  const apply = (extra: readonly string[]) =>
    userGit(commonDir, folder, ["apply", "--whitespace=nowarn", ...extra, "-"], { input: patch, okCodes: [1, 128] });
  try {
    const paths = patchPaths((await apply(["--numstat", "-z"])).stdout);
    const check = await apply(["--check"]);
    if (check.code !== 0) return { conflicts: parseApplyErrors(check.stderr, paths) };
    await opts.beforeWrite?.(paths);
    const done = await apply([]);
    if (done.code !== 0) return { conflicts: parseApplyErrors(done.stderr, paths) };
    return { applied: paths };
  } catch (e) {
    if (e instanceof GitError) throw new WorktreeError(`Git could not apply the worktree's changes: ${gitReason(e.stderr)}.`);
    throw e;
  }
}
