// needs: e2e-tools
// Counts the extension-host mocha suite (test/vscode/suite, run inside a real VS Code) in node's test
// runner: one runTests() pipeline, whose output is printed, must exit 0. On offline machines the "VS Code"
// is code-server through test/vscode/vscode-shim.mjs; set VSCODE_EXECUTABLE_PATH yourself to use another
// (or MANIFOLD_VSCODE_DESKTOP=1 to let runTests download desktop VS Code).
import * as assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { ensureBuilt } from "./support/build";
import { ensureTools, repoRoot } from "./support/tools";

describe("extension-host tests in a real VS Code", () => {
  before(() => {
    ensureTools();
    ensureBuilt({ vsix: false });
  });

  it("the extension-host mocha suite (test/vscode/suite) passes in a real VS Code", async () => {
    const env = { ...process.env };
    if (!env.VSCODE_EXECUTABLE_PATH && env.MANIFOLD_VSCODE_DESKTOP !== "1") {
      env.VSCODE_EXECUTABLE_PATH = join(repoRoot, "test/vscode/vscode-shim.mjs");
    }
    const child = spawn(process.execPath, ["--import", "tsx", join(repoRoot, "test/vscode/runExtensionTests.ts")], {
      cwd: repoRoot,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    // Mocha's report is the evidence: show it whatever the outcome.
    child.stdout.on("data", (chunk: Buffer) => process.stderr.write(chunk));
    child.stderr.on("data", (chunk: Buffer) => process.stderr.write(chunk));
    const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    assert.equal(code, 0, "the extension-host suite failed (see the mocha report above)");
  });
});
