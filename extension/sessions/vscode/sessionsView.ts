// The "Sessions" tree (view `manifold.sessions`): folders → sessions and worktree sessions → the
// current session's files changed since its last checkpoint, with state and a badge for pending
// approvals and unanswered questions.
import * as path from "node:path";
import * as vscode from "vscode";
import type { SessionInfo } from "@agentclientprotocol/sdk";
import { COMMANDS } from "../../api";
import type { FileChange } from "../../checkpoints/folderCheckpoints";
import type { FolderSession, SessionActivity } from "../folderSession";
import type { SessionManager } from "./sessionManager";
import { DisposableStore } from "../../../base/lifecycle";
import type { StoredWorktree } from "../../worktrees/worktreeRecords";
import type { WorktreeSessions } from "../../worktrees/vscode/worktreeSessions";

export type SessionsNode =
  | { kind: "folder"; folder: vscode.WorkspaceFolder }
  | {
      kind: "session";
      folder: vscode.WorkspaceFolder;
      sessionId: string;
      title: string;
      updatedAt?: string;
      current: boolean;
      changes: FileChange[];
    }
  | ChangeNode
  /** A worktree session of the folder: `folder` is the worktree, served like a folder. */
  | { kind: "worktree"; folder: vscode.WorkspaceFolder; rec: StoredWorktree };

/** A file changed since the session's review baseline; a click opens its diff (Show Changes with this node). */
export interface ChangeNode {
  kind: "change";
  folder: vscode.WorkspaceFolder;
  sessionId: string;
  file: FileChange;
}

export function isChangeNode(arg: unknown): arg is ChangeNode {
  return typeof arg === "object" && arg !== null && (arg as { kind?: unknown }).kind === "change";
}

const STATUS: Record<FileChange["status"], string> = { A: "added", D: "deleted", M: "modified" };

