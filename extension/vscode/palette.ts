// The "Manifold" commands (ids in api.ts, titles in package.json).
import * as vscode from "vscode";
import { COMMANDS } from "../api";
import { readAgentProfiles, SECRET_KEYS, selectedAgent } from "./config";
import { profileChoices } from "../sessions/profileChoice";
import { pickPendingApproval } from "../permissions/vscode/permissionSurface";
import { registerAgentPicker } from "../registry/vscode/agentCommands";
import type { SessionAction } from "../common/webviewMessages";
import { errorText, oneLine, quotePrompt } from "../common/text";
import type { FolderSession } from "../sessions/folderSession";
import type { SessionManager } from "../sessions/vscode/sessionManager";
import { isChangeNode, openChangeDiff, type SessionsNode, type SessionsView } from "../sessions/vscode/sessionsView";
import { DisposableStore, type IDisposable } from "../../base/lifecycle";

/** Commands accept a tree node, a folder Uri, a folder path, or nothing (then ask). */
async function resolveFolder(manager: SessionManager, arg: unknown, placeHolder: string): Promise<vscode.WorkspaceFolder | undefined> {
  if (arg && typeof arg === "object" && "kind" in arg && "folder" in arg) return (arg as SessionsNode).folder;
  if (arg instanceof vscode.Uri) return manager.folderOf(arg.fsPath) ?? vscode.workspace.getWorkspaceFolder(arg);
  if (typeof arg === "string") return manager.folderOf(arg);
  const folders = manager.folders();
  if (folders.length === 0) {
    void vscode.window.showWarningMessage("Manifold: open a folder first; each workspace folder gets its own chat.");
    return undefined;
  }
  if (folders.length === 1) return folders[0];
  const active = vscode.window.activeTextEditor?.document.uri;
  const activeFolder = active ? vscode.workspace.getWorkspaceFolder(active) : undefined;
  const items = folders.map((f) => ({ label: f.name, description: f.uri.fsPath, folder: f, picked: f === activeFolder }));
  const picked = await vscode.window.showQuickPick(items, { placeHolder });
  return picked?.folder;
}

function sessionIdArg(arg: unknown): string | undefined {
  return arg && typeof arg === "object" && "kind" in arg && (arg as SessionsNode).kind === "session"
    ? (arg as Extract<SessionsNode, { kind: "session" }>).sessionId
    : undefined;
}

async function withErrors(what: string, fn: () => Promise<unknown>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    void vscode.window.showErrorMessage(`Manifold: ${what} failed: ${errorText(err)}`);
  }
}

async function pickSession(s: FolderSession, placeHolder: string, includeCurrent: boolean): Promise<string | undefined> {
  let list;
  try {
    list = await s.listSessions();
  } catch (err) {
    void vscode.window.showWarningMessage(`Manifold: this agent cannot list sessions (${errorText(err)}).`);
    return undefined;
  }
  const items = list
    .filter((i) => includeCurrent || i.sessionId !== s.sessionId)
    .sort((a, b) => (b.updatedAt ?? "").localeCompare(a.updatedAt ?? ""))
    .map((i) => ({
      label: i.title ?? i.sessionId,
      description: [i.sessionId === s.sessionId ? "current" : undefined, i.updatedAt ? new Date(i.updatedAt).toLocaleString() : undefined]
        .filter(Boolean)
        .join(" · "),
      detail: i.sessionId,
      sessionId: i.sessionId,
    }));
  if (items.length === 0) {
    void vscode.window.showInformationMessage(`Manifold: no other sessions for ${s.folderName}.`);
    return undefined;
  }
  return (await vscode.window.showQuickPick(items, { placeHolder, matchOnDetail: true }))?.sessionId;
}

/** Every command, registered by area; one disposable for all of them. */
export function registerCommands(manager: SessionManager, view: SessionsView, context: vscode.ExtensionContext): IDisposable {
  const store = new DisposableStore();
  for (const register of [
    registerSessionCommands,
    registerTurnCommands,
    registerAgentCommands,
    registerMcpCommands,
    registerCheckpointCommands,
  ]) {
    register(manager, view, context, store);
  }
  return store;
}

function reg(store: DisposableStore, id: string, fn: (...args: unknown[]) => unknown): void {
  store.add(vscode.commands.registerCommand(id, fn));
}

/** The folder's panel is opened (without focus) and its session attached, starting the agent if needed. */
async function attached(manager: SessionManager, arg: unknown, placeHolder: string): Promise<FolderSession | undefined> {
  const folder = await resolveFolder(manager, arg, placeHolder);
  if (!folder) return undefined;
  manager.openPanel(folder, { preserveFocus: true });
  const s = manager.session(folder);
  await manager.agent.ensureAttached(s);
  return s;
}

