// The repository's files as the docs tests see them: tracked and addable (`git ls-files`, so a new
// file is checked before it is committed), or, without git (an unpacked archive), every file outside
// build output and tooling state.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, posix } from "node:path";

/** Top-level names that are build output or tooling state, never part of the documented tree. */
export const NOT_IN_REPO: ReadonlySet<string> = new Set([".git", "node_modules", "dist", "out", "test-results"]);

/** Repository-relative paths of the files that exist. */
export function repoFiles(root: string): string[] {
  try {
    return execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
      cwd: root,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    })
      .split("\0")
      .filter((f) => f !== "" && existsSync(join(root, f)));
  } catch {
    const out: string[] = [];
    const walk = (rel: string): void => {
      for (const name of readdirSync(join(root, rel))) {
        if (rel === "" && NOT_IN_REPO.has(name)) continue;
        if (name === "node_modules" || name === ".git") continue;
        const r = rel === "" ? name : posix.join(rel, name);
        if (statSync(join(root, r)).isDirectory()) walk(r);
        else out.push(r);
      }
    };
    walk("");
    return out;
  }
}
