// `fs/write_text_file` as the extension serves it to a third-party agent, in a real extension host:
// the folder's `SessionFileService` with the VS Code editor side (`vscodeFiles`). Agents such as
// opencode create the file themselves right after asking Manifold to write it; the write must still
// land, whole, and never fail because the file appeared in between.
import * as assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { SessionFileService } from "../../../extension/client/fileService";
import { PathConfinement } from "../../../extension/client/folderConfinement";
import { vscodeFiles } from "../../../extension/client/vscode/vscodeFiles";
import { fixtureFolders } from "./helpers";

/** Resolves when the document's text is `text` (VS Code reloads a clean editor after a disk change). */
function textBecomes(doc: vscode.TextDocument, text: string): Promise<void> {
  return new Promise((resolve) => {
    const sub = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === doc && doc.getText() === text) {
        sub.dispose();
        resolve();
      }
    });
  });
}

function filesOf(folder: string): SessionFileService {
  return new SessionFileService(new PathConfinement(folder), vscodeFiles);
}

describe("fs/write_text_file through the VS Code editor side", () => {
  it("creates a new file with the requested content even when another writer creates it first", async () => {
    const folder = fixtureFolders().alpha.uri.fsPath;
    const file = join(folder, "race", "created-meanwhile.txt");
    assert.equal(existsSync(file), false);
    // The other writer strikes when VS Code is about to create the file (after any existence check).
    const sub = vscode.workspace.onWillCreateFiles((e) => {
      if (e.files.some((u) => u.fsPath === file)) writeFileSync(file, "the agent's own copy\n");
    });
    try {
      await filesOf(folder).writeTextFile({ sessionId: "s", path: file, content: "requested content\n" });
    } finally {
      sub.dispose();
    }
    assert.equal(readFileSync(file, "utf8"), "requested content\n");
  });

  it("writes a file open in a clean editor on disk; the editor reloads it, and undo brings the old text back", async () => {
    const folder = fixtureFolders().alpha.uri.fsPath;
    const file = join(folder, "open-clean.txt");
    writeFileSync(file, "before\n");
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    await vscode.window.showTextDocument(doc, { preview: false });
    const reloaded = textBecomes(doc, "after\n");
    await filesOf(folder).writeTextFile({ sessionId: "s", path: file, content: "after\n" });
    await reloaded;
    assert.deepEqual({ disk: readFileSync(file, "utf8"), dirty: doc.isDirty }, { disk: "after\n", dirty: false });
    await vscode.commands.executeCommand("undo");
    assert.equal(doc.getText(), "before\n");
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  });

  it("writes a file open in a clean editor even when another writer changes it while it is being written", async () => {
    const folder = fixtureFolders().alpha.uri.fsPath;
    const file = join(folder, "open-raced.txt");
    writeFileSync(file, "before\n");
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    await vscode.window.showTextDocument(doc, { preview: false });
    // The other writer (the agent itself) strikes if VS Code is about to save the file.
    const sub = vscode.workspace.onWillSaveTextDocument((e) => {
      if (e.document === doc) writeFileSync(file, "the agent's own copy\n");
    });
    try {
      await filesOf(folder).writeTextFile({ sessionId: "s", path: file, content: "after\n" });
    } finally {
      sub.dispose();
    }
    assert.equal(readFileSync(file, "utf8"), "after\n");
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  });

  it("replaces a document with unsaved changes by an undoable edit, and saves it", async () => {
    const folder = fixtureFolders().alpha.uri.fsPath;
    const file = join(folder, "open-dirty.txt");
    writeFileSync(file, "on disk\n");
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    const editor = await vscode.window.showTextDocument(doc, { preview: false });
    await editor.edit((b) => b.insert(new vscode.Position(0, 0), "unsaved "));
    const files = filesOf(folder);
    assert.deepEqual(await files.readTextFile({ sessionId: "s", path: file }), { content: "unsaved on disk\n" });
    await files.writeTextFile({ sessionId: "s", path: file, content: "after\n" });
    assert.deepEqual(
      { disk: readFileSync(file, "utf8"), editor: doc.getText(), dirty: doc.isDirty },
      { disk: "after\n", editor: "after\n", dirty: false },
    );
    await vscode.commands.executeCommand("undo");
    assert.equal(doc.getText(), "unsaved on disk\n");
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  });
});
