// Read-only documents for the two sides of an agent's diff, shown in VS Code's diff editor.
import * as path from "node:path";
import * as vscode from "vscode";

export const DIFF_SCHEME = "manifold-diff";

export class DiffContentProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  readonly #texts = new Map<string, string>();
  #seq = 0;
  readonly #registration: vscode.Disposable;

  constructor() {
    this.#registration = vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.#texts.get(uri.query) ?? "";
  }

  #uri(filePath: string, side: string, text: string): vscode.Uri {
    const key = `${++this.#seq}`;
    this.#texts.set(key, text);
    // Keep a bounded number of texts alive.
    if (this.#texts.size > 200) this.#texts.delete(this.#texts.keys().next().value as string);
    return vscode.Uri.from({ scheme: DIFF_SCHEME, path: `/${side}/${path.basename(filePath)}`, query: key });
  }

  async open(filePath: string, oldText: string | null | undefined, newText: string): Promise<void> {
    const left = this.#uri(filePath, "before", oldText ?? "");
    const right = this.#uri(filePath, "after", newText);
    const title = `${path.basename(filePath)} (${oldText === null || oldText === undefined ? "new file" : "agent's change"})`;
    await vscode.commands.executeCommand("vscode.diff", left, right, title, { preview: true });
  }

  dispose(): void {
    this.#registration.dispose();
    this.#texts.clear();
  }
}
