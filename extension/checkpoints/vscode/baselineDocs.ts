// The left side of a "changes" diff: a file as it was at the session's review baseline, served
// read-only from the shadow repository. The right side is the real file, so VS Code's diff editor
// offers its own per-hunk revert.
import * as path from "node:path";
import * as vscode from "vscode";
import type { FolderCheckpoints } from "../folderCheckpoints";

export const BASELINE_SCHEME = "manifold-checkpoint";

export class BaselineDocs implements vscode.TextDocumentContentProvider, vscode.Disposable {
  readonly #registration: vscode.Disposable;
  readonly #onDidChange = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.#onDidChange.event;

  constructor(private readonly lookup: (folder: string) => FolderCheckpoints | undefined) {
    this.#registration = vscode.workspace.registerTextDocumentContentProvider(BASELINE_SCHEME, this);
  }

  uri(folder: string, sessionId: string, rel: string): vscode.Uri {
    return vscode.Uri.from({
      scheme: BASELINE_SCHEME,
      path: `/${rel}`,
      query: new URLSearchParams({ folder, session: sessionId }).toString(),
    });
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const q = new URLSearchParams(uri.query);
    const ck = this.lookup(q.get("folder") ?? "");
    const session = q.get("session");
    if (!ck || !session) return "";
    return (await ck.baselineContent(session, uri.path.slice(1)))?.toString("utf8") ?? "";
  }

  /** Opens the diff of `rel`: the baseline on the left, the real file on the right. */
  async openDiff(ck: FolderCheckpoints, sessionId: string, rel: string, status: "A" | "D" | "M"): Promise<void> {
    const left = this.uri(ck.folder, sessionId, rel);
    this.#onDidChange.fire(left);
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
    this.#onDidChange.dispose();
  }
}
