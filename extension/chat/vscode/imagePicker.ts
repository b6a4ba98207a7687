// The composer's image picker: VS Code's open dialog, filtered to the image types the
// agent admits, starting in the panel's folder. Reads through `workspace.fs` so it works in Remote too.
import * as vscode from "vscode";
import { IMAGE_EXTENSIONS } from "../../common/images";

export interface PickedImage {
  path: string;
  bytes: Uint8Array;
}

export async function pickImageFiles(folder: string): Promise<PickedImage[]> {
  const uris = await vscode.window.showOpenDialog({
    canSelectMany: true,
    canSelectFiles: true,
    canSelectFolders: false,
    defaultUri: vscode.Uri.file(folder),
    openLabel: "Attach",
    title: "Attach images",
    filters: { Images: Object.keys(IMAGE_EXTENSIONS) },
  });
  const picked: PickedImage[] = [];
  for (const uri of uris ?? []) picked.push({ path: uri.fsPath, bytes: await vscode.workspace.fs.readFile(uri) });
  return picked;
}
