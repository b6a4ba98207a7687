// What third-party agents and their users are told: the client's answers fixed by what real
// agents expect, and the error when the selected agent is missing from the settings.
import assert from "node:assert/strict";
import { test } from "node:test";
import { AgentSettingsError, missingAgentMessage, resolveAgentSpec } from "../../../extension/agent/agentSpec";
import { missingFileAnswer } from "../../../extension/client/fileService";
import { thirdPartyAgentsFrom } from "../../../extension/sessions/settingsScope";

test("fs/read_text_file of a missing file inside the folder answers as Zed does: empty text (not an error), with _meta saying it does not exist", () => {
  // gemini-cli reads a write's target first and treats any error answer as a failure (its ACP layer
  // gets the JSON-RPC error as a plain object and only recognises Node's ENOENT), so an error here
  // meant it could never create a file; test/agent/realAgents.test.ts proves it with the real agent.
  assert.deepEqual(missingFileAnswer(), { content: "", _meta: { "manifold/exists": false } });
});

test("manifold.agent naming no entry: the message says where manifold.agents is read from (Remote settings in a remote window) and what is ignored", () => {
  const gemini = [{ name: "gemini", command: "gemini" }];
  assert.deepEqual(
    [
      missingAgentMessage("claude", [], { remoteName: "ssh-remote", machineValue: false, workspaceValue: false }),
      missingAgentMessage("claude", gemini, { remoteName: "dev-container", machineValue: true, workspaceValue: false }),
      missingAgentMessage("claude", [], { machineValue: false, workspaceValue: true }),
      missingAgentMessage("claude", gemini, { machineValue: true, workspaceValue: false }),
      missingAgentMessage("claude", []),
    ],
    [
      'manifold.agent is "claude", but manifold.agents has no entry with that name. In a remote window (ssh-remote), manifold.agents is read from the Remote settings (Preferences: Open Remote Settings), not User settings, and the Remote settings have no value for it.',
      'manifold.agent is "claude", but manifold.agents has no entry with that name (it lists "gemini"). In a remote window (dev-container), manifold.agents is read from the Remote settings (Preferences: Open Remote Settings), not User settings: the Remote settings\' value is the one used here, and entries in your User settings are ignored.',
      'manifold.agent is "claude", but manifold.agents has no entry with that name. Add the entry to your User settings (Preferences: Open User Settings (JSON)). A value in workspace or folder settings is ignored: a workspace cannot add commands to run.',
      'manifold.agent is "claude", but manifold.agents has no entry with that name (it lists "gemini").',
      'manifold.agent is "claude", but manifold.agents has no entry with that name.',
    ],
  );
  assert.throws(
    () =>
      resolveAgentSpec({
        settings: { agent: "claude", agents: [], agentsOrigin: { remoteName: "wsl", machineValue: false, workspaceValue: false } },
        secrets: {},
        baseEnv: {},
        execPath: "/n",
        extensionPath: "/e",
        dataDir: "/d/data",
        cwd: "/w",
      }),
    (e: unknown) => e instanceof AgentSettingsError && e.message.includes("Open Remote Settings"),
  );
});

test("manifold.agents: clientFs/clientTerminal false are read and reach the spawn spec's offer; left out, everything is offered", () => {
  const agents = thirdPartyAgentsFrom({
    inspect: () => ({
      globalValue: [
        { name: "boxed", command: "docker", args: ["run", "agent"], clientFs: false, clientTerminal: false },
        { name: "noTerm", command: "remote-agent", clientTerminal: false },
        { name: "local", command: "gemini" },
      ],
    }),
  });
  assert.deepEqual(
    agents.map((a) => [a.name, a.clientFs, a.clientTerminal]),
    [
      ["boxed", false, false],
      ["noTerm", undefined, false],
      ["local", undefined, undefined],
    ],
  );
  const offerOf = (agent: string) =>
    resolveAgentSpec({
      settings: { agent, agents },
      secrets: {},
      baseEnv: {},
      execPath: "/n",
      extensionPath: "/e",
      dataDir: "/d/data",
      cwd: "/w",
    }).offer;
  assert.deepEqual(offerOf("boxed"), { fs: false, terminal: false });
  assert.deepEqual(offerOf("noTerm"), { fs: true, terminal: false });
  assert.equal(offerOf("local"), undefined);
  // Not a boolean: the whole setting is refused (as for any malformed entry), never half-read.
  assert.deepEqual(thirdPartyAgentsFrom({ inspect: () => ({ globalValue: [{ name: "x", command: "y", clientFs: "no" }] }) }), []);
});
