// A window's worktree sessions: each is a linked git worktree of a workspace folder with its own
// chat panel and ACP session (cwd = the worktree = its sandbox root), listed under its folder in the
// Sessions view. Created from the folder's HEAD next to the folder (worktreeGit.ts); its changes reach
// the folder only through Apply or Merge after the user confirms, and Discard removes the worktree
// and, if it was never merged, its branch (I-122). The records outlive reloads (workspaceState).
import * as path from "node:path";
import * as vscode from "vscode";
import type { SessionManager } from "../../sessions/vscode/sessionManager";
import { errorText } from "../../common/text";
import { Emitter, type Event } from "../../../base/event";
import { DisposableStore } from "../../../base/lifecycle";
import { WorktreeRecords, type StoredWorktree as WorktreeRecord, type WorktreePatch } from "../worktreeRecords";
import { diskUsage, formatDiskUsage, type DiskUsage } from "../diskUsage";

/** The panel and the Sessions view call a worktree session "alpha ▸ fix-login". */
export function worktreeName(folderName: string, branch: string): string {
  return `${folderName} ▸ ${branch}`;
}

export class WorktreeSessions implements vscode.Disposable {
  readonly records: WorktreeRecords;
  readonly #store = new DisposableStore();
  readonly #onDidChange = this.#store.add(new Emitter<void>());
  readonly onDidChange: Event<void> = this.#onDidChange.event;
  /** Disk use per worktree, measured when the list is drawn and after a turn; never blocks a draw. */
  readonly #usage = new Map<string, DiskUsage | "measuring">();

  constructor(
    context: vscode.ExtensionContext,
    private readonly manager: SessionManager,
  ) {
    this.records = new WorktreeRecords(context.workspaceState);
    for (const rec of this.records.list()) this.#register(rec);
    this.#store.add(
      manager.onDidChange((c) => {
        if (c.kind === "checkpoints" && this.byPath(c.folder)) this.#usage.delete(c.folder);
      }),
    );
  }

  /** The workspace folder a worktree belongs to, or undefined once that folder left the workspace. */
  parentOf(rec: WorktreeRecord): vscode.WorkspaceFolder | undefined {
    return this.manager.folderOf(rec.folder);
  }

  /** The worktree as a folder the session manager serves like a workspace folder. */
  folderFor(rec: WorktreeRecord): vscode.WorkspaceFolder {
    const parent = this.parentOf(rec);
    return { uri: vscode.Uri.file(rec.path), name: worktreeName(parent?.name ?? path.basename(rec.folder), rec.branch), index: -1 };
  }

  byPath(path: string): WorktreeRecord | undefined {
    return this.records.list().find((r) => r.path === path);
  }

  of(folder: string): WorktreeRecord[] {
    return this.records.list().filter((r) => r.folder === folder);
  }

  #register(rec: WorktreeRecord): void {
    this.manager.addSessionFolder(this.folderFor(rec));
  }

  /** Records a new worktree, registers its session folder and opens its panel. */
  async adopt(rec: WorktreeRecord): Promise<vscode.WorkspaceFolder> {
    await this.records.add(rec);
    this.#register(rec);
    this.#onDidChange.fire();
    return this.folderFor(rec);
  }

  async update(id: string, patch: WorktreePatch): Promise<void> {
    await this.records.update(id, patch);
    this.#onDidChange.fire();
  }

  /** Ends the worktree's session and panel and forgets the record (the caller removed or keeps the files). */
  async forget(rec: WorktreeRecord): Promise<void> {
    await this.manager.removeSessionFolder(rec.path);
    await this.records.remove(rec.id);
    this.#usage.delete(rec.path);
    this.#onDidChange.fire();
  }

  /** "12.3 MB", "measuring…", or a reason; measured once per change, in the background. */
  usageText(rec: WorktreeRecord): string {
    const u = this.#usage.get(rec.path);
    if (u === undefined) {
      this.#usage.set(rec.path, "measuring");
      diskUsage(rec.path).then(
        (got) => {
          this.#usage.set(rec.path, got);
          this.#onDidChange.fire();
        },
        (err: unknown) => this.manager.log.warn(`[${rec.branch}] disk use: ${errorText(err)}`),
      );
      return "measuring…";
    }
    return u === "measuring" ? "measuring…" : formatDiskUsage(u);
  }

  dispose(): void {
    this.#store.dispose();
  }
}
