// The editor side of fs/*: unsaved buffers for reads, undoable WorkspaceEdits for writes.
import * as path from "node:path";
import * as vscode from "vscode";
import type { EditorFiles } from "../../client/fileService";

export const vscodeFiles: EditorFiles = {
  openDocumentText(realPath: string): string | undefined {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === "file" && path.normalize(d.uri.fsPath) === realPath);
    return doc?.getText();
  },

  async write(realPath: string, content: string): Promise<void> {
    const uri = vscode.Uri.file(realPath);
    const edit = new vscode.WorkspaceEdit();
    let exists = true;
    try {
      await vscode.workspace.fs.stat(uri);
    } catch {
      exists = false;
    }
    if (!exists) {
      await vscode.workspace.fs.createDirectory(vscode.Uri.file(path.dirname(realPath)));
      edit.createFile(uri, { overwrite: false, ignoreIfExists: true, contents: new TextEncoder().encode(content) });
      if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`could not create ${realPath}`);
      return;
    }
    const doc = await vscode.workspace.openTextDocument(uri);
    const whole = new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length));
    edit.replace(uri, whole, content);
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`could not write ${realPath}`);
    // The agent expects the file on disk to change; the edit stays undoable in the editor.
    if (!(await doc.save())) throw new Error(`could not save ${realPath}`);
  },
};
