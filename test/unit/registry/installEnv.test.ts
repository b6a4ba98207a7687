// What install tools (npm, tar, unzip) run with, and which archive entry names are refused.
import assert from "node:assert/strict";
import { test } from "node:test";
import { escapes } from "../../../extension/registry/archive";
import { installEnv } from "../../../extension/registry/installer";
import { underNpm } from "../../support/npmEnv";

test("install tools get the scrubbed environment: no outer npm/Node/editor variables, no secrets; proxies and the CA bundle kept", () => {
  const env = installEnv(
    { ...underNpm, OPENAI_API_KEY: "sk-x", GITHUB_TOKEN: "ghp_x", HTTPS_PROXY: "http://proxy:3128", NO_PROXY: "localhost" },
    { npm_config_registry: "http://127.0.0.1:9/" },
  );
  for (const name of [
    "OPENAI_API_KEY",
    "GITHUB_TOKEN",
    "npm_config_user_agent",
    "NODE_OPTIONS",
    "NODE_TEST_CONTEXT",
    "ELECTRON_RUN_AS_NODE",
    "VSCODE_IPC_HOOK",
    "INIT_CWD",
    "NPM_CONFIG_REGISTRY",
  ]) {
    assert.equal(env[name], undefined, name);
  }
  assert.equal(env.HTTPS_PROXY, "http://proxy:3128");
  assert.equal(env.NO_PROXY, "localhost");
  assert.equal(env.NODE_EXTRA_CA_CERTS, "/etc/ssl/certs/ca-certificates.crt");
  assert.equal(env.HOME, "/home/u");
  assert.equal(env.PATH, "/usr/local/bin:/usr/bin");
  assert.equal(env.npm_config_registry, "http://127.0.0.1:9/");
});

test("archive entries that would land outside the install folder are refused", () => {
  for (const bad of ["../x", "a/../../x", "/etc/passwd", "a/..", "..\\x", "C:/x"]) assert.equal(escapes(bad), true, bad);
  for (const ok of ["bin/agent", "./agent", "a/b..c/d", "..a"]) assert.equal(escapes(ok), false, ok);
});