/** The agent profile of a new session: undefined for none (or none configured), null when the pick was dismissed. */
async function pickProfile(manager: SessionManager): Promise<string | undefined | null> {
  const choices = profileChoices(readAgentProfiles().profiles, manager.agent.host.spec?.builtin ?? selectedAgent() === "builtin");
  if (choices.length === 0) return undefined;
  const picked = await vscode.window.showQuickPick(choices, { title: "New Session", placeHolder: "Start the session from which profile?" });
  return picked ? picked.profileId : null;
}

/** Open Chat, New/Switch/Close/Delete Session. */
function registerSessionCommands(
  manager: SessionManager,
  view: SessionsView,
  _context: vscode.ExtensionContext,
  store: DisposableStore,
): void {
  reg(store, COMMANDS.openChat, async (arg) => {
    const folder = await resolveFolder(manager, arg, "Open a Manifold chat for which folder?");
    if (folder) manager.openPanel(folder);
  });
  reg(store, COMMANDS.newSession, (arg) =>
    withErrors("New Session", async () => {
      const profile = await pickProfile(manager);
      if (profile === null) return;
      const s = await attached(manager, arg, "New session in which folder?");
      if (!s) return;
      await s.newSession(profile);
      view.refresh();
    }),
  );
  reg(store, COMMANDS.switchSession, (arg) =>
    withErrors("Switch Session", async () => {
      const s = await attached(manager, arg, "Switch the session of which folder?");
      if (!s) return;
      const id = sessionIdArg(arg) ?? (await pickSession(s, `Sessions of ${s.folderName}`, false));
      if (!id) return;
      await s.switchTo(id);
      view.refresh();
    }),
  );
  reg(store, COMMANDS.closeSession, (arg) =>
    withErrors("Close Session", async () => {
      const folder = await resolveFolder(manager, arg, "Close the session of which folder?");
      if (!folder) return;
      const panel = manager.panel(folder.uri.fsPath);
      // Closing the panel closes its session (pending approvals are dismissed = rejected).
      if (panel) panel.dispose();
      else await manager.session(folder).close();
    }),
  );
  reg(store, COMMANDS.deleteSession, (arg) =>
    withErrors("Delete Session", async () => {
      const s = await attached(manager, arg, "Delete a session of which folder?");
      if (!s) return;
      const id = sessionIdArg(arg) ?? (await pickSession(s, `Delete which session of ${s.folderName}?`, true));
      if (!id) return;
      // A worktree session's own session: deleting it is discarding the worktree (which asks first).
      if (manager.folderOf(s.folder)?.index === -1 && id === s.sessionId) {
        await vscode.commands.executeCommand(COMMANDS.discardWorktree, vscode.Uri.file(s.folder));
        view.refresh();
        return;
      }
      if (!(await confirmDelete(s, id))) return;
      await s.deleteSession(id);
      view.refresh();
    }),
  );
}

async function confirmDelete(s: FolderSession, sessionId: string): Promise<boolean> {
  const ok = "Delete";
  const answer = await vscode.window.showWarningMessage(
    `Delete this session of ${s.folderName}? Its history is removed permanently.`,
    { modal: true, detail: sessionId },
    ok,
  );
  return answer === ok;
}

/** Cancel Turn and Show Pending Approvals: what a running turn needs of the user. */
function registerTurnCommands(
  manager: SessionManager,
  _view: SessionsView,
  _context: vscode.ExtensionContext,
  store: DisposableStore,
): void {
  reg(store, COMMANDS.cancelTurn, async (arg) => {
    const target = await turnToCancel(manager, arg);
    if (target) await target.cancel();
  });
  reg(store, COMMANDS.showPendingApprovals, async () => {
    const folder = await pickPendingApproval(
      manager.allSessions().map((s) => ({ folder: s.folder, folderName: s.folderName, pending: s.pending, questions: s.pendingQuestions })),
    );
    const wf = folder ? manager.folderOf(folder) : undefined;
    if (wf) manager.openPanel(wf);
  });
}

/** The folder named by `arg`; with none, the one running turn, or the user's pick among several. */
async function turnToCancel(manager: SessionManager, arg: unknown): Promise<FolderSession | undefined> {
  if (arg !== undefined) {
    const folder = await resolveFolder(manager, arg, "");
    return folder ? manager.session(folder) : undefined;
  }
  const running = manager.allSessions().filter((s) => s.state.running);
  if (running.length <= 1) return running[0];
  const picked = await vscode.window.showQuickPick(
    running.map((s) => ({ label: s.folderName, s })),
    { placeHolder: "Cancel the turn in which folder?" },
  );
  return picked?.s;
}

