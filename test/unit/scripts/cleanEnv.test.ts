// The scrub every nested tool run starts from (scripts/lib/clean-env.mjs): what a calling npm, Node
// test runner or VS Code set for its children never reaches a nested npm, node-gyp or code-server.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { describe, it } from "node:test";
import { cleanEnv, cleanPath } from "../../../scripts/lib/clean-env.mjs";

const CLI = new URL("../../../scripts/lib/clean-env.mjs", import.meta.url).pathname;

/** What `npm test` hands a script (measured with `npm run env` on npm 11), plus a test runner and an editor. */
const underNpm: Record<string, string> = {
  HOME: "/home/u",
  LANG: "C.UTF-8",
  MANIFOLD_MODEL_PROVIDER: "demo",
  NODE_EXTRA_CA_CERTS: "/etc/ssl/certs/ca-certificates.crt",
  PATH: "/repo/node_modules/.bin:/node_modules/.bin:/usr/lib/node_modules/npm/node_modules/@npmcli/run-script/lib/node-gyp-bin:/usr/local/bin:/usr/bin",
  npm_config_user_agent: "npm/11.19.1 node/v20.20.2 linux x64 workspaces/false",
  npm_config_nodedir: "/usr",
  npm_config_node_gyp: "/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js",
  npm_node_execpath: "/usr/bin/node",
  npm_execpath: "/usr/lib/node_modules/npm/bin/npm-cli.js",
  npm_lifecycle_event: "test",
  npm_package_name: "manifold",
  NPM_CONFIG_REGISTRY: "http://elsewhere.invalid/",
  INIT_CWD: "/repo",
  NODE: "/usr/bin/node",
  NODE_OPTIONS: "--max-old-space-size=4096",
  NODE_PATH: "/repo/node_modules",
  NODE_TEST_CONTEXT: "child-v8",
  COREPACK_ENABLE_STRICT: "0",
  VSCODE_IPC_HOOK: "/run/vscode.sock",
  ELECTRON_RUN_AS_NODE: "1",
};

describe("clean-env: the environment of nested tool runs", () => {
  it("drops npm's config and lifecycle variables, Node's runtime hooks and an enclosing editor's", () => {
    const env = cleanEnv(underNpm);
    const leaked = Object.keys(env).filter((k) => /^npm_|^NODE(_|$)|^INIT_CWD$|^COREPACK_|^VSCODE_|^ELECTRON_/i.test(k) && k !== "NODE_EXTRA_CA_CERTS");
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
    assert.throws(() => execFileSync(process.execPath, [CLI, process.execPath, "-e", "process.exit(7)"], { env: underNpm }), (e: { status?: number }) => e.status === 7);
  });
});
