// Git as Manifold runs it: one runner for the checkpoints' shadow repository and for the user's own
// repository (worktree sessions). Every run gets an environment scrubbed of the host's GIT_* and of
// the user's global/system config, and `-c` overrides that win over any config file (no hooks, no
// fsmonitor, no pager, no prompts, no transport), so nothing configured in a repository (or written
// into a folder by an agent) makes git run a program. Each caller adds its own `extraConfig`.
import { spawn } from "node:child_process";

export class GitMissingError extends Error {
  constructor(detail: string, purpose = "Checkpoints") {
    super(`${purpose} need git on PATH (${detail}).`);
    this.name = "GitMissingError";
  }
}

export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(
      `git ${args
        .filter((a) => !a.startsWith("-c"))
        .slice(0, 3)
        .join(" ")} failed (${code ?? "signal"}): ${stderr.trim().split("\n").slice(-2).join(" ")}`,
    );
    this.name = "GitError";
  }
}

/** The overrides every run gets, whoever's repository it is. */
export const HARDENING = [
  "core.hooksPath=/dev/null",
  "core.fsmonitor=false",
  "core.quotePath=false",
  "core.pager=cat",
  "commit.gpgSign=false",
  "protocol.allow=never",
] as const;

/** The shadow repository's own settings, and its identity. */
const CHECKPOINT_CONFIG = [
  "core.autocrlf=false",
  "core.safecrlf=false",
  "core.symlinks=true",
  "core.untrackedCache=true",
  "core.checkStat=minimal",
  "core.trustctime=false",
  "gc.autoDetach=false",
  "advice.addEmbeddedRepo=false",
  "user.name=Manifold",
  "user.email=checkpoints@manifold.invalid",
] as const;

/** Where and how one git run happens. */
export interface GitTarget {
  /** The process's working directory (git discovers the repository from it when `gitDir` is absent). */
  readonly cwd: string;
  /** GIT_DIR, when git must not discover it. */
  readonly gitDir?: string;
  /** GIT_WORK_TREE, with `gitDir`. */
  readonly workTree?: string;
  /** HOME for git (no ~/.gitconfig, no ~/.config/git/* of the user's); `gitDir`, else /dev/null, when absent. */
  readonly home?: string;
  /** `-c` settings after HARDENING (a later one wins). */
  readonly extraConfig?: readonly string[];
  /** The host environment git's is scrubbed from (process.env when absent). */
  readonly hostEnv?: NodeJS.ProcessEnv;
  /** Names GitMissingError's sentence ("Checkpoints", "Worktree sessions"). */
  readonly purpose?: string;
}

export interface GitRunOptions {
  input?: Buffer | string;
  /** GIT_INDEX_FILE for this run. */
  indexFile?: string;
  /** Exit codes that resolve rather than reject (the run's `code` tells which). */
  okCodes?: readonly number[];
}

export interface GitRun {
  stdout: Buffer;
  stderr: string;
  code: number;
}

function scrubbedEnv(target: GitTarget, indexFile: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(target.hostEnv ?? process.env)) {
    if (v === undefined || k.startsWith("GIT_") || k === "XDG_CONFIG_HOME") continue;
    if (k === "PATH" || k === "SystemRoot" || k === "TMPDIR" || k === "TEMP" || k === "TMP") env[k] = v;
  }
  env.HOME = target.home ?? target.gitDir ?? "/dev/null";
  env.GIT_CONFIG_NOSYSTEM = "1";
  env.GIT_CONFIG_GLOBAL = "/dev/null";
  if (target.gitDir) env.GIT_DIR = target.gitDir;
  if (target.workTree) env.GIT_WORK_TREE = target.workTree;
  env.GIT_TERMINAL_PROMPT = "0";
  env.GIT_OPTIONAL_LOCKS = "0";
  env.GIT_LITERAL_PATHSPECS = "1";
  env.LC_ALL = "C";
  if (indexFile) env.GIT_INDEX_FILE = indexFile;
  return env;
}

/** Runs git hardened; rejects with GitError on a non-zero exit (short of `okCodes`), GitMissingError when git cannot start. */
export function runGit(target: GitTarget, args: readonly string[], opts: GitRunOptions = {}): Promise<GitRun> {
  const argv = [...[...HARDENING, ...(target.extraConfig ?? [])].flatMap((o) => ["-c", o]), ...args];
  return new Promise((resolve, reject) => {
    const child = spawn("git", argv, {
      cwd: target.cwd,
      env: scrubbedEnv(target, opts.indexFile),
      stdio: ["pipe", "pipe", "pipe"],
      windowsHide: true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.stderr.on("data", (d: Buffer) => err.push(d));
    child.on("error", (e: NodeJS.ErrnoException) =>
      reject(e.code === "ENOENT" ? new GitMissingError("git was not found", target.purpose) : e),
    );
    child.on("close", (code) => {
      const stderr = Buffer.concat(err).toString("utf8");
      if (code === 0 || (code !== null && opts.okCodes?.includes(code))) resolve({ stdout: Buffer.concat(out), stderr, code });
      else reject(new GitError(args, code, stderr));
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(opts.input ?? "");
  });
}

export interface GitRepo {
  /** The shadow repository (GIT_DIR). */
  readonly gitDir: string;
  /** The folder (GIT_WORK_TREE). */
  readonly workTree: string;
  /** The host environment git's is scrubbed from (process.env when absent). */
  readonly hostEnv?: NodeJS.ProcessEnv;
}

/** Runs git in the shadow repository: our GIT_DIR and index, the folder only as the work tree. */
export function git(repo: GitRepo, args: readonly string[], opts: GitRunOptions = {}): Promise<GitRun> {
  return runGit(
    {
      cwd: repo.workTree,
      gitDir: repo.gitDir,
      workTree: repo.workTree,
      home: repo.gitDir,
      extraConfig: CHECKPOINT_CONFIG,
      hostEnv: repo.hostEnv,
    },
    args,
    opts,
  );
}

/** NUL-separated records of a `-z` output. */
export function splitZ(buf: Buffer): string[] {
  const s = buf.toString("utf8");
  const parts = s.split("\0");
  if (parts[parts.length - 1] === "") parts.pop();
  return parts;
}

let probed: Promise<string> | undefined;
/** git's version, probed once; GitMissingError when absent. */
export function gitVersion(): Promise<string> {
  probed ??= new Promise((resolve, reject) => {
    const child = spawn("git", ["--version"], { stdio: ["ignore", "pipe", "ignore"], env: { PATH: process.env.PATH ?? "" } });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString("utf8")));
    child.on("error", () => reject(new GitMissingError("git was not found")));
    child.on("close", (code) => (code === 0 ? resolve(out.trim()) : reject(new GitMissingError(`git --version exited ${code}`))));
  });
  return probed;
}
