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

/**
 * Resolves with `probe()`'s first defined value, checked now and at every `api.onDidChange`. The bound
 * only turns a hang into a failure that names what never happened.
 */
export function whenApi<T>(api: ManifoldApi, probe: () => T | undefined, what: string, boundMs = 120_000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const now = probe();
    if (now !== undefined) return resolve(now);
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`timed out after ${boundMs} ms waiting for ${what}`));
    }, boundMs);
    const sub = api.onDidChange(() => {
      const v = probe();
      if (v === undefined) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(v);
    });
  });
}

/** The fixture's folders, by name (the runner opens a .code-workspace with `alpha` and `beta`). */
export function fixtureFolders(): { alpha: vscode.WorkspaceFolder; beta: vscode.WorkspaceFolder } {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const alpha = folders.find((f) => f.name === "alpha");
  const beta = folders.find((f) => f.name === "beta");
  assert.ok(alpha && beta, `expected folders alpha and beta, got ${folders.map((f) => f.name).join(", ") || "none"}`);
  return { alpha, beta };
}
