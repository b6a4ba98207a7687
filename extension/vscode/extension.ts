// activate/deactivate only: build the object graph under one root disposable. Activation is cheap:
// the agent is spawned at first need (a chat panel opening), never in an untrusted workspace.
import * as vscode from "vscode";
import type { ManifoldApi } from "../api";
import { DiffContentProvider } from "../chat/vscode/diffContent";
import { CHAT_VIEW_TYPE, webviewOptions } from "../chat/vscode/chatPanel";
import { registerCommands, runSessionAction } from "./palette";
import { affectsAgent } from "./config";
import { SessionManager } from "../sessions/vscode/sessionManager";
import { SessionsView } from "../sessions/vscode/sessionsView";
import { DisposableStore } from "../../base/lifecycle";
import { WorktreeSessions } from "../worktrees/vscode/worktreeSessions";
import { WorktreeBaseDocs } from "../worktrees/vscode/worktreeBaseDocs";
import { WorktreeCommands } from "../worktrees/vscode/worktreeCommands";

let root: DisposableStore | undefined;

export function activate(context: vscode.ExtensionContext): ManifoldApi {
  // The one root: VS Code disposes it with the subscriptions, and deactivate() awaits its shutdown.
  // A store disposes in creation order: `ui`, what serves the manager, goes before the manager, so
  // nothing asks it for a session while it tears down.
  const store = new DisposableStore();
  root = store;
  context.subscriptions.push(store);
  const log = store.add(vscode.window.createOutputChannel("Manifold Agent", { log: true }));
  const diffs = store.add(new DiffContentProvider());
  const ui = store.add(new DisposableStore());
  const manager = store.add(new SessionManager(context, log, diffs, runSessionAction));
  // Before the panel serializer: a restored worktree panel finds its folder among them.
  const worktrees = ui.add(new WorktreeSessions(context, manager));
  const view = ui.add(new SessionsView(manager, worktrees));
  ui.add(registerCommands(manager, view, context));
  const baseDocs = ui.add(new WorktreeBaseDocs((id) => worktrees.records.get(id)));
  new WorktreeCommands(manager, worktrees, baseDocs).register(ui);
  ui.add(
    vscode.window.registerWebviewPanelSerializer(CHAT_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state: unknown) => {
        panel.webview.options = webviewOptions(context.extensionUri);
        manager.restorePanel(panel, state);
      },
    }),
  );
  ui.add(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (affectsAgent(e) && manager.agent.host.pid !== undefined) {
        const restart = "Restart Agent";
        void vscode.window
          .showInformationMessage("Manifold: agent settings changed; they apply when the agent restarts.", restart)
          .then((a) => {
            if (a === restart) void vscode.commands.executeCommand("manifold.restartAgent");
          });
      }
    }),
  );
  return {
    agentPid: () => manager.agent.host.pid,
    bindings: () => manager.bindings(),
    whenReady: () => manager.whenReady(),
    panels: () => manager.panels(),
    onDidChange: manager.onDidChange,
  };
}

/** Resolves after the agent's whole process tree is gone (I-96). */
export function deactivate(): Promise<void> {
  const r = root;
  root = undefined;
  return r?.shutdown() ?? Promise.resolve();
}
