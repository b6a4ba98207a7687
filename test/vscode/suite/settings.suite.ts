// Settings a workspace must not control (I-113): every `manifold.*` setting is machine-scoped, so the
// hostile values the runner puts in the fixture's .code-workspace (the model endpoint, agent commands,
// the log level) and in alpha's .vscode/settings.json (full access, no sandbox, never ask) are
// ignored. A window-scoped setting of VS Code's from the same file applies (the control: the workspace
// settings were read at all), and the panel says once per window which values were ignored.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { COMMANDS } from "../../../extension/api";
import { ignoredWorkspaceSettings, readAgentSettings, sessionDefaults } from "../../../extension/vscode/config";
import { activateManifold, fixtureFolders } from "./helpers";

describe("Manifold settings and the workspace", () => {
  it("I-113: a workspace cannot redirect the model endpoint, add agent commands or raise the log level; window settings still apply", async () => {
    await activateManifold();
    const settings = readAgentSettings();
    assert.deepEqual(
      { baseUrl: settings.modelBaseUrl, agents: settings.agents, logLevel: settings.logLevel },
      { baseUrl: undefined, agents: [], logLevel: "info" },
    );
    assert.equal(vscode.workspace.getConfiguration("editor").get("tabSize"), 7);
  });

  it("I-113: a folder's .vscode/settings.json asking for full access changes no new session's defaults, and the panel says so once per window", async () => {
    const api = await activateManifold();
    const { alpha } = fixtureFolders();
    // The control: the hostile values are in alpha's settings file.
    const ignored = await ignoredWorkspaceSettings(alpha.uri);
    for (const id of ["defaultMode", "defaultSandbox", "defaultApproval"])
      assert.ok(ignored.includes(id), `${id} in ${ignored.join(", ")}`);
    assert.deepEqual(sessionDefaults(), {});

    const told = (): number =>
      api
        .panels()
        .flatMap((p) => p.entries)
        .filter((e) => e.kind === "notice" && e.text.startsWith("manifold.defaultMode is set in this workspace's settings and is ignored"))
        .length;
    await vscode.commands.executeCommand(COMMANDS.openChat, alpha.uri);
    await api.whenReady();
    assert.ok(told() <= 1, `told ${told()} times`);
    // A new session is not told again (its transcript starts empty).
    await vscode.commands.executeCommand(COMMANDS.newSession, alpha.uri);
    await api.whenReady();
    assert.equal(told(), 0);
  });
});
