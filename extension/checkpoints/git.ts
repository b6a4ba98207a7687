// The shadow repository's git: always our GIT_DIR and index, the folder only as the work tree, and an
// environment scrubbed of the host's GIT_* and of the user's global/system config, so nothing the user
// (or an agent writing into the folder) configured can run a program or touch the user's own `.git`.
import { spawn } from "node:child_process";

export class GitMissingError extends Error {
  constructor(detail: string) {
    super(`Checkpoints need git on PATH (${detail}).`);
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

/** `-c` overrides that win over any config file: no hooks, no fsmonitor, no filters from attributes that matter, no signing, no pager. */
const OVERRIDES = [
  "core.hooksPath=/dev/null",
  "core.fsmonitor=false",
  "core.autocrlf=false",
  "core.safecrlf=false",
  "core.symlinks=true",
  "core.quotePath=false",
  "core.untrackedCache=true",
  "core.checkStat=minimal",
  "core.trustctime=false",
  "core.pager=cat",
  "commit.gpgSign=false",
  "gc.autoDetach=false",
  "advice.addEmbeddedRepo=false",
  "protocol.allow=never",
  "user.name=Manifold",
  "user.email=checkpoints@manifold.invalid",
];

export interface GitRepo {
  /** The shadow repository (GIT_DIR). */
  readonly gitDir: string;
  /** The folder (GIT_WORK_TREE). */
  readonly workTree: string;
  /** The host environment git's is scrubbed from (process.env when absent). */
  readonly hostEnv?: NodeJS.ProcessEnv;
}

export interface GitRun {
  stdout: Buffer;
  stderr: string;
}

function scrubbedEnv(repo: GitRepo, indexFile: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(repo.hostEnv ?? process.env)) {
    if (v === undefined || k.startsWith("GIT_") || k === "XDG_CONFIG_HOME") continue;
    if (k === "PATH" || k === "SystemRoot" || k === "TMPDIR" || k === "TEMP" || k === "TMP") env[k] = v;
  }
  env.HOME = repo.gitDir; // no ~/.gitconfig, no ~/.config/git/*
  env.GIT_CONFIG_NOSYSTEM = "1";
  env.GIT_CONFIG_GLOBAL = "/dev/null";
  env.GIT_DIR = repo.gitDir;
  env.GIT_WORK_TREE = repo.workTree;
  env.GIT_TERMINAL_PROMPT = "0";
  env.GIT_OPTIONAL_LOCKS = "0";
  env.GIT_LITERAL_PATHSPECS = "1";
  env.LC_ALL = "C";
  if (indexFile) env.GIT_INDEX_FILE = indexFile;
  return env;
}

/** Runs git in the shadow repository; rejects with GitError on a non-zero exit, GitMissingError when git cannot start. */
export function git(
  repo: GitRepo,
  args: readonly string[],
  opts: { input?: Buffer | string; indexFile?: string; okCodes?: readonly number[] } = {},
): Promise<GitRun> {
  const argv = [...OVERRIDES.flatMap((o) => ["-c", o]), ...args];
  return new Promise((resolve, reject) => {
    const child = spawn("git", argv, {
      cwd: repo.workTree,
      env: scrubbedEnv(repo, opts.indexFile),
      stdio: ["pipe", "pipe", "pipe"],
      windowsHide: true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.stderr.on("data", (d: Buffer) => err.push(d));
    child.on("error", (e: NodeJS.ErrnoException) => reject(e.code === "ENOENT" ? new GitMissingError("git was not found") : e));
    child.on("close", (code) => {
      const stderr = Buffer.concat(err).toString("utf8");
      if (code === 0 || (code !== null && opts.okCodes?.includes(code))) resolve({ stdout: Buffer.concat(out), stderr });
      else reject(new GitError(args, code, stderr));
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(opts.input ?? "");
  });
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
