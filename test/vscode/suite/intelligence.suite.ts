// The language-intelligence adapter behind Manifold's own MCP server, in a real extension host with
// TypeScript. TypeScript checks a file only while it is shown in a tab, so `diagnostics(path)` shows a
// file in no tab in a background tab while it is analysed, and closes that tab again; a tab the user
// had open stays.
import * as assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { vscodeIntelligence } from "../../../extension/mcp/vscode/vscodeIntelligence";
import { fixtureFolders } from "./helpers";

const TYPE_ERROR = 'export const n: number = "x";\n';

function tabsShowing(path: string): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.fsPath === path);
}

async function typeErrorsOf(path: string): Promise<string[]> {
  const list = await vscodeIntelligence.diagnostics(path);
  return list
    .filter((d) => d.severity === "error" && d.code === "2322")
    .map((d) => `${d.range.start.line}:${d.range.start.character} ${d.message}`);
}

/**
 * TypeScript's server starts with the first TS file a tab shows, and its first semantic pass can take
 * longer than the adapter's bound on a loaded 2-core machine. The tests are about the adapter, not
 * that cold start: a file of their own is shown until its error is reported (event, no bound but
 * mocha's), then closed.
 */
async function warmTypeScript(): Promise<void> {
  const file = join(fixtureFolders().alpha.uri.fsPath, "src/intel-warmup.ts");
  writeFileSync(file, TYPE_ERROR);
  const uri = vscode.Uri.file(file);
  const reported = new Promise<void>((resolve) => {
    const check = (): boolean => vscode.languages.getDiagnostics(uri).some((d) => d.code === 2322 || d.code === "2322");
    if (check()) return resolve();
    const sub = vscode.languages.onDidChangeDiagnostics(() => {
      if (!check()) return;
      sub.dispose();
      resolve();
    });
  });
  const editor = await vscode.window.showTextDocument(uri, { preview: false });
  await reported;
  for (const tab of tabsShowing(editor.document.uri.fsPath)) await vscode.window.tabGroups.close(tab);
}

describe("diagnostics(path) of the VS Code adapter", () => {
  before(warmTypeScript);

  it("reports TypeScript's type error in a file no tab shows, and closes the tab it opened for that", async () => {
    const file = join(fixtureFolders().alpha.uri.fsPath, "src/intel-untabbed.ts");
    writeFileSync(file, TYPE_ERROR);
    assert.deepEqual(tabsShowing(file), []);
    assert.deepEqual(await typeErrorsOf(file), ["1:14 Type 'string' is not assignable to type 'number'."]);
    assert.deepEqual(tabsShowing(file), [], "the tab opened for the analysis is still open");
  });

  it("reports it for a file the user has open, and leaves that tab open", async () => {
    const file = join(fixtureFolders().alpha.uri.fsPath, "src/intel-tabbed.ts");
    writeFileSync(file, TYPE_ERROR);
    await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
    assert.deepEqual(await typeErrorsOf(file), ["1:14 Type 'string' is not assignable to type 'number'."]);
    assert.equal(tabsShowing(file).length, 1, "the user's tab was closed");
    await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
  });
});
