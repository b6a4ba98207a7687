// The changes list follows the disk: a save in the editor, or a file created, changed or deleted in
// the folder by anything else, asks for a refresh (coalesced by the review: one at a time, one more
// after it). Changes inside git metadata are not the folder's files and are ignored.
import * as path from "node:path";
import * as vscode from "vscode";
import { DisposableStore } from "../../../base/lifecycle";

/** Calls `changed` when a file under `folder` is saved or changes on disk; disposing stops it. */
export function watchFolderFiles(folder: string, changed: () => void): vscode.Disposable {
  const store = new DisposableStore();
  const mine = (uri: vscode.Uri): boolean => {
    if (uri.scheme !== "file") return false;
    const rel = path.relative(folder, uri.fsPath);
    return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel) && !rel.split(path.sep).includes(".git");
  };
  const onUri = (uri: vscode.Uri): void => {
    if (mine(uri)) changed();
  };
  store.add(vscode.workspace.onDidSaveTextDocument((d) => onUri(d.uri)));
  const watcher = store.add(vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(folder), "**/*")));
  store.add(watcher.onDidCreate(onUri));
  store.add(watcher.onDidChange(onUri));
  store.add(watcher.onDidDelete(onUri));
  return { dispose: () => store.dispose() };
}
