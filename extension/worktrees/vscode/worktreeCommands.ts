// New Session in Worktree…, Review, Apply to Folder, Merge Branch and Discard: the worktree session's
// commands, from the palette, the Sessions view and the panel. Nothing reaches the folder without a
// modal confirmation; Apply takes a checkpoint of the folder first, so the folder's changes list
// shows what came in and can undo it (I-122).
import * as path from "node:path";
import * as vscode from "vscode";
import { COMMANDS } from "../../api";
import { errorText } from "../../common/text";
import type { SessionManager } from "../../sessions/vscode/sessionManager";
import type { DisposableStore } from "../../../base/lifecycle";
import type { StoredWorktree as WorktreeRecord } from "../worktreeRecords";
import { createWorktree, discardWorktree, isMerged } from "../worktreeGit";
import { branchNameFor, checkBranchName, repoOf } from "../repo";
import { changes as worktreeChanges, hasUnappliedChanges, type WorktreeChange } from "../changes";
import { applyToFolder } from "../apply";
import { mergeBranch } from "../merge";
import type { WorktreeBaseDocs } from "./worktreeBaseDocs";
import type { WorktreeSessions } from "./worktreeSessions";

/** A tree node, a folder or worktree Uri, a path, or nothing (then ask). */
type Arg = unknown;

async function withErrors(what: string, fn: () => Promise<unknown>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    void vscode.window.showErrorMessage(`Manifold: ${what} failed: ${errorText(err)}`);
  }
}

function pathOfArg(arg: Arg): string | undefined {
  if (arg instanceof vscode.Uri) return arg.fsPath;
  if (typeof arg === "string") return arg;
  if (arg && typeof arg === "object") {
    const a = arg as { kind?: unknown; rec?: { path?: unknown }; folder?: { uri?: unknown } };
    if (a.kind === "worktree" && typeof a.rec?.path === "string") return a.rec.path;
    if (a.folder?.uri instanceof vscode.Uri) return a.folder.uri.fsPath;
  }
  return undefined;
}

export class WorktreeCommands {
  constructor(
    private readonly manager: SessionManager,
    private readonly worktrees: WorktreeSessions,
    private readonly baseDocs: WorktreeBaseDocs,
  ) {}

