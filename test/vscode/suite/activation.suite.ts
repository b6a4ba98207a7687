import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { COMMANDS } from "../../../extension/api";
import { activateManifold, EXTENSION_ID } from "./helpers";

describe("Manifold activation", () => {
  it("activates and returns its API", async () => {
    const api = await activateManifold();
    assert.equal(vscode.extensions.getExtension(EXTENSION_ID)?.isActive, true);
    assert.deepEqual(
      { agentPid: typeof api.agentPid, bindings: typeof api.bindings, whenReady: typeof api.whenReady },
      { agentPid: "function", bindings: "function", whenReady: "function" },
    );
    assert.ok(Array.isArray(api.bindings()));
  });

  it("registers every command it declares", async () => {
    await activateManifold();
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = Object.values(COMMANDS).filter((id) => !registered.has(id));
    assert.deepEqual(missing, []);
  });

  it("declares exactly the commands of extension/api.ts in its manifest", () => {
    const manifest: unknown = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON;
    const declared = ((manifest as { contributes?: { commands?: Array<{ command: string }> } }).contributes?.commands ?? []).map(
      (c) => c.command,
    );
    assert.deepEqual([...declared].sort(), Object.values(COMMANDS).sort());
  });
});
