// One workspace folder's session: its binding, transcript model, pending permissions and questions,
// what the client serves to the agent for it. The editor, the panel and the persistence come in
// as small interfaces, so the behaviour is unit-tested against an in-process fake agent. This class
// holds the state and decides when a session is opened or left (attach, new, switch, close, delete);
// how one is opened is sessionOpener.ts's, what a turn does is folderTurns.ts's.
import type { ContentBlock, SessionInfo, SessionUpdate } from "@agentclientprotocol/sdk";
import type { AcpClient } from "../agent/acpClient";
import type { EditorFiles } from "../client/fileService";
import { PathConfinement } from "../client/folderConfinement";
import type { PendingPermission } from "../permissions/permissionBroker";
import type { PendingQuestion } from "../questions/questionBroker";
import type { CommandSandbox } from "../../sandbox";
import {
  clearsHistory,
  emptyTranscript,
  type AgentStatus,
  type TranscriptEvent,
  type TranscriptState,
  type TranscriptUpdate,
} from "../common/transcript";
import type { McpServerStatus } from "../common/mcpRows";
import type { ImageData } from "../common/images";
import { DiffTexts, type DiffText } from "./diffTexts";
import { HostTranscript } from "./hostTranscript";
import { BoundSessionSlot } from "./boundSession";
import { FolderQueue, type QueueStore } from "./folderQueue";
import { isReplayedMarker, SessionOpener, type SessionOpenerDeps } from "./sessionOpener";
import { FolderTurns, type TurnDeps } from "./folderTurns";
import { errorText } from "../common/text";
import { configValueMismatch } from "../common/webviewProtocol";
import { isAuthRequired } from "../common/auth";
import { Emitter, type Event } from "../../base/event";
import { ignoreError } from "../../base/errors";
import { Disposable, type AsyncShutdown } from "../../base/lifecycle";
import type { AgentConfinement } from "../common/protection";

export type { SessionCheckpointHooks } from "./folderTurns";

export type SessionActivity = "idle" | "running" | "needs-approval" | "needs-answer" | "error" | "detached";

/** The bindings, defaults, MCP servers and log are declared with opening, the checkpoints with turns. */
export interface FolderSessionDeps extends SessionOpenerDeps, TurnDeps {
  /** Persisted queue of messages waiting for the turn to end (absent: the queue lives as long as this object). */
  readonly queues?: QueueStore;
  readonly editor: EditorFiles;
  /** The window's command sandbox for `terminal/*` (detected once, I-106). */
  terminalSandbox(): Promise<CommandSandbox>;
  /** A permission request arrived (the owner decides how to surface it when the panel is hidden). */
  onPermissionRequested?(session: FolderSession, p: PendingPermission): void;
  /** An agent question arrived (surfaced like a permission request when the panel is hidden). */
  onQuestionRequested?(session: FolderSession, q: PendingQuestion): void;
  /** Opens a page the user agreed to open (a URL question); without it such a page is not opened. */
  openExternal?(href: string): void;
  /** A turn ended or the session changed: the changes list may be stale. */
  onCheckpointsChanged?(session: FolderSession): void;
}

