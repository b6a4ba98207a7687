// Extension-host tests of the chat panels against the real built-in agent (demo model, offline).
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { COMMANDS, type ManifoldApi, type ManifoldChange, type PanelSnapshot } from "../../../extension/api";
import { activateManifold, fixtureFolders, whenApi } from "./helpers";

function panelOf(api: ManifoldApi, folder: vscode.WorkspaceFolder): PanelSnapshot | undefined {
  return api.panels().find((p) => p.folder === folder.uri.fsPath);
}

describe("Manifold chat panels", () => {
  it("I-92: each folder's panel is titled after its folder and bound to its own session", async () => {
    const api = await activateManifold();
    const { alpha, beta } = fixtureFolders();
    await vscode.commands.executeCommand(COMMANDS.openChat, alpha.uri);
    await vscode.commands.executeCommand(COMMANDS.openChat, beta.uri);
    await api.whenReady();
    const a = panelOf(api, alpha);
    const b = panelOf(api, beta);
    assert.ok(a && b, JSON.stringify(api.panels()));
    assert.deepEqual([a.title, b.title, a.agentStatus, b.agentStatus], ["Manifold: alpha", "Manifold: beta", "ready", "ready"]);
    assert.ok(a.sessionId && b.sessionId && a.sessionId !== b.sessionId);
    assert.deepEqual(
      api
        .bindings()
        .filter((x) => x.folder === alpha.uri.fsPath || x.folder === beta.uri.fsPath)
        .map((x) => x.sessionId)
        .sort(),
      [a.sessionId, b.sessionId].sort(),
    );
  });

  it("I-95: after the agent is killed, it restarts and every open panel re-attaches to its own session", async () => {
    const api = await activateManifold();
    const { alpha, beta } = fixtureFolders();
    await vscode.commands.executeCommand(COMMANDS.openChat, alpha.uri);
    await vscode.commands.executeCommand(COMMANDS.openChat, beta.uri);
    await api.whenReady();
    const before = new Map(api.panels().map((p) => [p.folder, p.sessionId]));
    const pid = api.agentPid();
    assert.equal(typeof pid, "number");
    process.kill(pid as number, "SIGKILL");
    await whenApi(
      api,
      () => {
        const now = api.agentPid();
        return now !== undefined && now !== pid ? now : undefined;
      },
      "a new agent process",
    );
    await api.whenReady();
    const after = api.panels();
    for (const folder of [alpha, beta]) {
      const p = after.find((x) => x.folder === folder.uri.fsPath);
      assert.ok(p, `panel of ${folder.name} is gone`);
      assert.equal(p.sessionId, before.get(folder.uri.fsPath), `${folder.name} must be bound to its own session again`);
      assert.ok(
        p.entries.some((e) => e.kind === "notice" && /restarted/i.test(e.text)),
        `${folder.name}'s panel must say the agent restarted: ${JSON.stringify(p.entries)}`,
      );
    }
  });

  it("onDidChange says what changed: the panel opening, then its own folder's session", async () => {
    const api = await activateManifold();
    const { alpha } = fixtureFolders();
    await vscode.commands.executeCommand(COMMANDS.closeSession, alpha.uri);
    assert.equal(panelOf(api, alpha), undefined);
    const seen: ManifoldChange[] = [];
    const sub = api.onDidChange((c) => seen.push(c));
    await vscode.commands.executeCommand(COMMANDS.openChat, alpha.uri);
    await api.whenReady();
    sub.dispose();
    const kinds = (c: ManifoldChange) => (c.kind === "session" || c.kind === "checkpoints" ? `${c.kind}:${c.folder}` : c.kind);
    const said = new Set(seen.map(kinds));
    assert.ok(said.has("panels") && said.has(`session:${alpha.uri.fsPath}`), `changes heard: ${[...said].join(", ")}`);
    assert.equal(panelOf(api, alpha)?.sessionId !== undefined, true);
  });

  it("Close Session closes the folder's panel; Open Chat brings it back on the same session", async () => {
    const api = await activateManifold();
    const { alpha } = fixtureFolders();
    await vscode.commands.executeCommand(COMMANDS.openChat, alpha.uri);
    await api.whenReady();
    const session = panelOf(api, alpha)?.sessionId;
    await vscode.commands.executeCommand(COMMANDS.closeSession, alpha.uri);
    assert.equal(panelOf(api, alpha), undefined);
    await vscode.commands.executeCommand(COMMANDS.openChat, alpha.uri);
    await api.whenReady();
    assert.equal(panelOf(api, alpha)?.sessionId, session);
  });
});
