// scripts/lib/clean-env.mjs as a command (a real child process): the scrub itself is unit-tested in
// test/unit/scripts/cleanEnv.test.ts.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { describe, it } from "node:test";
import { underNpm } from "../../support/npmEnv";

const CLI = new URL("../../../scripts/lib/clean-env.mjs", import.meta.url).pathname;

describe("clean-env: the environment of nested tool runs", () => {
  it("as a command: runs the program scrubbed, with KEY=VALUE and --prepend-path applied, and passes its exit code", () => {
    const printEnv = "process.stdout.write(JSON.stringify(process.env))";
    const out = execFileSync(process.execPath, [CLI, "--prepend-path", "/opt/x/bin", "WANTED=1", process.execPath, "-e", printEnv], {
      env: underNpm,
      encoding: "utf8",
    });
    const seen = JSON.parse(out) as Record<string, string>;
    assert.equal(seen.npm_config_user_agent, undefined);
    assert.equal(seen.NODE_OPTIONS, undefined);
    assert.equal(seen.WANTED, "1");
    assert.ok(seen.PATH?.startsWith("/opt/x/bin:"));
    assert.throws(
      () => execFileSync(process.execPath, [CLI, process.execPath, "-e", "process.exit(7)"], { env: underNpm }),
      (e: { status?: number }) => e.status === 7,
    );
  });
});
