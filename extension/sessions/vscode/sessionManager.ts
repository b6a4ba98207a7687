// Folder ↔ session ↔ panel: one FolderSession per workspace folder (cwd = folder.uri.fsPath), its
// binding and queue persisted per folder, one chat panel per folder. The window's agent (start,
// status, re-attach after restarts, switch, sign-in) is windowAgent.ts.
import * as vscode from "vscode";
import type { FolderBinding, ManifoldChange, PanelSnapshot } from "../../api";
import { ChatPanel, CHAT_VIEW_TYPE, panelTitle, webviewOptions } from "../../chat/vscode/chatPanel";
import type { DiffContentProvider } from "../../chat/vscode/diffContent";
import { vscodeFiles } from "../../client/vscode/vscodeFiles";
import { ignoredWorkspaceSettings, readAgentSettings, sessionDefaults } from "../../vscode/config";
import { ignoredSettingNotice, IgnoredSettingNotices } from "../../common/userSettings";
import { McpHost } from "../../mcp/vscode/mcpHost";
import { surfaceHiddenRequest } from "../../permissions/vscode/permissionSurface";
import { surfaceHiddenQuestion } from "../../questions/vscode/questionSurface";
import type { SessionAction } from "../../common/webviewMessages";
import { permissionState } from "../../common/transcript";
import { compactionText } from "../../common/adapterConventions";
import * as os from "node:os";
import { detectSandbox, type CommandSandbox } from "../../../sandbox";
import { resolveHideDirs } from "../../../sandbox/hideDirs";
import { manifoldStorageDirs } from "../../agent/storageDirs";
import { errorText } from "../../common/text";
import { FolderSession } from "../folderSession";
import { getOrCreate } from "../getOrCreate";
import { BaselineDocs } from "../../checkpoints/vscode/baselineDocs";
import { CheckpointFolders } from "../../checkpoints/checkpointFolders";
import { Emitter, Event } from "../../../base/event";
import { DisposableMap, DisposableStore, type AsyncShutdown } from "../../../base/lifecycle";
import { TerminalOutputs } from "../../chat/vscode/terminalOutputs";
import { WindowAgent } from "./windowAgent";

const BINDINGS_KEY = "manifold.bindings";
/** Folder → its queue of messages waiting for a turn to end (validated on read, extension/common/promptQueue.ts). */
const QUEUES_KEY = "manifold.queues";

export class SessionManager implements AsyncShutdown {
  readonly #sessions = new Map<string, FolderSession>();
  /** Folders served like workspace folders that are not ones: worktree sessions' worktrees (extension/worktrees). */
  readonly #sessionFolders = new Map<string, vscode.WorkspaceFolder>();
  /** Each folder session's subscription, ended when the folder leaves the workspace. */
  readonly #sessionSubs = new DisposableMap<string>();
  /** The open chat panels by folder; a panel leaves the map when it is disposed. */
  readonly #panels = new DisposableMap<string, ChatPanel>();
  readonly #store = new DisposableStore();
  readonly #onDidChange = this.#store.add(new Emitter<ManifoldChange>());
  readonly onDidChange: Event<ManifoldChange> = this.#onDidChange.event;
  /** The window's agent: its process, status, re-attach, switch and sign-in. */
  readonly agent: WindowAgent;
  readonly mcp: McpHost;
  readonly checkpoints: CheckpointFolders;
  readonly baselineDocs: BaselineDocs;
  /** The terminals' recent output, recorded from the start for the `@` mention. */
  readonly terminalOutputs = this.#store.add(new TerminalOutputs());
  /** I-113: which ignored workspace values of user-only settings this window has told about. */
  readonly #settingNotices = new IgnoredSettingNotices();
  #shutdown?: Promise<void>;

  constructor(
    private readonly context: vscode.ExtensionContext,
    readonly log: vscode.LogOutputChannel,
    private readonly diffs: DiffContentProvider,
    private readonly runAction: (action: SessionAction, session: FolderSession) => void,
  ) {
    this.mcp = new McpHost(context, (m) => log.info(m));
    this.checkpoints = new CheckpointFolders(
      vscode.Uri.joinPath(context.globalStorageUri, "checkpoints").fsPath,
      { dirtyFiles: () => vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === "file").map((d) => d.uri.fsPath) },
      (m) => log.info(m),
    );
    this.baselineDocs = new BaselineDocs((folder) => this.checkpoints.get(folder));
    this.agent = new WindowAgent(context, log, {
      all: () => this.#sessions.values(),
      open: () => this.#openSessions(),
      sandbox: () => this.#terminalSandbox(),
      sessionFolders: () => [...this.#sessionFolders.values()].map((f) => ({ path: f.uri.fsPath, name: f.name })),
    });
    this.#store.add(this.agent.onDidChangeStatus((status) => this.#onDidChange.fire({ kind: "agent", status })));
    this.#store.add(this.baselineDocs);
    this.#store.add(this.#sessionSubs);
    this.#store.add(vscode.workspace.onDidChangeWorkspaceFolders((e) => this.#foldersChanged(e)));
  }

