import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { COMMANDS } from "../../../extension/api";
import { activateManifold, fixtureFolders } from "./helpers";

describe("Manifold sessions in a two-folder workspace", () => {
  it("I-92: opening a folder's chat creates a session whose cwd is that folder", async () => {
    const api = await activateManifold();
    const { alpha } = fixtureFolders();
    await vscode.commands.executeCommand(COMMANDS.openChat, alpha.uri);
    await api.whenReady();
    const binding = api.bindings().find((b) => b.folder === alpha.uri.fsPath);
    assert.ok(binding, `no binding for ${alpha.uri.fsPath}: ${JSON.stringify(api.bindings())}`);
    assert.deepEqual(
      { ...binding, sessionId: typeof binding.sessionId },
      { folder: alpha.uri.fsPath, cwd: alpha.uri.fsPath, sessionId: "string" },
    );
    assert.notEqual(binding.sessionId, "");
  });

  it("I-92: one agent process serves the window; each folder has its own session and cwd", async () => {
    const api = await activateManifold();
    const { alpha, beta } = fixtureFolders();
    await vscode.commands.executeCommand(COMMANDS.openChat, alpha.uri);
    await api.whenReady();
    const pidAfterFirst = api.agentPid();
    await vscode.commands.executeCommand(COMMANDS.openChat, beta.uri);
    await api.whenReady();
    const pid = api.agentPid();
    assert.equal(typeof pid, "number");
    assert.equal(pid, pidAfterFirst, "opening a second folder's chat must not start a second agent");
    assert.doesNotThrow(() => process.kill(pid as number, 0), "the agent process is alive");

    const bindings = api.bindings();
    const byFolder = (folder: vscode.WorkspaceFolder) => bindings.find((b) => b.folder === folder.uri.fsPath);
    const a = byFolder(alpha);
    const b = byFolder(beta);
    assert.ok(a && b, `expected bindings for both folders: ${JSON.stringify(bindings)}`);
    assert.deepEqual(
      [
        { folder: a.folder, cwd: a.cwd },
        { folder: b.folder, cwd: b.cwd },
      ],
      [
        { folder: alpha.uri.fsPath, cwd: alpha.uri.fsPath },
        { folder: beta.uri.fsPath, cwd: beta.uri.fsPath },
      ],
    );
    assert.notEqual(a.sessionId, b.sessionId);
    assert.equal(bindings.length, 2, `one binding per folder: ${JSON.stringify(bindings)}`);
  });
});
