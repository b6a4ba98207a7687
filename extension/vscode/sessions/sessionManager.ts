// Folder ↔ session ↔ panel: one FolderSession per workspace folder (cwd = folder.uri.fsPath), one
// chat panel per folder, the window's one agent started at first need, re-attach after restarts.
import * as vscode from "vscode";
import type { FolderBinding, ManifoldChange, PanelSnapshot } from "../../api";
import type { AcpClient } from "../../agent/acpClient";
import { AgentHost } from "../../agent/agentHost";
import type { AgentLog } from "../../agent/agentProcess";
import { resolveAgentSpec } from "../../agent/agentSpec";
import { ChatPanel, CHAT_VIEW_TYPE, panelTitle, webviewOptions } from "../chat/chatPanel";
import type { DiffContentProvider } from "../chat/diffContent";
import { vscodeFiles } from "../client/vscodeFiles";
import { readAgentSettings, readSecrets, sessionDefaults, traceEnabled } from "../config";
import { installedRegistryLaunch } from "../registry/registryAgents";
import { McpHost } from "../mcp/mcpHost";
import { surfaceHiddenRequest } from "../permissions/surface";
import { surfaceHiddenQuestion } from "../questions/surface";
import type { SessionAction } from "../../common/webviewProtocol";
import { permissionState, type AgentStatus } from "../../common/transcript";
import { detectSandbox, type CommandSandbox } from "../../../sandbox";
import { errorText } from "../../common/text";
import { FolderSession } from "../../sessions/folderSession";
import { getOrCreate } from "../../sessions/getOrCreate";
import { BaselineDocs } from "../checkpoints/baselineDocs";
import { CheckpointRegistry } from "../../checkpoints/registry";
import { Emitter, Event } from "../../common/event";
import { DisposableMap, DisposableStore } from "../../common/lifecycle";
import { TerminalOutputs } from "../chat/terminalOutputs";
import { signIn } from "../../sessions/signIn";
import { AgentSecretStore, signInIO } from "./agentAuth";

const BINDINGS_KEY = "manifold.bindings";
/** Folder → its queue of messages waiting for a turn to end (validated on read, extension/common/promptQueue.ts). */
const QUEUES_KEY = "manifold.queues";

export class SessionManager implements vscode.Disposable {
  readonly #sessions = new Map<string, FolderSession>();
  /** Each folder session's subscription, ended when the folder leaves the workspace. */
  readonly #sessionSubs = new DisposableMap<string>();
  /** The open chat panels by folder; a panel leaves the map when it is disposed. */
  readonly #panels = new DisposableMap<string, ChatPanel>();
  readonly #store = new DisposableStore();
  readonly #onDidChange = this.#store.add(new Emitter<ManifoldChange>());
  readonly onDidChange: Event<ManifoldChange> = this.#onDidChange.event;
  readonly agentHost: AgentHost;
  readonly mcp: McpHost;
  #status: AgentStatus = "idle";
  readonly checkpoints: CheckpointRegistry;
  readonly baselineDocs: BaselineDocs;
  /** Issue #17: the terminals' recent output, recorded from the start for the `@` mention. */
  readonly terminalOutputs = this.#store.add(new TerminalOutputs());
  #statusMessage: string | undefined;
  /** Sign-in variables of third-party agents (SecretStorage). */
  readonly agentSecrets: AgentSecretStore;
  /** Set while `switchAgent` restarts the agent: the next attach keeps each transcript under a divider. */
  #switching = false;

