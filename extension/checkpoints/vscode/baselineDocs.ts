// The left side of a "changes" diff: a file as it was at the session's review baseline, served
// read-only from the shadow repository. Its address names the baseline's tree, so one address always
// has one content: the diff opens with it (never a stale or empty left side waiting for a change
// event). The right side is the real file, so VS Code's diff editor offers its own per-hunk revert.
import * as path from "node:path";
import * as vscode from "vscode";
import type { FolderCheckpoints } from "../folderCheckpoints";

export const BASELINE_SCHEME = "manifold-checkpoint";

const TREE = /^[0-9a-f]{40,64}$/;

export class BaselineDocs implements vscode.TextDocumentContentProvider, vscode.Disposable {
  readonly #registration: vscode.Disposable;

  constructor(private readonly lookup: (folder: string) => FolderCheckpoints | undefined) {
    this.#registration = vscode.workspace.registerTextDocumentContentProvider(BASELINE_SCHEME, this);
  }

  uri(folder: string, tree: string, rel: string): vscode.Uri {
    return vscode.Uri.from({
      scheme: BASELINE_SCHEME,
      path: `/${rel}`,
      query: new URLSearchParams({ folder, tree }).toString(),
    });
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const q = new URLSearchParams(uri.query);
    const ck = this.lookup(q.get("folder") ?? "");
    const tree = q.get("tree") ?? "";
    if (!ck || !TREE.test(tree)) return "";
    return (await ck.repo.fileAt(tree, uri.path.slice(1)))?.toString("utf8") ?? "";
  }

  /** Opens the diff of `rel`: the baseline on the left, the real file on the right. */
  async openDiff(ck: FolderCheckpoints, sessionId: string, rel: string, status: "A" | "D" | "M"): Promise<void> {
    const tree = await ck.baselineTree(sessionId);
    if (!tree) throw new Error("This session has no checkpoint to compare with yet.");
    const left = this.uri(ck.folder, tree, rel);
    const right = vscode.Uri.file(path.join(ck.folder, ...rel.split("/")));
    if (status === "D") {
      await vscode.window.showTextDocument(left, { preview: true });
      return;
    }
    const what = status === "A" ? "new since the checkpoint" : "checkpoint ↔ now";
    await vscode.commands.executeCommand("vscode.diff", left, right, `${path.basename(rel)} (${what})`, { preview: true });
  }

  dispose(): void {
    this.#registration.dispose();
  }
}