/** Select Agent, Set API Key, Restart Agent, Show Agent Log. */
function registerAgentCommands(
  manager: SessionManager,
  _view: SessionsView,
  context: vscode.ExtensionContext,
  store: DisposableStore,
): void {
  registerAgentPicker(manager, context, store);
  reg(store, COMMANDS.setApiKey, () => setApiKey(manager, context));
  reg(store, COMMANDS.restartAgent, () => withErrors("Restart Agent", () => manager.agent.restartAgent()));
  reg(store, COMMANDS.showLog, () => manager.log.show(true));
  reg(store, COMMANDS.signOut, () => withErrors("Sign Out of Agent", () => signOut(manager)));
  reg(store, COMMANDS.clearAgentSecret, () => withErrors("Clear Agent Secret", () => clearAgentSecret(manager)));
}

/** `logout` where the running agent advertises it; the next session it is asked for may need a sign-in again. */
async function signOut(manager: SessionManager): Promise<void> {
  const client = manager.agent.host.client;
  if (!client) {
    void vscode.window.showInformationMessage("Manifold: the agent is not running.");
    return;
  }
  if (!client.features.logout) {
    void vscode.window.showInformationMessage(
      `Manifold: ${client.agentName} does not support signing out. Its stored secrets can be removed with "Manifold: Clear Agent Secret…".`,
    );
    return;
  }
  await client.logout();
  void vscode.window.showInformationMessage(`Manifold: signed out of ${client.agentName}.`);
}

/** Removes one variable an env-var sign-in stored; it stops being passed when the agent restarts. */
async function clearAgentSecret(manager: SessionManager): Promise<void> {
  const entries = manager.agent.secrets.entries();
  if (entries.length === 0) {
    void vscode.window.showInformationMessage("Manifold: no agent secrets are stored.");
    return;
  }
  const picked = await vscode.window.showQuickPick(
    entries.map((e) => ({ label: e.name, description: e.agent, e })),
    { placeHolder: "Clear which stored agent secret?" },
  );
  if (!picked) return;
  await manager.agent.secrets.clear(picked.e.agent, picked.e.name);
  const restart = "Restart Agent";
  if (manager.agent.host.spec?.name === picked.e.agent) {
    const answer = await vscode.window.showInformationMessage(
      `Manifold: ${picked.e.name} is cleared; the running agent still has it until it restarts.`,
      restart,
    );
    if (answer === restart) await manager.agent.restartAgent();
  }
}

async function setApiKey(manager: SessionManager, context: vscode.ExtensionContext): Promise<void> {
  const provider = await vscode.window.showQuickPick(
    [
      { label: "OpenAI-compatible", description: "OPENAI_API_KEY (OpenAI, OpenRouter, …)", key: SECRET_KEYS.openai },
      { label: "Anthropic", description: "ANTHROPIC_API_KEY", key: SECRET_KEYS.anthropic },
    ],
    { placeHolder: "Set the API key of which provider?" },
  );
  if (!provider) return;
  const value = await vscode.window.showInputBox({
    password: true,
    ignoreFocusOut: true,
    prompt: `${provider.label} API key (stored in VS Code's secret storage; empty to remove)`,
  });
  if (value === undefined) return;
  if (value.trim() === "") await context.secrets.delete(provider.key);
  else await context.secrets.store(provider.key, value.trim());
  const restart = "Restart Agent";
  if (manager.agent.host.pid !== undefined) {
    const answer = await vscode.window.showInformationMessage("Manifold: the key is used when the agent starts.", restart);
    if (answer === restart) await withErrors("Restart Agent", () => manager.agent.restartAgent());
  }
}

/** Restart MCP Server. */
function registerMcpCommands(
  manager: SessionManager,
  _view: SessionsView,
  _context: vscode.ExtensionContext,
  store: DisposableStore,
): void {
  reg(store, COMMANDS.restartMcpServer, () => withErrors("Restart MCP Server", () => restartMcpServer(manager)));
}

/** Show Changes and Restore Checkpoint. */
function registerCheckpointCommands(
  manager: SessionManager,
  _view: SessionsView,
  _context: vscode.ExtensionContext,
  store: DisposableStore,
): void {
  reg(store, COMMANDS.showChanges, (arg) =>
    withErrors("Show Changes", async () => {
      // A changed file's row in the sessions view: straight to its diff.
      if (isChangeNode(arg)) return openChangeDiff(manager, arg);
      const s = await attached(manager, arg, "Show the changes in which folder?");
      if (s) await showChanges(manager, s);
    }),
  );
  reg(store, COMMANDS.restoreCheckpoint, (arg) =>
    withErrors("Restore Checkpoint", async () => {
      const s = await attached(manager, arg, "Restore a checkpoint of which folder?");
      if (s) await pickCheckpoint(manager, s);
    }),
  );
}

