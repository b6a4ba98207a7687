// One workspace folder's session: its binding, transcript model, pending permissions and questions,
// what the client serves to the agent for it. The editor, the panel and the persistence come in
// as small interfaces, so the behaviour is unit-tested against an in-process fake agent.
import type { ContentBlock, McpServer, SessionConfigOption, SessionInfo, SessionModeState } from "@agentclientprotocol/sdk";
import { UnsupportedError, type AcpClient, type AgentFeatures, type SteerOutcome } from "../agent/acpClient";
import type { EditorFiles } from "../client/fileService";
import { PathConfinement } from "../client/folderConfinement";
import type { SessionServers } from "../mcp/sessionServers";
import type { PendingPermission } from "../permissions/permissionBroker";
import type { PendingQuestion } from "../questions/questionBroker";
import type { CommandSandbox } from "../../sandbox";
import { emptyTranscript, type AgentStatus, type TranscriptEvent, type TranscriptState } from "../common/transcript";
import type { McpRow, McpServerStatus } from "../common/mcpRows";
import type { ImageData } from "../common/images";
import { DiffTexts, type DiffText } from "./diffTexts";
import { HostTranscript } from "./hostTranscript";
import { BoundSession } from "./boundSession";
import { FolderQueue, type QueueStore } from "./folderQueue";
import { errorText } from "../common/text";
import { isAuthRequired } from "../common/auth";
import { Emitter, type Event } from "../common/event";
import { Disposable } from "../common/lifecycle";

export type SessionActivity = "idle" | "running" | "needs-approval" | "needs-answer" | "error" | "detached";

export interface FolderSessionDeps {
  /** Persisted binding folder → session id. */
  readonly bindings: { get(folder: string): string | undefined; set(folder: string, sessionId: string | undefined): Promise<void> | void };
  /** Persisted queue of messages waiting for the turn to end (absent: the queue lives as long as this object). */
  readonly queues?: QueueStore;
  readonly editor: EditorFiles;
  /** The window's command sandbox for `terminal/*` (detected once, I-106). */
  terminalSandbox(): Promise<CommandSandbox>;
  /** Config option values applied to every new session (e.g. `{mode: "read-only"}`), when offered. */
  defaults?(): Record<string, string>;
  /** A permission request arrived (the owner decides how to surface it when the panel is hidden). */
  onPermissionRequested?(session: FolderSession, p: PendingPermission): void;
  /** An agent question arrived (surfaced like a permission request when the panel is hidden). */
  onQuestionRequested?(session: FolderSession, q: PendingQuestion): void;
  /** The MCP servers for a new, loaded or resumed session of this folder (I-102), with the panel's rows. */
  mcpServers?(features: AgentFeatures): Promise<SessionServers>;
  /** The folder's checkpoints (absent: none are taken, e.g. git is missing). */
  checkpoints?: SessionCheckpointHooks;
  /** A turn ended or the session changed: the changes list may be stale. */
  onCheckpointsChanged?(session: FolderSession): void;
  log?(message: string): void;
}

/** What a session needs of its folder's checkpoints (extension/checkpoints/folderCheckpoints.ts). */
export interface SessionCheckpointHooks {
  warm(): Promise<void>;
  beforePrompt(sessionId: string, promptIndex: number, label: string): Promise<unknown>;
  afterTurn(sessionId: string): Promise<void>;
  fork(fromSession: string, toSession: string, keepPrompts: number): Promise<void>;
  deleteSession(sessionId: string): Promise<void>;
}

export class FolderSession extends Disposable {
  readonly #transcript: HostTranscript;
  #client?: AcpClient;
  /** What is served for the bound session id (none while detached). */
  #binding?: BoundSession;
  /** A close in flight; an attach waits for it. */
  #closing?: Promise<void>;
  readonly #onDidEmit = this._register(new Emitter<readonly TranscriptEvent[]>());
  /**
   * The events folded into `state`, after they are folded: the panel posts them on (it read `state` as
   * its snapshot first), the sessions view and the API hear activity change from them.
   */
  readonly onDidEmit: Event<readonly TranscriptEvent[]> = this.#onDidEmit.event;
  #error = false;
  #attaching?: Promise<void>;
  /** Terminal trees of bindings left behind, still being killed. */
  readonly #teardowns = new Set<Promise<void>>();
  readonly confinement: PathConfinement;
  /** The MCP rows of the session being (re)opened, shown once it is bound. */
  #mcpRows: McpRow[] = [];
  readonly #diffs = new DiffTexts();
  /** Messages typed while a turn runs, and steering (I-104): this folder's own, never another's. */
  readonly queue: FolderQueue;

