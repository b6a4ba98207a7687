// scripts/agents/install.sh with a stand-in `npm` first on PATH (no registry): a cold run installs
// each pinned agent into its own prefix and prints where, a warm run calls npm no more, an unknown
// agent is refused, and a failed install says what failed, shows the log and how to retry.
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { pinOf } from "../../agents/support/installed";

const SCRIPT = new URL("../../../scripts/agents/install.sh", import.meta.url).pathname;

/** A fake npm: `npm install --prefix DIR … pkg@version` creates DIR/node_modules/.bin/<bin> and logs the call. */
function fakeNpm(dir: string, opts: { fail?: boolean } = {}): string {
  const bin = join(dir, "bin");
  mkdirSync(bin, { recursive: true });
  const script = `#!/usr/bin/env node
const fs = require("node:fs"), path = require("node:path");
const args = process.argv.slice(2);
fs.appendFileSync(${JSON.stringify(join(dir, "calls.log"))}, args.join(" ") + "\\n");
if (${opts.fail === true}) { console.error("npm error 404 Not Found (stand-in)"); process.exit(1); }
const prefix = args[args.indexOf("--prefix") + 1];
const pins = require(${JSON.stringify(new URL("../../../scripts/agents/pins.json", import.meta.url).pathname)}).agents;
const spec = args[args.length - 1];
const pin = pins.find((p) => spec === p.package + "@" + p.version);
const exe = path.join(prefix, "node_modules", ".bin", pin.bin);
fs.mkdirSync(path.dirname(exe), { recursive: true });
fs.writeFileSync(exe, "#!/bin/sh\\n");
fs.chmodSync(exe, 0o755);
`;
  writeFileSync(join(bin, "npm"), script);
  chmodSync(join(bin, "npm"), 0o755);
  return bin;
}

function run(tools: string, npmBin: string, ...ids: string[]) {
  return spawnSync("bash", [SCRIPT, ...ids], {
    encoding: "utf8",
    env: { PATH: `${npmBin}:${process.env.PATH}`, HOME: process.env.HOME, MANIFOLD_AGENTS_TOOLS: tools },
  });
}

describe("scripts/agents/install.sh", () => {
  it("installs a pinned agent into its own prefix once, prints its path, and is a no-op when warm", (t) => {
    const dir = mkdtempSync(join(tmpdir(), "manifold-agents-install-"));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const tools = join(dir, "tools");
    const npm = fakeNpm(dir);
    const pin = pinOf("gemini");
    const exe = join(tools, `gemini-${pin.version}`, "node_modules", ".bin", pin.bin);
    const cold = run(tools, npm, "gemini");
    assert.equal(cold.status, 0, cold.stderr);
    assert.equal(cold.stdout, `MANIFOLD_AGENT_GEMINI=${exe}\n`);
    assert.ok(existsSync(exe));
    const warm = run(tools, npm, "gemini");
    assert.deepEqual({ status: warm.status, stdout: warm.stdout }, { status: 0, stdout: cold.stdout });
    assert.equal(readFileSync(join(dir, "calls.log"), "utf8").trim().split("\n").length, 1, "a warm run called npm again");
  });

  it("refuses an unknown agent, and a failed install names the step, shows the log and the retry command", (t) => {
    const dir = mkdtempSync(join(tmpdir(), "manifold-agents-install-"));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const tools = join(dir, "tools");
    const unknown = run(tools, fakeNpm(dir), "nope");
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /unknown agent 'nope' \(known: gemini opencode codex claude/);
    const failed = run(tools, fakeNpm(join(dir, "failing"), { fail: true }), "opencode");
    assert.equal(failed.status, 1);
    assert.match(failed.stderr, /FAILED: opencode/);
    assert.match(failed.stderr, /npm error 404 Not Found \(stand-in\)/);
    assert.match(failed.stderr, /retry with: MANIFOLD_AGENTS_TOOLS=\S+ bash scripts\/agents\/install\.sh opencode/);
    assert.equal(existsSync(join(tools, `.stamp-opencode-${pinOf("opencode").version}`)), false);
  });
});
