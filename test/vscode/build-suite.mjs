#!/usr/bin/env node
// Builds what the VS Code tier runs, without touching a fresh product build others may be using:
//   - the product bundles (dist/) only if missing (`npm test` builds them in `pretest`);
//   - the mocha suite: test/vscode/suite/*.ts → out/test/suite/*.js (CJS; `vscode` and `mocha` external);
//   - with --vsix: out/manifold.vsix packaged by vsce from the current dist/, if older than its inputs.
// Callers that may run concurrently hold a lock (see test/vscode/support/build.ts).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const root = fileURLToPath(new URL("../..", import.meta.url));
const suiteDir = join(root, "test/vscode/suite");
const outDir = join(root, "out/test/suite");
export const vsixPath = join(root, "out/manifold.vsix");

if (!existsSync(join(root, "dist/extension.js")) || !existsSync(join(root, "dist/agent-server.js"))) {
  execFileSync(process.execPath, [join(root, "esbuild.mjs")], { cwd: root, stdio: "inherit" });
}

const entryPoints = readdirSync(suiteDir)
  .filter((f) => f === "index.ts" || f.endsWith(".suite.ts"))
  .map((f) => join(suiteDir, f));
await esbuild.build({
  entryPoints,
  outdir: outDir,
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  sourcemap: "inline",
  external: ["vscode", "mocha"],
  // As in esbuild.mjs: jsonc-parser's UMD `main` hides its requires from esbuild; the ESM build bundles.
  alias: { "jsonc-parser": "jsonc-parser/lib/esm/main.js" },
  logLevel: "warning",
});

function newestMtime(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(path).reduce((m, name) => Math.max(m, newestMtime(join(path, name))), st.mtimeMs);
}

if (process.argv.includes("--vsix")) {
  const inputs = ["dist", "package.json", ".vscodeignore", "README.md", "CHANGELOG.md", "LICENSE", "media"]
    .map((p) => join(root, p))
    .filter((p) => existsSync(p));
  const newest = Math.max(...inputs.map(newestMtime));
  if (!existsSync(vsixPath) || statSync(vsixPath).mtimeMs < newest) {
    mkdirSync(join(root, "out"), { recursive: true });
    const vsce = join(root, "node_modules/@vscode/vsce/vsce");
    execFileSync(
      process.execPath,
      [vsce, "package", "--no-dependencies", "--allow-missing-repository", "--no-rewrite-relative-links", "--out", vsixPath],
      {
        cwd: root,
        stdio: ["ignore", "inherit", "inherit"],
      },
    );
  }
}
