// The scrub every nested tool run starts from (scripts/lib/clean-env.mjs): what a calling npm, Node
// test runner or VS Code set for its children never reaches a nested npm, node-gyp or code-server.
import * as assert from "node:assert/strict";
import { describe, it } from "node:test";
import { cleanEnv, cleanPath } from "../../../scripts/lib/clean-env.mjs";
import { underNpm } from "../../support/npmEnv";

describe("clean-env: the environment of nested tool runs", () => {
  it("drops npm's config and lifecycle variables, Node's runtime hooks and an enclosing editor's", () => {
    const env = cleanEnv(underNpm);
    const leaked = Object.keys(env).filter(
      (k) => /^npm_|^NODE(_|$)|^INIT_CWD$|^COREPACK_|^VSCODE_|^ELECTRON_/i.test(k) && k !== "NODE_EXTRA_CA_CERTS",
    );
    assert.deepEqual(leaked, []);
  });

  it("keeps what the user's shell had: HOME, LANG, Manifold's and the CA bundle", () => {
    const env = cleanEnv(underNpm);
    assert.equal(env.HOME, "/home/u");
    assert.equal(env.LANG, "C.UTF-8");
    assert.equal(env.MANIFOLD_MODEL_PROVIDER, "demo");
    assert.equal(env.NODE_EXTRA_CA_CERTS, "/etc/ssl/certs/ca-certificates.crt");
  });

  it("removes npm's PATH shims (node_modules/.bin, node-gyp-bin) and puts the wanted Node first", () => {
    assert.equal(cleanPath(underNpm.PATH), "/usr/local/bin:/usr/bin");
    assert.equal(cleanEnv(underNpm, {}, ["/tools/node24/bin"]).PATH, "/tools/node24/bin:/usr/local/bin:/usr/bin");
  });

  it("applies extra variables last, and undefined removes one", () => {
    const env = cleanEnv(underNpm, { npm_config_nodedir: "/tools/node24", HOME: undefined });
    assert.equal(env.npm_config_nodedir, "/tools/node24");
    assert.equal("HOME" in env, false);
  });
});
