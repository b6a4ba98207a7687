// Builds the mocha suite bundle and (optionally) the .vsix, once per process, under a file lock so
// concurrent test files do not package at the same time.
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "./tools";

export const vsixPath = join(repoRoot, "out/manifold.vsix");
export const suiteIndexPath = join(repoRoot, "out/test/suite/index.js");

const done = new Set<string>();

export function ensureBuilt(options: { vsix: boolean }): void {
  const key = options.vsix ? "vsix" : "suite";
  if (done.has(key)) return;
  mkdirSync(join(repoRoot, "out"), { recursive: true });
  const args = [join(repoRoot, "out/.build.lock"), process.execPath, join(repoRoot, "test/vscode/build-suite.mjs")];
  if (options.vsix) args.push("--vsix");
  execFileSync("flock", args, { cwd: repoRoot, stdio: ["ignore", "inherit", "inherit"] });
  done.add(key);
}
