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

let root: { dispose(): Promise<void> } | undefined;

export function activate(context: vscode.ExtensionContext): ManifoldApi {
  // Everything but the manager, whose teardown is awaited (the agent tree must be gone, I-96).
  const store = new DisposableStore();
  const log = store.add(vscode.window.createOutputChannel("Manifold Agent", { log: true }));
  const diffs = store.add(new DiffContentProvider());
  const manager = new SessionManager(context, log, diffs, runSessionAction);
  const view = store.add(new SessionsView(manager));
  store.add(registerCommands(manager, view, context));
  store.add(
    vscode.window.registerWebviewPanelSerializer(CHAT_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state: unknown) => {
        panel.webview.options = webviewOptions(context.extensionUri);
        manager.restorePanel(panel, state);
      },
    }),
  );
  store.add(
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
  let disposing: Promise<void> | undefined;
  const dispose = () =>
    (disposing ??= (async () => {
      store.dispose();
      await manager.dispose();
    })());
  root = { dispose };
  // VS Code disposes subscriptions on shutdown; deactivate() awaits the same teardown.
  context.subscriptions.push({ dispose: () => void dispose() });
  return {
    agentPid: () => manager.agent.host.pid,
    bindings: () => manager.bindings(),
    whenReady: () => manager.whenReady(),
    panels: () => manager.panels(),
    onDidChange: manager.onDidChange,
  };
}

/** Resolves after the agent's whole process tree is gone (I-96). */
export async function deactivate(): Promise<void> {
  const r = root;
  root = undefined;
  await r?.dispose();
}
