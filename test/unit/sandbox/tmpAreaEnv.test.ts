import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, it } from "node:test";
import { childEnv, isAllowedEnvName } from "../../../agent-server/sandbox/env";
import { guardPath } from "../../../agent-server/sandbox/pathGuard";
import { createTmpAreas } from "../../../agent-server/sandbox/tmpArea";

describe("per-session temp areas", () => {
  it("I-76: one area per session, created lazily (0700), stable per session, removed on request", async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "mf-areas-"));
    try {
      const areas = createTmpAreas(base);
      const a = areas.pathFor("../../etc/x");
      const b = areas.pathFor("b");
      assert.equal(path.dirname(a), base, "a hostile id stays a single file name below the base");
      assert.notEqual(a, b);
      assert.equal(areas.pathFor("../../etc/x"), a);
      assert.equal(fs.existsSync(a), false, "lazy");
      areas.ensure("../../etc/x");
      assert.equal(fs.statSync(a).mode & 0o777, 0o700);
      fs.writeFileSync(path.join(a, "f"), "x");
      await areas.remove("../../etc/x");
      assert.equal(fs.existsSync(a), false);
      assert.notEqual(areas.pathFor("../../etc/x"), a, "a new area after removal");
      areas.ensure("b");
      await areas.removeAll();
      assert.deepEqual(fs.readdirSync(base), []);
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });
});

describe("child environment allowlist", () => {
  it("I-98: only allowlisted names pass; keys, tokens and secrets never do", () => {
    const env = childEnv(
      { PATH: "/bin", HOME: "/h", USER: "u", SHELL: "/bin/bash", LANG: "C", LC_ALL: "C", TERM: "xterm", OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "k", GITHUB_TOKEN: "t", LC_SECRET: "s", NODE_OPTIONS: "--x", ELECTRON_RUN_AS_NODE: "1", MANIFOLD_DATA_DIR: "/d" },
      "/tmp",
    );
    assert.deepEqual(env, { PATH: "/bin", HOME: "/h", USER: "u", SHELL: "/bin/bash", LANG: "C", LC_ALL: "C", TERM: "xterm", TMPDIR: "/tmp" });
    assert.equal(isAllowedEnvName("MY_SECRET_THING"), false);
  });
  it("a missing PATH gets a sane default", () => {
    assert.match(childEnv({}, "/t").PATH ?? "", /\/usr\/bin/);
  });
});

describe("roots spelled through symlinks", () => {
  it("I-71: a root spelled `a/link/..` is the physical parent of the link target", () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "mf-root71-")));
    try {
      fs.mkdirSync(path.join(base, "a"));
      fs.mkdirSync(path.join(base, "b", "c"), { recursive: true });
      fs.symlinkSync(path.join(base, "b", "c"), path.join(base, "a", "link"));
      const spelled = `${base}/a/link/..`;
      const inB = guardPath("x.txt", spelled, [spelled]);
      assert.deepEqual({ real: inB.real, within: inB.within }, { real: path.join(base, "b", "x.txt"), within: spelled });
      const inA = guardPath(path.join(base, "a", "x.txt"), spelled, [spelled]);
      assert.equal(inA.within, null);
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });
});
