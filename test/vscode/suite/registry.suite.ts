// I-107 in a real VS Code: the runner's workspace settings and alpha's .vscode/settings.json name a
// registry agent (`manifold.agent`) and a registry on 127.0.0.1 (`manifold.agentRegistry.url`,
// support/registryTrap.ts). Neither is read: the window runs the built-in agent, and the trap
// registry sees no request — no list fetched, no archive downloaded, nothing installed.
import * as assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as vscode from "vscode";
import { COMMANDS } from "../../../extension/api";
import { DEFAULT_REGISTRY_URL } from "../../../extension/registry/source";
import { agentRegistryUrl, ignoredWorkspaceSettings, selectedAgent } from "../../../extension/vscode/config";
import { activateManifold, fixtureFolders } from "./helpers";

describe("Manifold agent registry and the workspace", () => {
  it("I-107: workspace settings naming a registry agent and a registry install nothing and spawn only the built-in agent", async () => {
    const trap = process.env.MANIFOLD_TEST_REGISTRY_TRAP;
    assert.ok(trap, "the runner passes the trap registry's address");
    const api = await activateManifold();
    const { alpha } = fixtureFolders();
    // The control: the hostile values are there, in the workspace's settings (VS Code hides a
    // machine-scoped value from inspect(); the settings files still hold it, I-113).
    const ignored = await ignoredWorkspaceSettings(alpha.uri);
    assert.ok(ignored.includes("agent") && ignored.includes("agentRegistry.url"), ignored.join(", "));
    assert.equal(selectedAgent(), "builtin");
    assert.equal(agentRegistryUrl(), DEFAULT_REGISTRY_URL);

    await vscode.commands.executeCommand(COMMANDS.openChat, alpha.uri);
    await api.whenReady();
    const pid = api.agentPid();
    assert.equal(typeof pid, "number");
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    assert.ok(
      cmdline.some((arg) => arg.endsWith("agent-server.js")),
      `the built-in agent runs, not ${cmdline.join(" ")}`,
    );
    const requests: unknown = await (await fetch(`${trap}/__requests`)).json();
    assert.deepEqual(requests, [], "nothing asked the workspace's registry");
  });
});