export class FolderSession extends Disposable implements AsyncShutdown {
  readonly #transcript: HostTranscript;
  #client?: AcpClient;
  /** What is served for the bound session id (none while detached), and what is left still tearing down. */
  readonly #binding: BoundSessionSlot;
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
  readonly confinement: PathConfinement;
  /** Opens the session ids this folder binds (new, resume, load, fork) with their MCP servers. */
  readonly #opener: SessionOpener;
  /** Prompts, steers, edit-and-resend and cancel of the bound session. */
  readonly #turns: FolderTurns;
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
    // What the extension serves any agent refuses the files its MCP servers read or run (I-112).
    this.confinement = new PathConfinement(folder, () => this.#opener.protectedPaths);
    this.#transcript = new HostTranscript(emptyTranscript(folderName, ""));
    this.queue = new FolderQueue({
      folder,
      store: deps.queues,
      running: () => this.state.running,
      canSteer: () => this.#client?.features.steering === true,
      emit: (ev) => this.emit(ev),
      send: (text) => this.prompt([{ type: "text", text }], { text, attachments: [] }),
      steer: (text) => this.#turns.steer(text),
      ...(deps.log ? { log: deps.log } : {}),
    });
    this.#transcript.patch({ queue: [...this.queue.queue.items] });
    this.#binding = new BoundSessionSlot(
      this.confinement,
      {
        editor: deps.editor,
        terminalSandbox: () => deps.terminalSandbox(),
        emit: (...events) => this.emit(...events),
        // A late piece of a load's replay is history already shown, never part of a live turn.
        update: (update) => {
          // The end of a tail replay is a signal for the opener, not a title change.
          if (isReplayedMarker(update)) return this.#opener.replayed(update);
          if (this.#opener.replay.admit(update)) this.emit({ type: "acp", update: this.#diffs.view(update) });
        },
        onPermissionRequested: (p) => deps.onPermissionRequested?.(this, p),
        onQuestionRequested: (q) => deps.onQuestionRequested?.(this, q),
        ...(deps.delegation ? { delegate: (params, parent, signal) => deps.delegation!.run(params, this.folder, parent, signal) } : {}),
        openExternal: (href) => deps.openExternal?.(href),
      },
      deps.log,
    );
    this.#opener = new SessionOpener(this, this.#binding, deps);
    this.#turns = new FolderTurns(this, deps, {
      checkpointsChanged: () => this.deps.onCheckpointsChanged?.(this),
      cancelPending: () => this.#binding.current?.cancelPending(),
      leave: (client) => this.#leave(client),
      openFork: (client, forked, keepPrompts) => this.#opener.openFork(client, forked, keepPrompts),
      abandoned: () => this.#binding.abandoned,
    });
  }

  /** The transcript's state, with its latest entries live (older ones: `transcript`). */
  get state(): TranscriptState {
    return this.#transcript.state;
  }
  /** The whole transcript: the live state and the compressed older entries. */
  get transcript(): HostTranscript {
    return this.#transcript;
  }
  /** An agent update in the transcript's form (diff texts kept aside, as for a live one). */
  viewUpdate(update: SessionUpdate): TranscriptUpdate {
    return this.#diffs.view(update);
  }
  get sessionId(): string | undefined {
    return this.#binding.current?.sessionId;
  }
  /** The client this folder is attached (or attaching) to. */
  get client(): AcpClient | undefined {
    return this.#client;
  }
  get pending(): PendingPermission[] {
    return this.#binding.current?.pendingPermissions ?? [];
  }
  get pendingQuestions(): PendingQuestion[] {
    return this.#binding.current?.pendingQuestions ?? [];
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
      if (clearsHistory(ev)) this.#diffs.clear();
      this.#transcript.apply(ev);
    }
    this.#onDidEmit.fire(events);
  }

  setStatus(status: AgentStatus, message?: string): void {
    this.emit(message !== undefined ? { type: "status", status, message } : { type: "status", status });
  }

  /**
   * Binds this folder to a live session on `client`: the persisted one (resume, else load), or a new
   * one. `restart` = the agent process was restarted and the host still holds the history. `builtin`
   * and, for a third-party agent, `confinement`: which protection applies (said in the panel).
   * `switchedTo`: the window switched agents; the transcript so far stays, under a divider, and the
   * new agent's session continues below it.
   * An agent that answers `auth_required` gets its sign-in card instead of an error.
   */
  attach(
    client: AcpClient,
    opts: { restart: boolean; builtin?: boolean; confinement?: AgentConfinement; switchedTo?: string },
  ): Promise<void> {
    const keep = opts.switchedTo !== undefined && this.#transcript.length > 0;
    const run = async () => {
      // A close still in flight (panel closed, then reopened at once) finishes first, so the agent never
      // sees the resume of a session it is still closing.
      await this.#closing;
      this.#binding.unbind();
      this.#client = client;
      this.#error = false;
      if (
        this.state.agentName !== client.agentName ||
        (opts.builtin !== undefined && this.state.builtin !== opts.builtin) ||
        this.state.confinement?.text !== opts.confinement?.text
      )
        this.emit({
          type: "agent",
          agentName: client.agentName,
          ...(opts.builtin !== undefined ? { builtin: opts.builtin } : {}),
          ...(opts.confinement ? { confinement: opts.confinement } : {}),
        });
      if (keep) this.emit({ type: "agent/switched", agentName: client.agentName });
      // The first snapshot of a big folder hashes every file: do it now, not in front of the first prompt.
      void this.deps.checkpoints?.warm().catch((err: unknown) => this.deps.log?.(`checkpoints unavailable: ${errorText(err)}`));
      const saved = this.deps.bindings.get(this.folder);
      if (saved) {
        try {
          await this.#opener.reopen(client, saved, opts.restart, keep);
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
      await this.#opener.create(client, keep);
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
    await this.#attaching?.catch(ignoreError("the attach reports its failure itself: a notice, and its caller"));
  }

  /** A `_manifold/mcp_status` report for this folder's session. */
  mcpStatus(sessionId: string, servers: McpServerStatus[]): void {
    if (sessionId === this.sessionId) this.emit({ type: "mcp/status", servers });
  }

  /** Restarts one MCP server (by the agent's restart method, else by reopening the session). */
  restartMcpServer(name: string): Promise<void> {
    return this.#opener.restartMcpServer(name);
  }

  /** Sends a prompt; resolves when the turn ends. */
  prompt(blocks: ContentBlock[], display: { text: string; attachments: string[]; images?: ImageData[] }): Promise<void> {
    return this.#turns.prompt(blocks, display);
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
  editAndResend(keepPrompts: number, blocks: ContentBlock[], display: { text: string; attachments: string[] }): Promise<void> {
    return this.#turns.editAndResend(keepPrompts, blocks, display);
  }

  /** `session/cancel`, then every pending permission of this session is answered `cancelled` (I-90). */
  cancel(): Promise<void> {
    return this.#turns.cancel();
  }

  /** The texts of the diff at `index` of a tool call's content ("Open diff"). */
  diff(toolCallId: string, index: number): Promise<DiffText | undefined> {
    return this.#diffs.get(toolCallId, index);
  }

  answerPermission(requestId: string, optionId: string, note?: string): boolean {
    return this.#binding.current?.answerPermission(requestId, optionId, note) ?? false;
  }

  dismissPermission(requestId: string): boolean {
    return this.#binding.current?.dismissPermission(requestId) ?? false;
  }

  /** A question card was submitted; `values` comes from the webview and is validated by the broker. */
  answerQuestion(questionId: string, values: unknown): boolean {
    return this.#binding.current?.answerQuestion(questionId, values) ?? false;
  }

  declineQuestion(questionId: string): boolean {
    return this.#binding.current?.declineQuestion(questionId) ?? false;
  }

  async setConfigOption(configId: string, value: string | boolean): Promise<void> {
    if (!this.#client || !this.sessionId) return;
    const mismatch = configValueMismatch(this.state.configOptions, configId, value);
    if (mismatch) throw new Error(mismatch);
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

  /** Starts a fresh session for this folder (the old one is closed, not deleted), from an agent profile if named. */
  async newSession(profileId?: string): Promise<void> {
    const client = this.#client;
    if (!client) throw new Error("the agent is not running");
    await this.#leave(client);
    this.emit({ type: "reset", folderName: this.folderName, agentName: client.agentName });
    await this.#opener.create(client, false, profileId);
  }

  /** Switches this folder's panel to another of its sessions. */
  async switchTo(sessionId: string): Promise<void> {
    const client = this.#client;
    if (!client) throw new Error("the agent is not running");
    if (sessionId === this.sessionId) return;
    await this.#leave(client);
    this.emit({ type: "reset", folderName: this.folderName, agentName: client.agentName });
    await this.deps.bindings.set(this.folder, sessionId);
    await this.#opener.reopen(client, sessionId, false);
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
    const settled = p.catch(ignoreError("close()'s caller hears its failure; this only orders the next attach"));
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
      await this.#opener.create(client);
    }
  }

  async #leave(client: AcpClient): Promise<void> {
    const sessionId = this.sessionId;
    if (!sessionId) return;
    // Closing a card or panel dismisses (reject); then a running turn is cancelled.
    this.#binding.current?.dismissPermissions();
    const wasRunning = this.state.running;
    if (wasRunning) await this.cancel();
    this.#binding.unbind();
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
    this.#binding.unbind();
    this.#client = undefined;
    if (wasRunning) this.emit({ type: "turn/ended", stopReason: "interrupted", message: `The turn was interrupted: ${message}` });
    this.emit({ type: "tools/cancelUnfinished" });
  }

  /** Leaves the bound session (its terminal trees start ending) and closes it on the agent. Idempotent. */
  override dispose(): void {
    const client = this.#client;
    const sessionId = this.sessionId;
    this.#binding.unbind();
    super.dispose();
    if (client && sessionId)
      void client.closeSession(sessionId).catch((err: unknown) => this.deps.log?.(`session/close ${sessionId}: ${errorText(err)}`));
  }

  /** Disposes; resolves when the terminals this folder served (every binding's) have ended their whole trees. */
  shutdown(): Promise<void> {
    this.dispose();
    return this.#binding.tornDown();
  }
}