  constructor(
    /** Absolute path of the workspace folder (the session's cwd). */
    readonly folder: string,
    readonly folderName: string,
    private readonly deps: FolderSessionDeps,
  ) {
    super();
    this.confinement = new PathConfinement(folder);
    this.#transcript = new HostTranscript(emptyTranscript(folderName, ""));
    this.queue = new FolderQueue({
      folder,
      store: deps.queues,
      running: () => this.state.running,
      canSteer: () => this.#client?.features.steering === true,
      emit: (ev) => this.emit(ev),
      send: (text) => this.prompt([{ type: "text", text }], { text, attachments: [] }),
      steer: (text) => this.#steer(text),
      ...(deps.log ? { log: deps.log } : {}),
    });
    this.#transcript.patch({ queue: [...this.queue.queue.items] });
  }

  /** The transcript's state, with its latest entries live (older ones: `transcript`). */
  get state(): TranscriptState {
    return this.#transcript.state;
  }
  /** The whole transcript: the live state and the compressed older entries (issue #19). */
  get transcript(): HostTranscript {
    return this.#transcript;
  }
  get sessionId(): string | undefined {
    return this.#binding?.sessionId;
  }
  /** The client this folder is attached (or attaching) to. */
  get client(): AcpClient | undefined {
    return this.#client;
  }
  get pending(): PendingPermission[] {
    return this.#binding?.pendingPermissions ?? [];
  }
  get pendingQuestions(): PendingQuestion[] {
    return this.#binding?.pendingQuestions ?? [];
  }
  get activity(): SessionActivity {
    if (!this.sessionId) return this.#error ? "error" : "detached";
    if (this.pending.length > 0) return "needs-approval";
    if (this.pendingQuestions.length > 0) return "needs-answer";
    if (this.state.running) return "running";
    return this.#error ? "error" : "idle";
  }

  emit(...events: [TranscriptEvent, ...TranscriptEvent[]]): void {
    for (const ev of events) {
      if (ev.type === "reset" || (ev.type === "session/bound" && ev.clearHistory)) this.#diffs.clear();
      this.#transcript.apply(ev);
    }
    this.#onDidEmit.fire(events);
  }

  setStatus(status: AgentStatus, message?: string): void {
    this.emit(message !== undefined ? { type: "status", status, message } : { type: "status", status });
  }

  /**
   * Binds this folder to a live session on `client`: the persisted one (resume, else load), or a new
   * one. `restart` = the agent process was restarted and the host still holds the history. `builtin`:
   * which protection applies (said in the panel). `switchedTo`: the window switched agents; the
   * transcript so far stays, under a divider, and the new agent's session continues below it.
   * An agent that answers `auth_required` gets its sign-in card instead of an error (issue #18).
   */
  attach(client: AcpClient, opts: { restart: boolean; builtin?: boolean; switchedTo?: string }): Promise<void> {
    const keep = opts.switchedTo !== undefined && this.#transcript.length > 0;
    const run = async () => {
      // A close still in flight (panel closed, then reopened at once) finishes first, so the agent never
      // sees the resume of a session it is still closing.
      await this.#closing;
      this.#unregister();
      this.#client = client;
      this.#error = false;
      if (this.state.agentName !== client.agentName || (opts.builtin !== undefined && this.state.builtin !== opts.builtin))
        this.emit({ type: "agent", agentName: client.agentName, ...(opts.builtin !== undefined ? { builtin: opts.builtin } : {}) });
      if (keep) this.emit({ type: "agent/switched", agentName: client.agentName });
      // The first snapshot of a big folder hashes every file: do it now, not in front of the first prompt.
      void this.deps.checkpoints?.warm().catch((err: unknown) => this.deps.log?.(`checkpoints unavailable: ${errorText(err)}`));
      const saved = this.deps.bindings.get(this.folder);
      if (saved) {
        try {
          await this.#reopen(client, saved, opts.restart, keep);
          return;
        } catch (err) {
          if (isAuthRequired(err)) throw err;
          this.deps.log?.(`could not reopen session ${saved} for ${this.folder}: ${errorText(err)}`);
          this.emit({
            type: "notice",
            severity: "warning",
            text: `The previous session could not be reopened (${errorText(err)}); a new session was started.`,
          });
        }
      }
      await this.#create(client, keep);
      if (this.state.auth) this.emit({ type: "auth/cleared" });
    };
    const p = run().catch((err: unknown) => {
      // A stale attach (the agent restarted meanwhile) fails quietly; the newer one reports.
      if (this.#client !== client) return;
      if (isAuthRequired(err)) {
        this.emit({ type: "auth/required", methods: client.authMethods, message: errorText(err) });
        return;
      }
      this.#error = true;
      this.emit({ type: "notice", severity: "error", text: `Could not start a session: ${errorText(err)}` });
      throw err;
    });
    this.#attaching = p.finally(() => {
      if (this.#attaching === p) this.#attaching = undefined;
    });
    return p;
  }

