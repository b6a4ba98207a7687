// Git on the user's own repository, through the one hardened runner (`extension/checkpoints/git.ts`):
// its scrubbed environment and overrides, plus what a repository the user (or an agent's files)
// configured could otherwise make run or change: every filter and merge driver the repository's
// config names is switched off (diffs pass --no-ext-diff --no-textconv), and so are submodule
// recursion, auto-stash, rerere, automatic gc and signing. Commits and merges carry the user's
// identity, read once with a plain `git config --get` (else Manifold's).
import { execFile } from "node:child_process";
import { runGit, splitZ, type GitRun, type GitRunOptions } from "../checkpoints/git";

export const PURPOSE = "Worktree sessions";
export const FALLBACK_NAME = "Manifold";
export const FALLBACK_EMAIL = "worktrees@manifold.invalid";

/** A failure the user is told about: one sentence. */
export class WorktreeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WorktreeError";
  }
}

const FIXED = [
  "core.splitIndex=false",
  "submodule.recurse=false",
  "merge.autoStash=false",
  "rebase.autoStash=false",
  "merge.verifySignatures=false",
  "rerere.enabled=false",
  "gc.auto=0",
  "maintenance.auto=false",
  "tag.gpgSign=false",
  "advice.addEmbeddedRepo=false",
  "advice.detachedHead=false",
  "apply.whitespace=nowarn",
];

interface Profile {
  /** Driver overrides and the identity. */
  config: string[];
}

const profiles = new Map<string, Promise<Profile>>();

/** Every filter the repository's config names off (`filter.<x>.*` empty), every merge driver git's own. */
export function driverOverrides(names: readonly string[]): string[] {
  const out = new Set<string>();
  for (const key of names) {
    const m = /^(filter|merge)\.(.+)\.([^.]+)$/.exec(key);
    if (!m) continue;
    const [, section, sub] = m;
    if (section === "filter") for (const k of ["clean", "smudge", "process"]) out.add(`filter.${sub}.${k}=`);
    if (section === "filter") out.add(`filter.${sub}.required=false`);
    // git's own text merge in place of the named driver (what an undefined driver would get).
    if (section === "merge") out.add(`merge.${sub}.driver=git merge-file --marker-size=%L %A %O %B`);
  }
  return [...out];
}

/** A plain `git config --get`: the user's own global and system config count here (only the host's GIT_* are dropped). */
export function plainConfigGet(cwd: string, key: string, hostEnv: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const env = Object.fromEntries(Object.entries(hostEnv).filter(([k]) => !k.startsWith("GIT_")));
  return new Promise((resolve) => {
    execFile("git", ["config", "--get", key], { cwd, env: { ...env, GIT_TERMINAL_PROMPT: "0" }, windowsHide: true }, (err, stdout) =>
      resolve(err ? undefined : stdout.trim() || undefined),
    );
  });
}

async function readProfile(cwd: string): Promise<Profile> {
  const keys = await runGit(
    { cwd, extraConfig: FIXED, purpose: PURPOSE },
    ["config", "-z", "--name-only", "--get-regexp", "^(filter|merge)\\."],
    {
      okCodes: [1],
    },
  );
  const name = (await plainConfigGet(cwd, "user.name")) ?? FALLBACK_NAME;
  const email = (await plainConfigGet(cwd, "user.email")) ?? FALLBACK_EMAIL;
  return { config: [...driverOverrides(splitZ(keys.stdout)), `user.name=${name}`, `user.email=${email}`] };
}

/**
 * Runs git in `cwd` of the user's repository `commonDir`; the drivers and identity are read once per
 * repository and `cwd` (a worktree's own config may name other drivers).
 * Rejects with GitError / GitMissingError as the runner does.
 */
export async function userGit(commonDir: string, cwd: string, args: readonly string[], opts: GitRunOptions = {}): Promise<GitRun> {
  const key = `${commonDir}\0${cwd}`;
  let profile = profiles.get(key);
  if (!profile) {
    profile = readProfile(cwd);
    profiles.set(key, profile);
    profile.catch(() => profiles.delete(key));
  }
  const { config } = await profile;
  return runGit({ cwd, extraConfig: [...FIXED, ...config], purpose: PURPOSE }, args, opts);
}

/** git before the repository is known (discovery): the fixed overrides only. */
export function probeGit(cwd: string, args: readonly string[], opts: GitRunOptions = {}): Promise<GitRun> {
  return runGit({ cwd, extraConfig: FIXED, purpose: PURPOSE }, args, opts);
}

/** Forgets the cached profiles (tests change a repository's config between runs). */
export function forgetProfiles(): void {
  profiles.clear();
}

/** git's stdout as trimmed text. */
export function text(run: GitRun): string {
  return run.stdout.toString("utf8").trim();
}

/** git's last stderr line without its "fatal: "/"error: " prefix, for a sentence. */
export function gitReason(stderr: string): string {
  const line =
    stderr
      .trim()
      .split("\n")
      .filter((l) => l.trim() !== "" && !l.startsWith("hint:"))
      .pop() ?? "";
  return line.replace(/^(fatal|error):\s*/, "").replace(/\.$/, "");
}
