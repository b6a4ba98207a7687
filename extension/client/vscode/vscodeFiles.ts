// The editor side of fs/*: documents with unsaved changes. Their text is what the agent reads, and a
// write replaces it with one undoable WorkspaceEdit, then saves. Every other file, open in a clean
// editor or not, is read from and written to the disk by SessionFileService (race-free, atomic): VS
// Code reloads a clean editor from disk as an undoable change, and the editor's save never races
// another writer of the file.
import * as path from "node:path";
import * as vscode from "vscode";
import type { EditorFiles } from "../fileService";

function unsavedDocument(realPath: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find(
    (d) => d.isDirty && !d.isClosed && d.uri.scheme === "file" && path.normalize(d.uri.fsPath) === realPath,
  );
}

export const vscodeFiles: EditorFiles = {
  openDocumentText(realPath: string): string | undefined {
    return unsavedDocument(realPath)?.getText();
  },

  async writeOpenDocument(realPath: string, content: string): Promise<boolean> {
    const doc = unsavedDocument(realPath);
    if (!doc) return false;
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), content);
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`could not edit ${realPath}`);
    // The agent expects the file on disk to change; the edit stays undoable in the editor.
    if (!(await doc.save())) throw new Error(`could not save ${realPath}`);
    return true;
  },
};
