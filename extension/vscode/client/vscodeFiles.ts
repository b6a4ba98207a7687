// The editor side of fs/*: unsaved buffers for reads, undoable WorkspaceEdits for open documents.
// Files VS Code holds no document for are written by SessionFileService on disk (race-free, atomic);
// VS Code reloads a clean editor of such a file from disk as an undoable change.
import * as path from "node:path";
import * as vscode from "vscode";
import type { EditorFiles } from "../../client/fileService";

function openDocument(realPath: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === "file" && !d.isClosed && path.normalize(d.uri.fsPath) === realPath);
}

export const vscodeFiles: EditorFiles = {
  openDocumentText(realPath: string): string | undefined {
    return openDocument(realPath)?.getText();
  },

  async writeOpenDocument(realPath: string, content: string): Promise<boolean> {
    const doc = openDocument(realPath);
    if (!doc) return false;
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), content);
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`could not edit ${realPath}`);
    // The agent expects the file on disk to change; the edit stays undoable in the editor.
    if (!(await doc.save())) throw new Error(`could not save ${realPath}`);
    return true;
  },
};
