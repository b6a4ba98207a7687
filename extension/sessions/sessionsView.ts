// The "Sessions" tree (view `manifold.sessions`): folders → sessions, with state and a badge for
// pending approvals and unanswered questions.
import * as vscode from "vscode";
import type { SessionInfo } from "@agentclientprotocol/sdk";
import type { FolderSession, SessionActivity } from "./folderSession";
import type { SessionManager } from "./sessionManager";

export type SessionsNode =
  | { kind: "folder"; folder: vscode.WorkspaceFolder }
  | { kind: "session"; folder: vscode.WorkspaceFolder; sessionId: string; title: string; updatedAt?: string; current: boolean };

const ACTIVITY: Record<SessionActivity, { label: string; icon: string }> = {
  idle: { label: "idle", icon: "circle-outline" },
  running: { label: "running", icon: "loading~spin" },
  "needs-approval": { label: "needs approval", icon: "shield" },
  "needs-answer": { label: "has a question", icon: "question" },
  error: { label: "error", icon: "error" },
  detached: { label: "not started", icon: "circle-slash" },
};

export class SessionsView implements vscode.TreeDataProvider<SessionsNode>, vscode.Disposable {
  readonly #onDidChangeTreeData = new vscode.EventEmitter<SessionsNode | undefined>();
  readonly onDidChangeTreeData = this.#onDidChangeTreeData.event;
  readonly #view: vscode.TreeView<SessionsNode>;
  readonly #disposables: vscode.Disposable[] = [];
  #refreshTimer?: ReturnType<typeof setTimeout>;
  /** session/list results per folder, refetched when the folder's current session changes. */
  readonly #lists = new Map<string, { current: string | undefined; list: Promise<SessionInfo[]> }>();

  constructor(private readonly manager: SessionManager) {
    this.#view = vscode.window.createTreeView("manifold.sessions", { treeDataProvider: this, showCollapseAll: false });
    this.#disposables.push(
      this.#view,
      this.#onDidChangeTreeData,
      manager.onDidChange(() => this.#scheduleRefresh()),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.#scheduleRefresh()),
    );
    this.#updateBadge();
  }

  #scheduleRefresh(): void {
    this.#updateBadge();
    this.#refreshTimer ??= setTimeout(() => {
      this.#refreshTimer = undefined;
      this.#onDidChangeTreeData.fire(undefined);
    }, 100);
  }

  #updateBadge(): void {
    const pending = this.manager.allSessions().reduce((n, s) => n + s.pending.length, 0);
    const questions = this.manager.allSessions().reduce((n, s) => n + s.pendingQuestions.length, 0);
    const parts = [pending > 0 ? `${pending} pending approval${pending === 1 ? "" : "s"}` : "", questions > 0 ? `${questions} unanswered question${questions === 1 ? "" : "s"}` : ""];
    const total = pending + questions;
    this.#view.badge = total > 0 ? { value: total, tooltip: parts.filter(Boolean).join(", ") } : undefined;
  }

  getTreeItem(node: SessionsNode): vscode.TreeItem {
    if (node.kind === "folder") {
      const s = this.manager.session(node.folder);
      const act = ACTIVITY[s.activity];
      const item = new vscode.TreeItem(node.folder.name, vscode.TreeItemCollapsibleState.Expanded);
      const waiting = s.pending.length + s.pendingQuestions.length;
      item.description = waiting > 0 ? `${act.label} (${waiting})` : act.label;
      item.tooltip = node.folder.uri.fsPath;
      item.iconPath = new vscode.ThemeIcon(act.icon);
      item.contextValue = "manifold.folder";
      item.command = { command: "manifold.openChat", title: "Open Chat", arguments: [node] };
      return item;
    }
    const item = new vscode.TreeItem(node.title, vscode.TreeItemCollapsibleState.None);
    item.description = [node.current ? "current" : undefined, node.updatedAt ? new Date(node.updatedAt).toLocaleString() : undefined].filter(Boolean).join(" · ");
    item.tooltip = `${node.sessionId}\n${node.folder.uri.fsPath}`;
    item.iconPath = new vscode.ThemeIcon(node.current ? "comment-discussion" : "history");
    item.contextValue = node.current ? "manifold.session.current" : "manifold.session";
    item.command = { command: "manifold.switchSession", title: "Switch Session", arguments: [node] };
    return item;
  }

  async getChildren(node?: SessionsNode): Promise<SessionsNode[]> {
    if (!node) return this.manager.folders().map((folder) => ({ kind: "folder", folder }));
    if (node.kind !== "folder") return [];
    const s = this.manager.session(node.folder);
    let cached = this.#lists.get(s.folder);
    if (!cached || cached.current !== s.sessionId) {
      cached = { current: s.sessionId, list: listSafely(s) };
      this.#lists.set(s.folder, cached);
    }
    const list = await cached.list;
    const out: SessionsNode[] = list.map((i) => ({
      kind: "session",
      folder: node.folder,
      sessionId: i.sessionId,
      title: i.title ?? i.sessionId,
      ...(i.updatedAt ? { updatedAt: i.updatedAt } : {}),
      current: i.sessionId === s.sessionId,
    }));
    if (s.sessionId && !out.some((n) => n.kind === "session" && n.current)) {
      out.unshift({ kind: "session", folder: node.folder, sessionId: s.sessionId, title: s.state.title ?? "Current session", current: true });
    }
    return out;
  }

  /** Forgets cached session lists (after new/delete) and redraws. */
  refresh(): void {
    this.#lists.clear();
    this.#scheduleRefresh();
  }

  dispose(): void {
    clearTimeout(this.#refreshTimer);
    for (const d of this.#disposables.splice(0)) d.dispose();
  }
}

async function listSafely(s: FolderSession): Promise<SessionInfo[]> {
  try {
    return await s.listSessions();
  } catch {
    return [];
  }
}