  /** Resolves when an attach in progress has finished (successfully or not). */
  async whenAttached(): Promise<void> {
    await this.#attaching?.catch(() => undefined);
  }

  /** The servers to send; their rows reach the panel first (states the agent reports apply to them). */
  async #mcp(client: AcpClient): Promise<McpServer[]> {
    const f = client.features;
    const got = (await this.deps.mcpServers?.(f)) ?? { servers: [], rows: [] };
    // An agent that reports states shows "starting" until it does; others show "passed".
    const rows = f.mcpStatus ? got.rows.map((r) => (r.state === "passed" ? { ...r, state: "starting" as const } : r)) : got.rows;
    this.#mcpRows = rows;
    return got.servers;
  }

  #showMcp(client: AcpClient, sessionId: string): void {
    this.emit({ type: "mcp/servers", servers: this.#mcpRows });
    const status = client.mcpStatusOf(sessionId);
    if (status) this.emit({ type: "mcp/status", servers: status });
  }

  /** A `_manifold/mcp_status` report for this folder's session. */
  mcpStatus(sessionId: string, servers: McpServerStatus[]): void {
    if (sessionId === this.sessionId) this.emit({ type: "mcp/status", servers });
  }

  /**
   * Restarts one MCP server: with the agent's restart method when it has one and the server was
   * passed; otherwise the session is resumed (or loaded) again with its servers computed afresh.
   */
  async restartMcpServer(name: string): Promise<void> {
    const client = this.#client;
    const sessionId = this.sessionId;
    if (!client || !sessionId) throw new Error("no session is attached to this folder");
    const row = this.state.mcpServers.find((r) => r.name === name);
    const wasPassed = row !== undefined && ["starting", "ready", "failed", "passed"].includes(row.state);
    if (wasPassed && client.features.mcpRestart) {
      await client.restartMcpServer(sessionId, name);
      return;
    }
    if (this.state.running) throw new Error("wait for the running turn to end");
    await this.#reopen(client, sessionId, false);
  }

  async #create(client: AcpClient, keepHistory = false): Promise<void> {
    const f = client.features;
    const mcpServers = await this.#mcp(client);
    await client.newSession(
      this.folder,
      (res) => {
        this.#register(client, res.sessionId);
        this.emit(boundEvent(res.sessionId, { clearHistory: !keepHistory, answer: res, features: f }));
        this.#showMcp(client, res.sessionId);
      },
      mcpServers,
    );
    await this.deps.bindings.set(this.folder, this.sessionId);
    await this.#applyDefaults(client);
  }

  async #applyDefaults(client: AcpClient): Promise<void> {
    const sessionId = this.sessionId;
    if (!sessionId) return;
    for (const [configId, value] of Object.entries(this.deps.defaults?.() ?? {})) {
      const opt = this.state.configOptions.find((o) => o.id === configId);
      if (!opt || opt.type !== "select" || opt.currentValue === value) continue;
      const values = opt.options.flatMap((o) => ("group" in o ? o.options : [o])).map((o) => o.value);
      if (!values.includes(value)) {
        this.deps.log?.(`default ${configId}=${value} is not offered by the agent; ignored`);
        continue;
      }
      try {
        this.emit({ type: "config/options", configOptions: await client.setConfigOption(sessionId, configId, value) });
      } catch (err) {
        this.deps.log?.(`could not apply default ${configId}=${value}: ${errorText(err)}`);
      }
    }
  }

  async #reopen(client: AcpClient, sessionId: string, restart: boolean, keepHistory = false): Promise<void> {
    const f = client.features;
    const haveHistory = this.state.sessionId === sessionId && this.#transcript.length > 0;
    // With history on screen, resume (no replay). Without it, load (replays history) if possible.
    const useResume = f.resume && (haveHistory || !f.load);
    if (!useResume && !f.load) throw new UnsupportedError("this agent can neither resume nor load sessions");
    const mcpServers = await this.#mcp(client);
    this.#register(client, sessionId);
    try {
      if (useResume) {
        const res = await client.resumeSession(sessionId, this.folder, mcpServers);
        this.emit(boundEvent(sessionId, { clearHistory: false, answer: res, features: f }));
        this.#showMcp(client, sessionId);
        if (!haveHistory)
          this.emit({ type: "notice", severity: "info", text: "Session resumed; this agent does not replay earlier messages." });
      } else {
        this.emit(boundEvent(sessionId, { clearHistory: !keepHistory, features: f }), { type: "loading", loading: true });
        try {
          const res = await client.loadSession(sessionId, this.folder, mcpServers);
          this.emit(boundEvent(sessionId, { clearHistory: false, answer: res }));
          this.#showMcp(client, sessionId);
        } finally {
          this.emit({ type: "loading", loading: false });
        }
      }
      if (restart)
        this.emit({ type: "notice", severity: "warning", text: "The agent was restarted; this panel is attached to its session again." });
    } catch (err) {
      // Only undo our own registration: a newer attach (agent restarted meanwhile) may own it now.
      if (this.#client === client) this.#unregister();
      throw err;
    }
  }

  #register(client: AcpClient, sessionId: string): void {
    this.#unregister();
    this.#binding = new BoundSession(client, sessionId, this.confinement, {
      editor: this.deps.editor,
      terminalSandbox: () => this.deps.terminalSandbox(),
      emit: (...events) => this.emit(...events),
      update: (update) => this.emit({ type: "acp", update: this.#diffs.view(update) }),
      onPermissionRequested: (p) => this.deps.onPermissionRequested?.(this, p),
      onQuestionRequested: (q) => this.deps.onQuestionRequested?.(this, q),
    });
  }

  /** Leaves the bound session id: its pending requests are answered (a dismissal never grants). */
  #unregister(): void {
    const gone = this.#binding?.dispose().catch((err: unknown) => this.deps.log?.(`terminal teardown failed: ${errorText(err)}`));
    if (gone) {
      this.#teardowns.add(gone);
      void gone.finally(() => this.#teardowns.delete(gone));
    }
    this.#binding = undefined;
  }

  /** Sends a prompt; resolves when the turn ends. */
  async prompt(blocks: ContentBlock[], display: { text: string; attachments: string[]; images?: ImageData[] }): Promise<void> {
    const client = this.#client;
    const sessionId = this.sessionId;
    if (!client || !sessionId) throw new Error("no session is attached to this folder");
    if (this.state.running) throw new Error("a turn is already running in this session");
    // Steers are not prompts: checkpoints and forks count prompts only.
    const promptIndex = this.#transcript.prompts;
    const images = display.images && display.images.length > 0 ? { images: display.images } : {};
    this.emit({ type: "user/prompt", text: display.text, attachments: display.attachments, ...images }, { type: "turn/started" });
    // The folder's state before the prompt reaches the agent; a failure is said, and the prompt still goes.
    const ck = this.deps.checkpoints;
    if (ck) {
      try {
        await ck.beforePrompt(sessionId, promptIndex, display.text);
      } catch (err) {
        this.emit({ type: "notice", severity: "warning", text: `No checkpoint was taken before this prompt: ${errorText(err)}` });
      }
    }
    try {
      const stopReason = await client.prompt(sessionId, blocks);
      await client.router.drain(sessionId);
      if (ck) await ck.afterTurn(sessionId).catch((err: unknown) => this.deps.log?.(`checkpoint after the turn: ${errorText(err)}`));
      this.deps.onCheckpointsChanged?.(this);
      if (this.sessionId !== sessionId) return;
      this.emit({ type: "turn/ended", stopReason });
      this.queue.turnEnded(stopReason === "end_turn");
    } catch (err) {
      // The connection closed under the turn (the agent died): `agentDied` shows it as interrupted (I-95).
      // The SDK resolves `closed` before it rejects pending requests, so one macrotask decides.
      const connectionGone = await Promise.race([
        client.closed.then(() => true),
        new Promise<boolean>((r) => setImmediate(() => r(false))),
      ]);
      if (connectionGone || this.sessionId !== sessionId || !this.state.running) return;
      this.emit({ type: "turn/ended", stopReason: "error", message: `The turn failed: ${errorText(err)}` });
      this.queue.turnEnded(false);
    }
  }

  /** `_session/steering` for this folder's own session id only (I-104); the agent shows where it landed. */
  #steer(text: string): Promise<SteerOutcome> {
    const client = this.#client;
    const sessionId = this.sessionId;
    if (!client || !sessionId) return Promise.reject(new Error("no session is attached to this folder"));
    return client.steer(sessionId, [{ type: "text", text }]);
  }

  /** Whether edit-and-resend makes the agent forget the later turns (it can fork before a prompt). */
  get forgetsOnResend(): boolean {
    return this.#client?.features.forkAtPrompt ?? false;
  }

  /**
   * Edit and resend: the conversation continues from before user prompt `keepPrompts` (0-based) with
   * a new prompt. The caller restored the files. Where the agent can fork before a prompt, the panel's
   * session becomes that fork, so the model never sees the abandoned turns again; elsewhere the same
   * session goes on, and the panel says plainly that the agent remembers them.
   */
  async editAndResend(keepPrompts: number, blocks: ContentBlock[], display: { text: string; attachments: string[] }): Promise<void> {
    const client = this.#client;
    const sessionId = this.sessionId;
    if (!client || !sessionId) throw new Error("no session is attached to this folder");
    if (this.state.running) throw new Error("a turn is running; cancel it before editing an earlier message");
    if (client.features.forkAtPrompt) {
      const forked = await client.forkAtPrompt(sessionId, this.folder, keepPrompts);
      await this.deps.checkpoints
        ?.fork(sessionId, forked, keepPrompts)
        .catch((err: unknown) => this.deps.log?.(`checkpoints of the fork: ${errorText(err)}`));
      await this.#leave(client);
      const mcpServers = await this.#mcp(client);
      this.#register(client, forked);
      // Resuming the (live) fork hands it this folder's MCP servers, like any reopened session.
      const res = await client.resumeSession(forked, this.folder, mcpServers);
      this.emit(boundEvent(forked, { clearHistory: false, answer: res, features: client.features }), {
        type: "transcript/truncate",
        keepPrompts,
      });
      this.#showMcp(client, forked);
      await this.deps.bindings.set(this.folder, forked);
    } else {
      this.emit({
        type: "notice",
        severity: "warning",
        text: `${client.agentName} cannot fork a conversation before a message, so it still remembers the turns after the one you edited. The files were restored; the edited message is sent as a new message.`,
      });
    }
    await this.prompt(blocks, display);
  }

  /** `session/cancel`, then every pending permission of this session is answered `cancelled` (I-90). */
  async cancel(): Promise<void> {
    const client = this.#client;
    const sessionId = this.sessionId;
    if (!client || !sessionId) return;
    const sent = client.cancel(sessionId);
    this.#binding?.cancelPending();
    this.emit({ type: "tools/cancelUnfinished" });
    await sent;
  }

  /** The texts of the diff at `index` of a tool call's content ("Open diff"). */
  diff(toolCallId: string, index: number): Promise<DiffText | undefined> {
    return this.#diffs.get(toolCallId, index);
  }

  answerPermission(requestId: string, optionId: string): boolean {
    return this.#binding?.answerPermission(requestId, optionId) ?? false;
  }

  dismissPermission(requestId: string): boolean {
    return this.#binding?.dismissPermission(requestId) ?? false;
  }

  /** A question card was submitted; `values` comes from the webview and is validated by the broker. */
  answerQuestion(questionId: string, values: unknown): boolean {
    return this.#binding?.answerQuestion(questionId, values) ?? false;
  }

  declineQuestion(questionId: string): boolean {
    return this.#binding?.declineQuestion(questionId) ?? false;
  }

  async setConfigOption(configId: string, value: string | boolean): Promise<void> {
    if (!this.#client || !this.sessionId) return;
    const options = await this.#client.setConfigOption(this.sessionId, configId, value);
    this.emit({ type: "config/options", configOptions: options });
  }

  async setMode(modeId: string): Promise<void> {
    if (!this.#client || !this.sessionId) return;
    await this.#client.setMode(this.sessionId, modeId);
    this.emit({ type: "acp", update: { sessionUpdate: "current_mode_update", currentModeId: modeId } });
  }

  async listSessions(): Promise<SessionInfo[]> {
    if (!this.#client) return [];
    return this.#client.listSessions(this.folder);
  }

  /** Starts a fresh session for this folder (the old one is closed, not deleted). */
  async newSession(): Promise<void> {
    const client = this.#client;
    if (!client) throw new Error("the agent is not running");
    await this.#leave(client);
    this.emit({ type: "reset", folderName: this.folderName, agentName: client.agentName });
    await this.#create(client);
  }

  /** Switches this folder's panel to another of its sessions. */
  async switchTo(sessionId: string): Promise<void> {
    const client = this.#client;
    if (!client) throw new Error("the agent is not running");
    if (sessionId === this.sessionId) return;
    await this.#leave(client);
    this.emit({ type: "reset", folderName: this.folderName, agentName: client.agentName });
    await this.deps.bindings.set(this.folder, sessionId);
    await this.#reopen(client, sessionId, false);
  }

  /** Closes the live session (the binding is kept, so reopening the panel resumes it). */
  close(): Promise<void> {
    const run = async (): Promise<void> => {
      const client = this.#client;
      if (client) await this.#leave(client);
      // A newer attach may have bound a session meanwhile: then this close has nothing left to report.
      if (!this.sessionId) this.emit({ type: "session/bound", sessionId: undefined, clearHistory: false });
    };
    const p = run();
    const settled = p.catch(() => undefined);
    this.#closing = settled;
    void settled.then(() => {
      if (this.#closing === settled) this.#closing = undefined;
    });
    return p;
  }

  /** Deletes a session of this folder; if it is the current one, the folder gets a new session. */
  async deleteSession(sessionId: string): Promise<void> {
    const client = this.#client;
    if (!client) throw new Error("the agent is not running");
    const current = sessionId === this.sessionId;
    if (current) await this.#leave(client);
    await client.deleteSession(sessionId);
    await this.deps.checkpoints
      ?.deleteSession(sessionId)
      .catch((err: unknown) => this.deps.log?.(`deleting checkpoints of ${sessionId}: ${errorText(err)}`));
    if (current) {
      await this.deps.bindings.set(this.folder, undefined);
      this.emit({ type: "reset", folderName: this.folderName, agentName: client.agentName });
      await this.#create(client);
    }
  }

  async #leave(client: AcpClient): Promise<void> {
    const sessionId = this.sessionId;
    if (!sessionId) return;
    // Closing a card or panel dismisses (reject); then a running turn is cancelled.
    this.#binding?.dismissPermissions();
    const wasRunning = this.state.running;
    if (wasRunning) await this.cancel();
    this.#unregister();
    if (wasRunning) this.emit({ type: "turn/ended", stopReason: "cancelled" });
    try {
      await client.closeSession(sessionId);
    } catch (err) {
      this.deps.log?.(`session/close ${sessionId}: ${errorText(err)}`);
    }
  }

  /**
   * The window is switching to agent `to`: a running turn is cancelled (and says why), pending
   * requests are dismissed and the session is closed; the transcript stays for the next attach.
   */
  async leaveForSwitch(to: string): Promise<void> {
    const client = this.#client;
    if (!client) return;
    if (this.state.running)
      this.emit({ type: "notice", severity: "warning", text: `The running turn is cancelled: the agent is being switched to ${to}.` });
    await this.#leave(client);
  }

  /** The agent process died: pending requests are void, a running turn is shown interrupted. */
  agentDied(message: string): void {
    const wasRunning = this.state.running;
    this.#unregister();
    this.#client = undefined;
    if (wasRunning) this.emit({ type: "turn/ended", stopReason: "interrupted", message: `The turn was interrupted: ${message}` });
    this.emit({ type: "tools/cancelUnfinished" });
  }

  /** Resolves when the terminals this folder served (every binding's) have ended their whole trees. */
  override dispose(): Promise<void> {
    const client = this.#client;
    const sessionId = this.sessionId;
    this.#unregister();
    super.dispose();
    if (client && sessionId) void client.closeSession(sessionId).catch(() => undefined);
    return Promise.all(this.#teardowns).then(() => undefined);
  }
}

/**
 * The `session/bound` event: the session's config options and modes from the agent's `answer` (to
 * new, resume or load), and what the agent can do (`features`), when given.
 */
function boundEvent(
  sessionId: string,
  o: {
    clearHistory: boolean;
    answer?: { configOptions?: SessionConfigOption[] | null; modes?: SessionModeState | null };
    features?: AgentFeatures;
  },
): TranscriptEvent {
  const { answer, features: f } = o;
  return {
    type: "session/bound",
    sessionId,
    ...(answer?.configOptions ? { configOptions: answer.configOptions } : {}),
    ...(answer?.modes ? { modes: answer.modes } : {}),
    ...(f
      ? { promptCapabilities: { embeddedContext: f.embeddedContext, image: f.image }, sessionFeatures: { list: f.list, steer: f.steering } }
      : {}),
    clearHistory: o.clearHistory,
  };
}
