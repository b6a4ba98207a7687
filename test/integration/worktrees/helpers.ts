// Real repositories for worktree tests: made with the test's own plain git, and the folder's state
// (branch, HEAD, index bytes and mtime, status, stash) captured to prove Manifold left it alone.
import { execFileSync } from "node:child_process";
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A plain git run for setting up and inspecting (not Manifold's runner). */
export function sh(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      PATH: process.env.PATH ?? "",
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_OPTIONAL_LOCKS: "0",
      LC_ALL: "C",
    },
  }).trim();
}

export function tempBase(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), "manifold-wt-")));
}

export function write(root: string, rel: string, content: string | Buffer): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), content);
}

export function read(root: string, rel: string): string {
  return readFileSync(join(root, rel), "utf8");
}

/** A repository `<base>/<name>` with files committed on `main` (and identity in its local config). */
export function makeRepo(
  base: string,
  files: Record<string, string> = { "a.txt": "one\ntwo\nthree\n", "b.txt": "bee\n" },
  name = "alpha",
): string {
  const folder = join(base, name);
  mkdirSync(folder, { recursive: true });
  sh(folder, "init", "-q", "-b", "main");
  sh(folder, "config", "user.name", "Ada Lovelace");
  sh(folder, "config", "user.email", "ada@example.com");
  for (const [p, c] of Object.entries(files)) write(folder, p, c);
  sh(folder, "add", "-A");
  sh(folder, "commit", "-q", "-m", "initial");
  return folder;
}

/** Everything of the folder's git state a worktree operation must not change. */
export function folderState(folder: string): Record<string, string> {
  const index = join(folder, ".git", "index");
  return {
    branch: sh(folder, "symbolic-ref", "HEAD"),
    head: sh(folder, "rev-parse", "HEAD"),
    status: sh(folder, "status", "--porcelain=v1", "--untracked-files=all"),
    stash: sh(folder, "stash", "list"),
    indexBytes: readFileSync(index).toString("base64"),
    indexMtime: String(statSync(index).mtimeMs),
    staged: sh(folder, "diff", "--cached", "--name-status"),
  };
}

/** The working tree's files (not `.git`) with their content, for "nothing reached the folder". */
export function files(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir).sort()) {
      if (rel === "" && name === ".git") continue;
      const abs = join(dir, name);
      const r = rel ? `${rel}/${name}` : name;
      const st = lstatSync(abs);
      if (st.isDirectory()) walk(abs, r);
      else out[r] = st.isSymbolicLink() ? `link:${readlinkSync(abs)}` : readFileSync(abs).toString("base64");
    }
  };
  walk(root, "");
  return out;
}