function checkpointsOf(manager: SessionManager, s: FolderSession) {
  const r = manager.checkpoints.forFolder(s.folder);
  if ("unavailable" in r) throw new Error(r.unavailable);
  if (!s.sessionId) throw new Error("no session is attached to this folder");
  return { ck: r.ck, sessionId: s.sessionId };
}

/** The changes since the last prompt's checkpoint: pick one to open its diff (the list is also in the panel). */
async function showChanges(manager: SessionManager, s: FolderSession): Promise<void> {
  const { ck, sessionId } = checkpointsOf(manager, s);
  await manager.panel(s.folder)?.refreshChanges();
  const { files, baseline } = await ck.changes(sessionId);
  if (files.length === 0) {
    void vscode.window.showInformationMessage(
      `Manifold: no changes in ${s.folderName} since ${baseline ? quotePrompt(baseline.label) : "the last checkpoint"}.`,
    );
    return;
  }
  const word = { A: "added", D: "deleted", M: "modified" } as const;
  const picked = await vscode.window.showQuickPick(
    files.map((f) => ({
      label: f.path,
      description: `${word[f.status]} ${f.added === null ? "binary" : `+${f.added} −${f.removed ?? 0}`}`,
      f,
    })),
    { placeHolder: `Changed in ${s.folderName} since ${baseline ? quotePrompt(baseline.label) : "the last checkpoint"}: open a diff` },
  );
  if (picked) await manager.baselineDocs.openDiff(ck, sessionId, picked.f.path, picked.f.status);
}

/** Every checkpoint of the session, newest first; the chosen one is shown for confirmation in the panel. */
async function pickCheckpoint(manager: SessionManager, s: FolderSession): Promise<void> {
  const { ck, sessionId } = checkpointsOf(manager, s);
  const list = [...(await ck.list(sessionId))].reverse();
  if (list.length === 0) {
    void vscode.window.showInformationMessage(`Manifold: no checkpoints yet in ${s.folderName}; one is taken before every prompt.`);
    return;
  }
  const picked = await vscode.window.showQuickPick(
    list.map((c) => ({
      label: c.kind === "prompt" ? `Before ${quotePrompt(c.label)}` : `Before the ${oneLine(c.label, 80)}`,
      description: new Date(c.at).toLocaleString(),
      c,
    })),
    { placeHolder: `Restore ${s.folderName} to which checkpoint? (the files that will change are shown first)` },
  );
  if (!picked) return;
  const panel = manager.panel(s.folder);
  if (!panel) throw new Error("the chat panel is not open");
  panel.reveal();
  await panel.review.ask(undefined, picked.c.id);
}

/** What the panel's header buttons do: the same commands, for that panel's folder. */
export function runSessionAction(action: SessionAction, s: FolderSession): void {
  const folder = vscode.Uri.file(s.folder);
  const id = {
    new: COMMANDS.newSession,
    switch: COMMANDS.switchSession,
    restartAgent: COMMANDS.restartAgent,
    showLog: COMMANDS.showLog,
    setApiKey: COMMANDS.setApiKey,
    selectAgent: COMMANDS.selectAgent,
  }[action];
  void vscode.commands.executeCommand(id, folder);
}

/** Manifold: Restart MCP Server…: one server of one open session; a declined one is asked about again. */
async function restartMcpServer(manager: SessionManager): Promise<void> {
  const items = manager.allSessions().flatMap((s) =>
    s.sessionId
      ? s.state.mcpServers
          .filter((r) => r.source !== "manifold" || r.state !== "not-passed")
          .map((r) => ({
            label: r.name,
            description: `${s.folderName} · ${r.source}`,
            detail: `${r.state}${r.detail ? `: ${r.detail}` : ""}`,
            s,
            row: r,
          }))
      : [],
  );
  if (items.length === 0) {
    void vscode.window.showInformationMessage("Manifold: no open session has MCP servers.");
    return;
  }
  const pick = await vscode.window.showQuickPick(items, { placeHolder: "Restart which MCP server?", matchOnDescription: true });
  if (!pick) return;
  const folder = manager.folderOf(pick.s.folder);
  if (folder && pick.row.state === "declined") await manager.mcp.forgetDenial(folder, pick.row.name);
  await pick.s.restartMcpServer(pick.row.name);
}
