import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, it } from "node:test";
import { childEnv, isAllowedEnvName } from "../../../sandbox/env";
import { guardPath } from "../../../sandbox/pathGuard";
import { ensureDir } from "../../../sandbox/tmpArea";
import { FileSessionStore } from "../../../agent-server/session/store";

describe("per-session temp areas", () => {
  it("I-76: one area per session, created lazily (0700), stable per session and across restarts, removed with the session", async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "mf-areas-"));
    try {
      const store = new FileSessionStore(path.join(base, "data"), path.join(base, "tmp"));
      const a = store.tmpDirFor("../../etc/x");
      const b = store.tmpDirFor("b");
      assert.equal(path.dirname(a), path.join(base, "tmp"), "a hostile id stays a single file name below the base");
      assert.notEqual(a, b);
      assert.equal(store.tmpDirFor("../../etc/x"), a);
      assert.equal(
        new FileSessionStore(path.join(base, "data"), path.join(base, "tmp")).tmpDirFor("../../etc/x"),
        a,
        "a restarted agent finds the same area",
      );
      assert.equal(fs.existsSync(a), false, "lazy");
      ensureDir(a);
      assert.equal(fs.statSync(a).mode & 0o777, 0o700);
      fs.writeFileSync(path.join(a, "f"), "x");
      ensureDir(b);
      await store.delete("../../etc/x");
      assert.equal(fs.existsSync(a), false);
      assert.equal(fs.existsSync(b), true, "another session's area is untouched");
      await store.delete("b");
      assert.deepEqual(fs.readdirSync(path.join(base, "tmp")), []);
      // The default base is outside the data dir (which the sandbox hides) and is the same for the same data dir.
      const dflt = new FileSessionStore(path.join(base, "data"));
      assert.equal(path.dirname(dflt.tmpBase), os.tmpdir());
      assert.equal(dflt.tmpBase, new FileSessionStore(path.join(base, "data")).tmpBase);
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });
});

describe("child environment allowlist", () => {
  it("I-98: only allowlisted names pass; keys, tokens and secrets never do", () => {
    const env = childEnv(
      {
        PATH: "/bin",
        HOME: "/h",
        USER: "u",
        SHELL: "/bin/bash",
        LANG: "C",
        LC_ALL: "C",
        TERM: "xterm",
        OPENAI_API_KEY: "k",
        ANTHROPIC_API_KEY: "k",
        GITHUB_TOKEN: "t",
        LC_SECRET: "s",
        NODE_OPTIONS: "--x",
        ELECTRON_RUN_AS_NODE: "1",
        MANIFOLD_DATA_DIR: "/d",
      },
      "/tmp",
    );
    assert.deepEqual(env, {
      PATH: "/bin",
      HOME: "/h",
      USER: "u",
      SHELL: "/bin/bash",
      LANG: "C",
      LC_ALL: "C",
      TERM: "xterm",
      TMPDIR: "/tmp",
    });
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
