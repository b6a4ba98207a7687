// The .vsix ships the esbuild bundles and the manifest's documents only (.vscodeignore): no sources,
// no tests, no node_modules, no source maps. `vsce ls` lists exactly what `vsce package` would pack.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { ensureBuilt } from "./support/build";
import { repoRoot } from "./support/tools";

describe("packaging (.vsix contents)", () => {
  let files: string[];

  before(() => {
    ensureBuilt({ vsix: false });
    const out = execFileSync(process.execPath, [join(repoRoot, "node_modules/@vscode/vsce/vsce"), "ls", "--no-dependencies"], {
      cwd: repoRoot,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
    files = out
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean);
  });

  it("packs only dist bundles (no source maps), package.json, README, CHANGELOG, LICENSE and media", () => {
    const allowed = /^(dist\/.+\.(js|css|ttf|svg|png)|package\.json|README\.md|CHANGELOG\.md|LICENSE|media\/.+)$/;
    assert.deepEqual(
      files.filter((f) => !allowed.test(f)),
      [],
    );
  });

  it("packs the extension, the agent-server, the webview and the license", () => {
    const required = [
      "package.json",
      "LICENSE",
      "dist/extension.js",
      "dist/agent-server.js",
      "dist/agent-server-core.js",
      "dist/agent-server-providers.js",
      "dist/agent-server-mcp.js",
      "dist/webview/main.js",
    ];
    assert.deepEqual(
      required.filter((f) => !files.includes(f)),
      [],
    );
  });
});
