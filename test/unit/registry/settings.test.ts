// I-107 (the pure part): which agent runs and which registry is read come from user or machine
// settings only. A workspace's values, however they are written, change neither.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { resolveAgentSpec } from "../../../extension/agent/agentSpec";
import { pickedAgent, registryAgentId, registryAgentSetting, registryUrl } from "../../../extension/registry/settings";
import { DEFAULT_REGISTRY_URL } from "../../../extension/registry/source";

const specOpts = {
  secrets: {},
  baseEnv: { PATH: "/usr/bin" },
  execPath: "/node",
  extensionPath: "/ext",
  dataDir: "/data/sessions",
  cwd: "/data",
};

describe("agent and registry settings", () => {
  test("I-107: workspace settings naming a registry agent and a registry URL pick nothing and point nowhere: the built-in agent runs", () => {
    const agent = pickedAgent({ defaultValue: "builtin", workspaceValue: "registry:evil", workspaceFolderValue: "registry:evil" });
    const url = registryUrl({
      defaultValue: DEFAULT_REGISTRY_URL,
      workspaceValue: "http://127.0.0.1:1/registry.json",
      workspaceFolderValue: "https://evil.example/r.json",
    });
    assert.equal(agent, "builtin");
    assert.equal(url, DEFAULT_REGISTRY_URL);
    const spec = resolveAgentSpec({ settings: { agent, agents: [] }, ...specOpts });
    assert.equal(spec.builtin, true);
  });

  test("I-107: the user's own values are the ones read", () => {
    assert.equal(
      pickedAgent({ defaultValue: "builtin", globalValue: "registry:gemini", workspaceValue: "registry:evil" }),
      "registry:gemini",
    );
    assert.equal(
      registryUrl({ globalValue: "https://mirror.example.com/acp/registry.json", workspaceValue: "https://evil.example/r.json" }),
      "https://mirror.example.com/acp/registry.json",
    );
  });

  test("a user registry URL that is not https (nor loopback http) is not used", () => {
    assert.equal(registryUrl({ globalValue: "http://mirror.example.com/registry.json" }), DEFAULT_REGISTRY_URL);
    assert.equal(registryUrl({ globalValue: "not a url" }), DEFAULT_REGISTRY_URL);
    assert.equal(registryUrl({ globalValue: "http://127.0.0.1:8080/registry.json" }), "http://127.0.0.1:8080/registry.json");
    assert.equal(pickedAgent({ globalValue: "  " }), "builtin");
    assert.equal(pickedAgent(undefined), "builtin");
  });

  test("registry:<id> runs the installed agent's launch, and says how to install it when it is not installed", () => {
    assert.equal(registryAgentId(registryAgentSetting("gemini")), "gemini");
    assert.equal(registryAgentId("gemini"), undefined);
    const launch = {
      setting: "registry:gemini",
      name: "Gemini CLI",
      command: "/store/gemini/0.27.3/node_modules/.bin/gemini",
      args: ["--experimental-acp"],
      env: { A_TOKEN: "x" },
    };
    const spec = resolveAgentSpec({ settings: { agent: "registry:gemini", agents: [] }, registryAgent: launch, ...specOpts });
    assert.equal(spec.builtin, false);
    assert.equal(spec.command, launch.command);
    assert.deepEqual(spec.args, launch.args);
    assert.equal(spec.env.A_TOKEN, "x");
    assert.ok(spec.secretEnvNames.includes("A_TOKEN"));
    assert.throws(
      () => resolveAgentSpec({ settings: { agent: "registry:gemini", agents: [] }, ...specOpts }),
      /not installed: pick it in Manifold: Select Agent/,
    );
    // A launch for another registry agent is not the picked one.
    assert.throws(
      () => resolveAgentSpec({ settings: { agent: "registry:other", agents: [] }, registryAgent: launch, ...specOpts }),
      /not installed/,
    );
  });
});
