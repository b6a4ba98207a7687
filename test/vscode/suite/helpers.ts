// Shared by the extension-host suites: the activated API and the workspace folders of the fixture.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { ManifoldApi } from "../../../extension/api";

export const EXTENSION_ID = "manifold-dev.manifold";

export async function activateManifold(): Promise<ManifoldApi> {
  const extension = vscode.extensions.getExtension<ManifoldApi>(EXTENSION_ID);
  assert.ok(extension, `extension ${EXTENSION_ID} is not loaded`);
  return extension.activate();
}

/** The fixture's folders, by name (the runner opens a .code-workspace with `alpha` and `beta`). */
export function fixtureFolders(): { alpha: vscode.WorkspaceFolder; beta: vscode.WorkspaceFolder } {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const alpha = folders.find((f) => f.name === "alpha");
  const beta = folders.find((f) => f.name === "beta");
  assert.ok(alpha && beta, `expected folders alpha and beta, got ${folders.map((f) => f.name).join(", ") || "none"}`);
  return { alpha, beta };
}