  constructor(
    private readonly context: vscode.ExtensionContext,
    readonly log: vscode.LogOutputChannel,
    private readonly diffs: DiffContentProvider,
    private readonly runAction: (action: SessionAction, session: FolderSession) => void,
  ) {
    this.mcp = new McpHost(context, (m) => log.info(m));
    this.agentSecrets = new AgentSecretStore(context.secrets, context.globalState);
    this.checkpoints = new CheckpointRegistry(
      vscode.Uri.joinPath(context.globalStorageUri, "checkpoints").fsPath,
      { dirtyFiles: () => vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === "file").map((d) => d.uri.fsPath) },
      (m) => log.info(m),
    );
    this.baselineDocs = new BaselineDocs((folder) => this.checkpoints.get(folder));
    const agentLog: AgentLog = {
      info: (m) => log.info(m),
      warn: (m) => log.warn(m),
      error: (m) => log.error(m),
      trace: (m) => log.trace(m),
    };
    this.agentHost = new AgentHost({
      log: agentLog,
      trace: traceEnabled,
      needed: () => this.#panels.size > 0,
      recordsDir: vscode.Uri.joinPath(context.globalStorageUri, "agents").fsPath,
      resolveSpec: async () => {
        // The data dir (and the agent's cwd) must exist before the spawn.
        await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(context.globalStorageUri, "sessions"));
        const settings = readAgentSettings();
        return resolveAgentSpec({
          settings,
          registryAgent: await installedRegistryLaunch(context, settings.agent),
          secrets: { ...(await readSecrets(context.secrets)), agentEnv: await this.agentSecrets.read(settings.agent) },
          baseEnv: process.env,
          execPath: process.execPath,
          extensionPath: context.extensionUri.fsPath,
          dataDir: vscode.Uri.joinPath(context.globalStorageUri, "sessions").fsPath,
          cwd: context.globalStorageUri.fsPath,
        });
      },
      onStarted: (client, restart) => this.#onAgentStarted(client, restart),
      onCrashed: (message) => {
        for (const s of this.#sessions.values()) s.agentDied(message);
      },
      onStatus: (status, message) => this.#setStatus(status, message),
    });
    if (!vscode.workspace.isTrusted) this.#status = "untrusted";
    this.#store.add(this.baselineDocs);
    this.#store.add(this.#sessionSubs);
    this.#store.add(vscode.workspace.onDidChangeWorkspaceFolders((e) => this.#foldersChanged(e)));
    this.#store.add(
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        this.#setStatus("idle");
        for (const s of this.#openSessions()) void this.ensureAttached(s).catch(() => undefined);
      }),
    );
  }

  #sandbox?: Promise<CommandSandbox>;

  /**
   * The command sandbox for `terminal/*`, probed once per window like the agent-server's: the
   * workspace folders may not hold the sandbox binary, and the agent's data dir is hidden.
   */
  #terminalSandbox(): Promise<CommandSandbox> {
    this.#sandbox ??= detectSandbox(process.env, {
      excludeDirs: this.folders().map((f) => f.uri.fsPath),
      hide: [this.context.globalStorageUri.fsPath],
      log: (line) => this.log.info(`terminals: ${line}`),
    });
    return this.#sandbox;
  }

  // ---- folders and sessions ----

  /**
   * Folder → session id, one map per agent: switching agents and back reopens each agent's own
   * session. The built-in agent keeps the original key (bindings from before #18 stay valid).
   */
  #bindingsKey(): string {
    const spec = this.agentHost.spec;
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
        defaults: sessionDefaults,
        mcpServers: (features) => this.mcp.serversFor(folder, features),
        onPermissionRequested: (session, p) => {
          const panel = this.#panels.get(session.folder);
          if (!panel?.visible) surfaceHiddenRequest(session.folderName, p, () => this.openPanel(folder));
        },
        onQuestionRequested: (session, q) => {
          if (!this.#panels.get(session.folder)?.visible) surfaceHiddenQuestion(session.folderName, q, () => this.openPanel(folder));
        },
        ...(this.checkpoints.get(key) ? { checkpoints: this.checkpoints.get(key) } : {}),
        onCheckpointsChanged: (session) => {
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
      s.setStatus(this.#status, this.#statusMessage);
    });
  }

  folders(): vscode.WorkspaceFolder[] {
    return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === "file");
  }

  folderOf(path: string): vscode.WorkspaceFolder | undefined {
    return this.folders().find((f) => f.uri.fsPath === path);
  }

  allSessions(): FolderSession[] {
    return this.folders().map((f) => this.session(f));
  }

  #openSessions(): FolderSession[] {
    return [...this.#panels.values()].map((p) => p.session);
  }

  panel(folder: string): ChatPanel | undefined {
    return this.#panels.get(folder);
  }

  // ---- agent ----

  #setStatus(status: AgentStatus, message?: string): void {
    this.#status = status;
    this.#statusMessage = message;
    for (const s of this.#sessions.values()) s.setStatus(status, message);
    this.#onDidChange.fire({ kind: "agent", status });
  }

  async #onAgentStarted(client: AcpClient, restart: boolean): Promise<void> {
    // Lives as long as the client: a restart brings a new client and a new subscription.
    client.onDidReportMcpStatus(({ sessionId, servers }) => {
      for (const s of this.#sessions.values()) s.mcpStatus(sessionId, servers);
    });
    const switched = this.#switching;
    this.#switching = false;
    const opts = {
      restart: restart && !switched,
      builtin: this.agentHost.spec?.builtin ?? true,
      ...(switched ? { switchedTo: client.agentName } : {}),
    };
    await Promise.all(
      this.#openSessions().map((s) =>
        s.attach(client, opts).catch((err: unknown) => this.log.error(`[${s.folderName}] attach failed: ${errorText(err)}`)),
      ),
    );
  }

  /**
   * After `manifold.agent` changed: running turns are cancelled (each panel says so), every open
   * session is closed, the agent restarts as the new one and every open panel attaches to a new (or its
   * own earlier) session of it, the transcript so far kept above a divider (the I-95 re-attach path).
   */
  async switchAgent(to: string): Promise<void> {
    if (!vscode.workspace.isTrusted) return;
    await Promise.all(this.#openSessions().map((s) => s.leaveForSwitch(to).catch(() => undefined)));
    this.#switching = this.#openSessions().length > 0;
    await this.agentHost.restart();
  }

  /** Runs one of the agent's sign-in methods for the folder `s` (its card's button). */
  signIn(s: FolderSession): (methodId: string) => Promise<void> {
    return (methodId) =>
      signIn(
        s,
        methodId,
        signInIO({
          spec: () => this.agentHost.spec,
          store: this.agentSecrets,
          cwd: s.folder,
          restartAgent: () => this.restartAgent(),
        }),
      );
  }

  /** Binds `s` to a live session, starting the agent if needed (never in an untrusted workspace). */
  async ensureAttached(s: FolderSession): Promise<void> {
    if (!vscode.workspace.isTrusted) {
      this.#setStatus("untrusted", "Manifold starts no agent until you trust this workspace.");
      return;
    }
    const client = await this.agentHost.ensure();
    await s.whenAttached();
    if (!s.sessionId && !s.state.auth) await s.attach(client, { restart: false, builtin: this.agentHost.spec?.builtin ?? true });
  }

  async restartAgent(): Promise<void> {
    if (!vscode.workspace.isTrusted) return;
    await this.agentHost.restart();
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
      ensureAttached: (x) => this.ensureAttached(x),
      signIn: (x, methodId) => this.signIn(x)(methodId),
      log: (m) => this.log.warn(m),
      terminals: this.terminalOutputs,
    });
    this.#panels.set(folder.uri.fsPath, chat);
    chat.onDidDispose(() => {
      if (this.#panels.get(folder.uri.fsPath) === chat) this.#panels.deleteAndLeak(folder.uri.fsPath);
      // Closing the panel dismisses its cards (reject) and ends its live session; the binding stays.
      void s.close().catch(() => undefined);
      this.#onDidChange.fire({ kind: "panels" });
    });
    // Shown or hidden: `panels()` reports `visible`.
    chat.onDidChangeVisibility(() => this.#onDidChange.fire({ kind: "panels" }));
    this.#onDidChange.fire({ kind: "panels" });
    void this.ensureAttached(s).catch((err: unknown) => this.log.error(`[${folder.name}] ${errorText(err)}`));
    return chat;
  }

  #foldersChanged(e: vscode.WorkspaceFoldersChangeEvent): void {
    for (const f of e.removed) {
      this.#panels.get(f.uri.fsPath)?.dispose();
      const s = this.#sessions.get(f.uri.fsPath);
      this.#sessions.delete(f.uri.fsPath);
      this.#sessionSubs.deleteAndDispose(f.uri.fsPath);
      this.mcp.revoke(f.uri.fsPath);
      void s?.dispose();
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
              return { kind: e.kind, text: e.title, status: e.status };
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
      await this.agentHost.whenStartSettled();
      const open = this.#openSessions();
      // An attach in progress already has an id (registered before load): wait for it to finish.
      await Promise.all(open.map(async (s) => (await s.whenAttached(), s.sessionId ? undefined : this.ensureAttached(s))));
      // A panel showing its agent's sign-in card is settled too: it waits for the user.
      if (!vscode.workspace.isTrusted || this.#openSessions().every((s) => s.sessionId || s.state.auth)) return;
      await Event.toPromise(this.onDidChange);
    }
  }

  async dispose(): Promise<void> {
    this.#panels.dispose();
    // Deactivation ends every terminal tree the extension served (I-106) before it returns.
    const terminalsGone = Promise.all([...this.#sessions.values()].map((s) => s.dispose()));
    this.#sessions.clear();
    this.#store.dispose();
    this.mcp.dispose();
    await Promise.all([this.agentHost.dispose(), terminalsGone]);
  }
}