  register(store: DisposableStore): void {
    const reg = (id: string, what: string, fn: (arg: Arg) => Promise<unknown>): void => {
      store.add(vscode.commands.registerCommand(id, (arg: Arg) => withErrors(what, () => fn(arg))));
    };
    reg(COMMANDS.newWorktreeSession, "New Session in Worktree", (arg) => this.newSession(arg));
    reg(COMMANDS.reviewWorktree, "Review Worktree", async (arg) => this.review(await this.#pick(arg, "Review which worktree?")));
    reg(COMMANDS.applyWorktree, "Apply to Folder", async (arg) => this.apply(await this.#pick(arg, "Apply which worktree to its folder?")));
    reg(COMMANDS.mergeWorktree, "Merge Branch", async (arg) => this.merge(await this.#pick(arg, "Merge which worktree's branch?")));
    reg(COMMANDS.discardWorktree, "Discard Worktree", async (arg) => this.discard(await this.#pick(arg, "Discard which worktree?")));
  }

  /** The worktree a command is for: named by its argument, the only one, or the user's pick. */
  async #pick(arg: Arg, placeHolder: string): Promise<WorktreeRecord | undefined> {
    const p = pathOfArg(arg);
    const named = p ? this.worktrees.byPath(p) : undefined;
    if (named) return named;
    const all = this.worktrees.records.list();
    if (all.length === 0) {
      void vscode.window.showInformationMessage("Manifold: there are no worktree sessions. Start one with New Session in Worktree….");
      return undefined;
    }
    if (all.length === 1) return all[0];
    const picked = await vscode.window.showQuickPick(
      all.map((rec) => ({ label: this.worktrees.folderFor(rec).name, description: rec.path, rec })),
      { placeHolder },
    );
    return picked?.rec;
  }

  async #folder(arg: Arg): Promise<vscode.WorkspaceFolder | undefined> {
    const p = pathOfArg(arg);
    const named = p ? this.manager.folderOf(p) : undefined;
    if (named && named.index >= 0) return named;
    const folders = this.manager.folders();
    if (folders.length === 1) return folders[0];
    if (folders.length === 0) {
      void vscode.window.showWarningMessage("Manifold: open a folder first; a worktree session starts from a folder's git repository.");
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      folders.map((f) => ({ label: f.name, description: f.uri.fsPath, f })),
      { placeHolder: "New session in a worktree of which folder?" },
    );
    return picked?.f;
  }

  async newSession(arg: Arg): Promise<void> {
    const folder = await this.#folder(arg);
    if (!folder) return;
    const repo = await repoOf(folder.uri.fsPath);
    if (!repo.ok) {
      void vscode.window.showWarningMessage(`Manifold: ${repo.reason}`);
      return;
    }
    const task = await vscode.window.showInputBox({
      title: `New Session in Worktree of ${folder.name}`,
      prompt: "What is the task? It names the worktree's branch.",
      placeHolder: "fix login",
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() === "" ? "Name the task." : undefined),
    });
    if (!task) return;
    const branch = await vscode.window.showInputBox({
      title: `New Session in Worktree of ${folder.name}`,
      prompt: `The new branch, from ${folder.name}'s HEAD (${repo.head.slice(0, 7)}). Your own branch, index and stash stay as they are.`,
      value: branchNameFor(task),
      ignoreFocusOut: true,
      validateInput: (v) => checkBranchName(repo, v.trim()),
    });
    if (!branch) return;
    const rec = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Manifold: creating the worktree ${branch}…` },
      () => createWorktree(folder.uri.fsPath, { branch: branch.trim() }),
    );
    const wt = await this.worktrees.adopt(rec);
    this.manager.openPanel(wt);
  }

  /** The worktree's changes against the commit it started from, in VS Code's multi-file diff editor. */
  async review(rec: WorktreeRecord | undefined): Promise<void> {
    if (!rec) return;
    const changes = await worktreeChanges(rec);
    const name = this.worktrees.folderFor(rec).name;
    if (changes.length === 0) {
      void vscode.window.showInformationMessage(`Manifold: ${name} has no changes since ${rec.base.slice(0, 7)}.`);
      return;
    }
    const resources = changes.map((c) => this.#diffTriple(rec, c));
    await vscode.commands.executeCommand("vscode.changes", `${name} ↔ ${rec.base.slice(0, 7)}`, resources);
  }

  #diffTriple(rec: WorktreeRecord, c: WorktreeChange): [vscode.Uri, vscode.Uri, vscode.Uri] {
    const file = vscode.Uri.file(path.join(rec.path, ...c.path.split("/")));
    const left = this.baseDocs.uri(rec, c.status === "added" ? undefined : (c.oldPath ?? c.path));
    const right = c.status === "deleted" ? this.baseDocs.uri(rec, undefined, c.path) : file;
    return [file, left, right];
  }

  async apply(rec: WorktreeRecord | undefined): Promise<void> {
    if (!rec) return;
    const folder = this.worktrees.parentOf(rec);
    if (!folder) throw new Error(`${rec.folder} is no longer a folder of this workspace.`);
    const changes = await worktreeChanges(rec);
    const name = this.worktrees.folderFor(rec).name;
    if (changes.length === 0) {
      void vscode.window.showInformationMessage(`Manifold: ${name} has no changes to apply.`);
      return;
    }
    const ok = "Apply";
    const answer = await vscode.window.showWarningMessage(
      `Apply ${changes.length} changed file${changes.length === 1 ? "" : "s"} of ${rec.branch} to ${folder.name}?`,
      {
        modal: true,
        detail: `They become uncommitted edits in ${folder.name}; its branch and index stay as they are. If any file changed there meanwhile, nothing is applied. A checkpoint is taken first, so the folder's changes list can undo it.\n\n${changeList(changes)}`,
      },
      ok,
    );
    if (answer !== ok) return;
    const session = this.manager.session(folder);
    const result = await applyToFolder(rec, {
      beforeWrite: async () => {
        await this.manager.agent.ensureAttached(session);
        const ck = this.manager.checkpoints.get(folder.uri.fsPath);
        if (ck && session.sessionId) await ck.beforeApply(session.sessionId, `apply of ${rec.branch}`);
      },
    });
    if ("conflicts" in result) {
      await vscode.window.showErrorMessage(
        `Nothing was applied: ${result.conflicts.length} file(s) of ${rec.branch} conflict with ${folder.name}.`,
        {
          modal: true,
          detail: result.conflicts.map((c) => `${c.path}: ${c.reason}`).join("\n"),
        },
      );
      return;
    }
    const ck = this.manager.checkpoints.get(folder.uri.fsPath);
    if (ck && session.sessionId) await ck.afterTurn(session.sessionId);
    await this.worktrees.update(rec.id, { appliedAt: Date.now() });
    this.manager.openPanel(folder, { preserveFocus: true });
    void vscode.window.showInformationMessage(
      `Manifold: applied ${result.applied.length} file${result.applied.length === 1 ? "" : "s"} of ${rec.branch} to ${folder.name}; its changes list can undo them.`,
    );
  }

  async merge(rec: WorktreeRecord | undefined): Promise<void> {
    if (!rec) return;
    const folder = this.worktrees.parentOf(rec);
    if (!folder) throw new Error(`${rec.folder} is no longer a folder of this workspace.`);
    const ok = "Merge";
    const answer = await vscode.window.showWarningMessage(
      `Merge the branch ${rec.branch} into ${folder.name}'s current branch?`,
      {
        modal: true,
        detail: `Uncommitted changes in the worktree are committed to ${rec.branch} first. If the merge cannot complete cleanly, it is aborted and ${folder.name} stays as it was.`,
      },
      ok,
    );
    if (answer !== ok) return;
    const result = await mergeBranch(rec, { message: `Manifold: ${rec.branch}` });
    if (!result.merged) {
      await vscode.window.showErrorMessage(`Nothing was merged into ${folder.name}.`, {
        modal: true,
        detail: [result.reason, ...result.files].join("\n"),
      });
      return;
    }
    await this.worktrees.update(rec.id, { mergedAt: Date.now() });
    void vscode.window.showInformationMessage(`Manifold: merged ${rec.branch} into ${folder.name}.`);
  }

  /** Removes the worktree and, if it was never merged, its branch; asks first, listing unapplied changes. */
  async discard(rec: WorktreeRecord | undefined): Promise<boolean> {
    if (!rec) return false;
    const merged = await isMerged(rec).catch(() => false);
    const changes = await worktreeChanges(rec).catch(() => []);
    // By content: after an Apply or Merge, later edits of the agent are unapplied again.
    const unapplied = changes.length > 0 && (await hasUnappliedChanges(rec).catch(() => true));
    const ok = "Discard";
    const answer = await vscode.window.showWarningMessage(
      `Discard the worktree ${rec.branch}?`,
      {
        modal: true,
        detail: [
          `Its folder ${rec.path} is removed${merged ? "" : `, and so is the branch ${rec.branch}, which was never merged`}. Its session ends.`,
          unapplied ? `\nIts ${changes.length} changed file(s) were never applied or merged:\n${changeList(changes)}` : "",
        ].join(""),
      },
      ok,
    );
    if (answer !== ok) return false;
    await this.worktrees.forget(rec);
    await discardWorktree(rec, { deleteBranch: !merged });
    void vscode.window.showInformationMessage(
      `Manifold: discarded the worktree ${rec.branch}${merged ? "; its branch stays, it was merged" : " and its branch"}.`,
    );
    return true;
  }
}

function changeList(changes: readonly WorktreeChange[]): string {
  const shown = changes.slice(0, 20).map((c) => `${c.status}: ${c.path}`);
  if (changes.length > 20) shown.push(`… and ${changes.length - 20} more`);
  return shown.join("\n");
}