  #sandbox?: Promise<CommandSandbox>;

  /**
   * The command sandbox for `terminal/*`, probed once per window like the agent-server's: the
   * workspace folders may not hold the sandbox binary, and Manifold's storage is hidden as from the
   * built-in agent's commands (I-116).
   */
  #terminalSandbox(): Promise<CommandSandbox> {
    this.#sandbox ??= detectSandbox(process.env, {
      excludeDirs: this.folders().map((f) => f.uri.fsPath),
      hide: resolveHideDirs(manifoldStorageDirs(this.context), { home: os.homedir(), log: (line) => this.log.info(`terminals: ${line}`) }),
      log: (line) => this.log.info(`terminals: ${line}`),
    });
    return this.#sandbox;
  }

  // ---- folders and sessions ----

  /**
   * Folder → session id, one map per agent: switching agents and back reopens each agent's own
   * session. The built-in agent keeps the original key (bindings made before there was one map per agent stay valid).
   */
  #bindingsKey(): string {
    const spec = this.agent.host.spec;
    const agent = spec ? (spec.builtin ? "builtin" : spec.name) : readAgentSettings().agent;
    return agent === "builtin" || agent === "" ? BINDINGS_KEY : `${BINDINGS_KEY}/${agent}`;
  }

  #bindings(): Record<string, string> {
    const raw = this.context.workspaceState.get<unknown>(this.#bindingsKey());
    if (typeof raw !== "object" || raw === null) return {};
    return Object.fromEntries(Object.entries(raw).filter((e): e is [string, string] => typeof e[1] === "string"));
  }

  #queues(): Record<string, unknown> {
    const raw = this.context.workspaceState.get<unknown>(QUEUES_KEY);
    return typeof raw === "object" && raw !== null ? { ...(raw as Record<string, unknown>) } : {};
  }

  session(folder: vscode.WorkspaceFolder): FolderSession {
    const key = folder.uri.fsPath;
    const create = (): FolderSession =>
      new FolderSession(key, folder.name, {
        bindings: {
          get: (f) => this.#bindings()[f],
          set: (f, id) => {
            const next = { ...this.#bindings() };
            if (id) next[f] = id;
            else delete next[f];
            return Promise.resolve(this.context.workspaceState.update(this.#bindingsKey(), next));
          },
        },
        queues: {
          get: (f) => this.#queues()[f],
          set: (f, q) => {
            const next = this.#queues();
            if (q.items.length > 0) next[f] = q;
            else delete next[f];
            return Promise.resolve(this.context.workspaceState.update(QUEUES_KEY, next));
          },
        },
        editor: vscodeFiles,
        terminalSandbox: () => this.#terminalSandbox(),
        defaults: () => {
          void this.#tellIgnoredSettings(folder);
          return sessionDefaults();
        },
        mcpServers: (features) => this.mcp.serversFor(folder, features),
        delegation: this.agent.delegation,
        onPermissionRequested: (session, p) => {
          const panel = this.#panels.get(session.folder);
          if (!panel?.visible) surfaceHiddenRequest(session.folderName, p, () => this.openPanel(folder));
        },
        onQuestionRequested: (session, q) => {
          if (!this.#panels.get(session.folder)?.visible) surfaceHiddenQuestion(session.folderName, q, () => this.openPanel(folder));
        },
        // Only after the user chose "Open" on the question's card; the broker passes http(s) only.
        openExternal: (href) => void vscode.env.openExternal(vscode.Uri.parse(href, true)),
        ...(this.checkpoints.get(key) ? { checkpoints: this.checkpoints.get(key) } : {}),
        onCheckpointsChanged: (session) => {
          this.agent.afterTurn(session);
          void this.#panels.get(session.folder)?.refreshChanges();
          this.#onDidChange.fire({ kind: "checkpoints", folder: session.folder });
        },
        log: (m) => this.log.info(`[${folder.name}] ${m}`),
      });
    return getOrCreate(this.#sessions, key, create, (s) => {
      this.#sessionSubs.set(
        key,
        s.onDidEmit(() => this.#onDidChange.fire({ kind: "session", folder: key })),
      );
      this.agent.applyStatusTo(s);
    });
  }

  folders(): vscode.WorkspaceFolder[] {
    return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === "file");
  }

  /** A workspace folder, or a session folder added with addSessionFolder, by path. */
  folderOf(path: string): vscode.WorkspaceFolder | undefined {
    return this.folders().find((f) => f.uri.fsPath === path) ?? this.#sessionFolders.get(path);
  }

  /** A folder that gets a session and panel of its own like a workspace folder (a worktree); index -1. */
  addSessionFolder(folder: vscode.WorkspaceFolder): void {
    this.#sessionFolders.set(folder.uri.fsPath, folder);
    this.agent.foldersChanged();
    this.#onDidChange.fire({ kind: "panels" });
  }

  /** Ends a session folder's panel and session and forgets it; its binding is dropped. */
  async removeSessionFolder(path: string): Promise<void> {
    if (!this.#sessionFolders.delete(path)) return;
    this.#panels.get(path)?.dispose();
    const s = this.#sessions.get(path);
    this.#sessions.delete(path);
    this.#sessionSubs.deleteAndDispose(path);
    this.mcp.revoke(path);
    await s?.shutdown().catch((err: unknown) => this.log.warn(`[${s.folderName}] ending the session: ${errorText(err)}`));
    const next = { ...this.#bindings() };
    delete next[path];
    await this.context.workspaceState.update(this.#bindingsKey(), next);
    this.#onDidChange.fire({ kind: "panels" });
  }

  /** Sessions of the workspace folders, then of the session folders (worktrees). */
  allSessions(): FolderSession[] {
    return [...this.folders(), ...this.#sessionFolders.values()].map((f) => this.session(f));
  }

  #openSessions(): FolderSession[] {
    return [...this.#panels.values()].map((p) => p.session);
  }

  panel(folder: string): ChatPanel | undefined {
    return this.#panels.get(folder);
  }

  // ---- panels ----

  openPanel(folder: vscode.WorkspaceFolder, opts: { preserveFocus?: boolean } = {}): ChatPanel {
    const existing = this.#panels.get(folder.uri.fsPath);
    if (existing) {
      existing.panel.reveal(undefined, opts.preserveFocus ?? false);
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(
      CHAT_VIEW_TYPE,
      panelTitle(folder.name),
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: opts.preserveFocus ?? false },
      webviewOptions(this.context.extensionUri),
    );
    return this.#adopt(folder, panel);
  }

  /** Webview panel serializer: a panel restored after a reload finds its folder from its state. */
  restorePanel(panel: vscode.WebviewPanel, state: unknown): void {
    const folderPath = typeof state === "object" && state !== null && "folder" in state ? (state as { folder: unknown }).folder : undefined;
    const folder = typeof folderPath === "string" ? this.folderOf(folderPath) : undefined;
    if (!folder || this.#panels.has(folder.uri.fsPath)) {
      panel.dispose();
      return;
    }
    this.#adopt(folder, panel);
  }

  #adopt(folder: vscode.WorkspaceFolder, panel: vscode.WebviewPanel): ChatPanel {
    const s = this.session(folder);
    const chat = new ChatPanel(panel, s, {
      extensionUri: this.context.extensionUri,
      diffs: this.diffs,
      baselineDocs: this.baselineDocs,
      checkpoints: (x) => this.checkpoints.forFolder(x.folder),
      runAction: this.runAction,
      ensureAttached: (x) => this.agent.ensureAttached(x),
      signIn: (x, methodId) => this.agent.signIn(x)(methodId),
      log: (m) => this.log.warn(m),
      terminals: this.terminalOutputs,
    });
    this.#panels.set(folder.uri.fsPath, chat);
    chat.onDidDispose(() => {
      if (this.#panels.get(folder.uri.fsPath) === chat) this.#panels.deleteAndLeak(folder.uri.fsPath);
      // Closing the panel dismisses its cards (reject) and ends its live session; the binding stays.
      void s.close().catch((err: unknown) => this.log.warn(`[${folder.name}] closing the session: ${errorText(err)}`));
      this.#onDidChange.fire({ kind: "panels" });
    });
    // Shown or hidden: `panels()` reports `visible`.
    chat.onDidChangeVisibility(() => this.#onDidChange.fire({ kind: "panels" }));
    this.#onDidChange.fire({ kind: "panels" });
    void this.agent
      .ensureAttached(s)
      .then(() => this.#tellIgnoredSettings(folder))
      .catch((err: unknown) => this.log.error(`[${folder.name}] ${errorText(err)}`));
    return chat;
  }

  /** I-113: the folder's panel says which workspace values of user-only settings were ignored, once per window each. */
  async #tellIgnoredSettings(folder: vscode.WorkspaceFolder): Promise<void> {
    const found = await ignoredWorkspaceSettings(folder.uri).catch((err: unknown) => {
      this.log.warn(`[${folder.name}] could not check the workspace settings: ${errorText(err)}`);
      return [];
    });
    const session = this.#sessions.get(folder.uri.fsPath);
    if (!session) return;
    for (const id of this.#settingNotices.take(found))
      session.emit({ type: "notice", severity: "warning", text: ignoredSettingNotice(id) });
  }

  #foldersChanged(e: vscode.WorkspaceFoldersChangeEvent): void {
    for (const f of e.removed) {
      this.#panels.get(f.uri.fsPath)?.dispose();
      const s = this.#sessions.get(f.uri.fsPath);
      this.#sessions.delete(f.uri.fsPath);
      this.#sessionSubs.deleteAndDispose(f.uri.fsPath);
      this.mcp.revoke(f.uri.fsPath);
      s?.dispose();
    }
    // New folders get their own panel (and session) when chat is in use in this window.
    if (this.#panels.size > 0) for (const f of e.added) if (f.uri.scheme === "file") this.openPanel(f, { preserveFocus: true });
    this.#onDidChange.fire({ kind: "panels" });
  }

  // ---- API ----

  bindings(): FolderBinding[] {
    const out: FolderBinding[] = [];
    for (const s of this.#sessions.values()) if (s.sessionId) out.push({ folder: s.folder, sessionId: s.sessionId, cwd: s.folder });
    return out;
  }

  panels(): PanelSnapshot[] {
    return [...this.#panels.values()].map((p) => {
      const st = p.session.state;
      return {
        folder: p.session.folder,
        title: p.panel.title,
        visible: p.visible,
        ...(st.sessionId ? { sessionId: st.sessionId } : {}),
        agentStatus: st.agentStatus,
        running: st.running,
        entries: st.entries.map((e) => {
          switch (e.kind) {
            case "user":
            case "agent":
            case "thought":
            case "notice":
              return { kind: e.kind, text: e.text };
            case "tool":
              return {
                kind: e.kind,
                text: e.title,
                status: e.status,
                ...(e.parentToolCallId !== undefined ? { parent: e.parentToolCallId } : {}),
                ...(e.nested ? { nested: e.nested } : {}),
              };
            case "compaction":
              return { kind: e.kind, text: compactionText(e), status: e.status };
            case "permission":
              return { kind: e.kind, text: e.title, status: permissionState(st, e).state };
            case "question":
              return { kind: e.kind, text: e.message, status: e.outcome.state };
            default:
              return e satisfies never;
          }
        }),
        pendingApprovals: p.session.pending.length,
      };
    });
  }

  async whenReady(): Promise<void> {
    for (;;) {
      // A (re)start in flight re-attaches every open panel when it completes: wait for it first.
      await this.agent.host.whenStartSettled();
      const open = this.#openSessions();
      // An attach in progress already has an id (registered before load): wait for it to finish.
      await Promise.all(open.map(async (s) => (await s.whenAttached(), s.sessionId ? undefined : this.agent.ensureAttached(s))));
      // A panel showing its agent's sign-in card is settled too: it waits for the user.
      if (!vscode.workspace.isTrusted || this.#openSessions().every((s) => s.sessionId || s.state.auth)) return;
      await Event.toPromise(this.onDidChange);
    }
  }

  /** Closes the panels and sessions; the agent's tree and every terminal tree start ending (`shutdown` waits). */
  dispose(): void {
    if (!this.#shutdown) this.shutdown().catch((err: unknown) => this.log.error(`shutting down: ${errorText(err)}`));
  }

  /** Like `dispose`; resolves when the agent's whole tree and every terminal tree it served are gone (I-96, I-106). */
  shutdown(): Promise<void> {
    this.#shutdown ??= this.#shutDown();
    return this.#shutdown;
  }

  async #shutDown(): Promise<void> {
    this.#panels.dispose();
    // Deactivation ends every terminal tree the extension served (I-106) before it returns.
    const terminalsGone = Promise.all([...this.#sessions.values()].map((s) => s.shutdown()));
    this.#sessions.clear();
    this.#store.dispose();
    this.mcp.dispose();
    await Promise.all([this.agent.shutdown(), terminalsGone]);
  }
}