/** "+3 −1" (or "binary"), with the status: the description of a changed file's row. */
export function changeDescription(f: FileChange): string {
  const counts = f.added === null || f.removed === null ? "binary" : `+${f.added} −${f.removed}`;
  return `${counts} · ${STATUS[f.status]}`;
}

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
  readonly #store = new DisposableStore();
  #refreshTimer?: ReturnType<typeof setTimeout>;
  /** session/list results per folder, refetched when the folder's current session changes. */
  readonly #lists = new Map<string, { current: string | undefined; list: Promise<SessionInfo[]> }>();
  /**
   * Changed files per folder, recomputed only after the folder's checkpoint records change (a prompt's
   * checkpoint, the turn-end mark, keep/undo/restore): a snapshot hashes the folder, so never per event.
   */
  readonly #changes = new Map<string, { sessionId: string; files: Promise<FileChange[]> }>();

  constructor(
    private readonly manager: SessionManager,
    private readonly worktrees?: WorktreeSessions,
  ) {
    this.#view = vscode.window.createTreeView("manifold.sessions", { treeDataProvider: this, showCollapseAll: false });
    this.#store.add(this.#view);
    this.#store.add(this.#onDidChangeTreeData);
    this.#store.add(manager.onDidChange(() => this.#scheduleRefresh()));
    this.#store.add(vscode.workspace.onDidChangeWorkspaceFolders(() => this.#scheduleRefresh()));
    if (worktrees) this.#store.add(worktrees.onDidChange(() => this.#scheduleRefresh()));
    this.#store.add(
      manager.checkpoints.onDidChange((folder) => {
        this.#changes.delete(folder);
        this.#scheduleRefresh();
      }),
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
    const parts = [
      pending > 0 ? `${pending} pending approval${pending === 1 ? "" : "s"}` : "",
      questions > 0 ? `${questions} unanswered question${questions === 1 ? "" : "s"}` : "",
    ];
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
    if (node.kind === "worktree") return this.#worktreeItem(node);
    if (node.kind === "change") {
      const item = new vscode.TreeItem(
        vscode.Uri.file(path.join(node.folder.uri.fsPath, ...node.file.path.split("/"))),
        vscode.TreeItemCollapsibleState.None,
      );
      item.label = node.file.path;
      item.description = changeDescription(node.file);
      item.tooltip = `${node.file.path}: ${STATUS[node.file.status]} since the last checkpoint`;
      item.contextValue = "manifold.change";
      item.command = { command: COMMANDS.showChanges, title: "Show Changes", arguments: [node] };
      return item;
    }
    const item = new vscode.TreeItem(
      node.title,
      node.changes.length > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
    );
    item.description = [node.current ? "current" : undefined, node.updatedAt ? new Date(node.updatedAt).toLocaleString() : undefined]
      .filter(Boolean)
      .join(" · ");
    item.tooltip = `${node.sessionId}\n${node.folder.uri.fsPath}`;
    item.iconPath = new vscode.ThemeIcon(node.current ? "comment-discussion" : "history");
    item.contextValue = node.current ? "manifold.session.current" : "manifold.session";
    item.command = { command: "manifold.switchSession", title: "Switch Session", arguments: [node] };
    return item;
  }

  #worktreeItem(node: Extract<SessionsNode, { kind: "worktree" }>): vscode.TreeItem {
    const s = this.manager.session(node.folder);
    const act = ACTIVITY[s.activity];
    const rec = node.rec;
    const item = new vscode.TreeItem(rec.branch, vscode.TreeItemCollapsibleState.None);
    const waiting = s.pending.length + s.pendingQuestions.length;
    const state = rec.mergedAt ? "merged" : rec.appliedAt ? "applied" : undefined;
    item.description = [waiting > 0 ? `${act.label} (${waiting})` : act.label, state, this.worktrees?.usageText(rec)]
      .filter(Boolean)
      .join(" · ");
    item.tooltip = `Worktree session ${node.folder.name}\n${rec.path}\nfrom ${rec.base.slice(0, 12)}`;
    item.iconPath = new vscode.ThemeIcon(s.activity === "idle" || s.activity === "detached" ? "git-branch" : act.icon);
    item.contextValue = "manifold.worktree";
    item.command = { command: "manifold.openChat", title: "Open Chat", arguments: [node] };
    return item;
  }

  async getChildren(node?: SessionsNode): Promise<SessionsNode[]> {
    if (!node) return this.manager.folders().map((folder) => ({ kind: "folder", folder }));
    if (node.kind === "session")
      return node.changes.map((file) => ({ kind: "change", folder: node.folder, sessionId: node.sessionId, file }));
    if (node.kind !== "folder") return [];
    const s = this.manager.session(node.folder);
    const changes = s.sessionId ? await this.#changesOf(s.folder, s.sessionId) : [];
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
      changes: i.sessionId === s.sessionId ? changes : [],
    }));
    if (s.sessionId && !out.some((n) => n.kind === "session" && n.current)) {
      out.unshift({
        kind: "session",
        folder: node.folder,
        sessionId: s.sessionId,
        title: s.state.title ?? "Current session",
        current: true,
        changes,
      });
    }
    const wts = this.worktrees;
    if (wts) for (const rec of wts.of(node.folder.uri.fsPath)) out.push({ kind: "worktree", folder: wts.folderFor(rec), rec });
    return out;
  }

  #changesOf(folder: string, sessionId: string): Promise<FileChange[]> {
    let cached = this.#changes.get(folder);
    if (!cached || cached.sessionId !== sessionId) {
      const ck = this.manager.checkpoints.get(folder);
      cached = {
        sessionId,
        files: ck
          ? ck.changes(sessionId).then(
              (c) => c.files,
              () => [],
            )
          : Promise.resolve([]),
      };
      this.#changes.set(folder, cached);
    }
    return cached.files;
  }

  /** Forgets cached session lists (after new/delete) and redraws. */
  refresh(): void {
    this.#lists.clear();
    this.#changes.clear();
    this.#scheduleRefresh();
  }

  dispose(): void {
    clearTimeout(this.#refreshTimer);
    this.#store.dispose();
  }
}

/** Opens a changed file's diff from the tree: the same diff as the panel's changes list. */
export async function openChangeDiff(manager: SessionManager, node: ChangeNode): Promise<void> {
  const ck = manager.checkpoints.get(node.folder.uri.fsPath);
  if (ck) await manager.baselineDocs.openDiff(ck, node.sessionId, node.file.path, node.file.status);
}

async function listSafely(s: FolderSession): Promise<SessionInfo[]> {
  try {
    return await s.listSessions();
  } catch {
    return [];
  }
}
