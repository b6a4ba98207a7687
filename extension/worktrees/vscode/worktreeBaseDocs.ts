// The left side of a worktree's review: a file as it was in the commit the worktree started from,
// read-only, read through git. Its address names the worktree and the path, so the diff opens with its
// content; an address without a path is the empty side of an added or deleted file.
import * as vscode from "vscode";
import { baseContent } from "../changes";
import type { WorktreeRecord } from "../worktreeGit";

export const WORKTREE_BASE_SCHEME = "manifold-worktree-base";

export class WorktreeBaseDocs implements vscode.TextDocumentContentProvider, vscode.Disposable {
  readonly #registration: vscode.Disposable;

  constructor(private readonly lookup: (id: string) => WorktreeRecord | undefined) {
    this.#registration = vscode.workspace.registerTextDocumentContentProvider(WORKTREE_BASE_SCHEME, this);
  }

  /** `rel` undefined: an empty document (shown as `shownAs`). */
  uri(rec: WorktreeRecord, rel: string | undefined, shownAs?: string): vscode.Uri {
    const q = new URLSearchParams({ id: rec.id, ...(rel !== undefined ? { path: rel } : {}) });
    return vscode.Uri.from({ scheme: WORKTREE_BASE_SCHEME, path: `/${rel ?? shownAs ?? "empty"}`, query: q.toString() });
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const q = new URLSearchParams(uri.query);
    const rec = this.lookup(q.get("id") ?? "");
    const rel = q.get("path");
    if (!rec || rel === null) return "";
    return (await baseContent(rec, rel))?.toString("utf8") ?? "";
  }

  dispose(): void {
    this.#registration.dispose();
  }
}
