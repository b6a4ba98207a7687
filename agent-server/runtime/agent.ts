// Agent: one live agent of one session. A message queue; each message runs one turn
// (`turn/start` … `turn/end{reason}`) of model steps and tool calls (steps.ts); queue-aware cancel; dispose.
import { randomUUID } from "node:crypto";
import type { ChatMessage } from "../model/types";
import type { PermissionAnswer } from "../policy/types";
import { ensureDir } from "../../sandbox/tmpArea";
import type { SandboxContext } from "../../sandbox/types";
import type { LogEntry, SessionEvent, TurnEndReason } from "../session/events";
import type { SessionLog } from "../session/log";
import type { TaskAccess, ToolContext } from "../tools/types";
import type { ClientFs, DelegateTarget, PermissionAsk, SubagentOutcome, UserAnswer, UserQuestion } from "./capabilities";
import { DeltaCoalescer } from "./deltaCoalescer";
import type { AgentEvent, AgentServices, MessageSource, QueuedMessage, SteerMessage } from "./agentTypes";
import { isLocalCommand, parseCommand } from "./slashCommands";
import { buildMessages } from "./history";
import { runLocalCommand } from "./localSlashCommands";
import { defaultSettings, foldSettings, applyConfig, type SessionSettings } from "./settings";
import { modelStep, runSteps, type StepHost, type StepTurn } from "./steps";
import { errorMessage } from "../../base/errors";
import type { AsyncShutdown } from "../../base/lifecycle";

export type { AgentEvent, AgentServices, MessageSource, QueuedMessage, SteerMessage } from "./agentTypes";

/** Callbacks into the owner (LiveAgents → bridge). Every call names the exact agent. */
export interface AgentHooks {
  publish(agent: Agent, ev: AgentEvent): void;
  requestPermission(agent: Agent, toolCallId: string, ask: PermissionAsk, signal: AbortSignal): Promise<PermissionAnswer>;
  /** Runs inside a new user turn, before the user message and request assembly (I-49). */
  beforeUserTurn(agent: Agent, turn: { turnId: string; messageId: string }): void;
  clientFs(agent: Agent): Partial<ClientFs> | undefined;
  /** Whether this agent's owner can put a question to its user (offers `ask_user`, I-46). */
  canAskUser?(agent: Agent): boolean;
  /** Routed to the owning session only; rejects with an AbortError when `signal` aborts (I-46). */
  askUser?(agent: Agent, toolCallId: string, q: UserQuestion, signal: AbortSignal): Promise<UserAnswer>;
  /** Runs a subagent of this agent for its tool call `toolCallId`; cancelled with `signal`. */
  runSubagent(
    agent: Agent,
    toolCallId: string,
    task: string,
    signal: AbortSignal,
    onText: (textSoFar: string) => void,
  ): Promise<SubagentOutcome>;
  /** Hands a task to an agent the owner's client offered (undefined: no such client). */
  runRemote?(agent: Agent, toolCallId: string, agentId: string, task: string, signal: AbortSignal): Promise<SubagentOutcome>;
  /** The other agents the owner's client offers this agent for delegation. */
  delegateAgents?(agent: Agent): readonly DelegateTarget[];
}

export interface AgentOptions {
  log: SessionLog;
  /** realpath of the cwd: the sandbox root. */
  root: string;
  /** The session's private temp area; made when a sandbox context is first handed out. */
  tmpDir: string;
  services: AgentServices;
  hooks: AgentHooks;
}

interface OpenTurn extends StepTurn {
  turnId: string;
  messageId: string | null;
  source: MessageSource;
  /** Seq of its `turn/start`. */
  startSeq: number;
}

const ABORT_DISPOSED = "disposed";
const ABORT_CANCELLED = "aborted";
/** The log could not be written: nothing more of this turn can be saved, so it stops (I-109). */
const ABORT_UNSAVED = "unsaved";

export class Agent implements AsyncShutdown {
  readonly session: SessionLog;
  readonly root: string;
  readonly tmpDir: string;
  /** Client-named paths protected like editor config (`_meta["manifold.dev/protectedPaths"]`, I-112). */
  private protectedPathsValue: readonly string[] = [];
  private readonly services: AgentServices;
  private readonly hooks: AgentHooks;
  private readonly queue: QueuedMessage[] = [];
  private running: Promise<void> | null = null;
  private turn: OpenTurn | null = null;
  private settingsValue: SessionSettings;
  private disposed = false;
  private shutdownPromise: Promise<void> | null = null;
  private tmpDirMade = false;
  private readonly tasks: TaskAccess;
  /** Tasks this exact instance started: only their completion notices are delivered here (I-60). */
  private readonly startedTasks = new Set<string>();
  private readonly notices: Array<{ taskId: string; text: string }> = [];
  /**
   * Tool calls announced (`tool/call` appended) and not yet answered. The one owner of that fact: the
   * bridge asks it before a permission request or a question may name a call (I-41/42); the turn end
   * balances whatever is left with an error result (I-87).
   */
  private readonly openCalls = new Set<string>();
  /** Steers accepted and not yet taken in by a model step (or recorded at a turn's end). */
  private readonly steers: SteerMessage[] = [];
  /** The model's text and thought deltas, merged; flushed before anything else is recorded or published. */
  private readonly deltas = new DeltaCoalescer((type, messageId, text) => void this.record({ type, messageId, text }));
  /** What the turn's model steps and tool calls (steps.ts) see of this agent. */
  private readonly steps: StepHost;

  constructor(opts: AgentOptions) {
    this.session = opts.log;
    this.root = opts.root;
    this.tmpDir = opts.tmpDir;
    this.services = opts.services;
    this.hooks = opts.hooks;
    this.settingsValue = foldSettings(defaultSettings(opts.services.defaultModelId), opts.log.entries);
    opts.log.onWriteFailure(() => this.turn?.controller.abort(ABORT_UNSAVED));
    this.steps = this.stepHost();
    const tasks = opts.services.tasksFor(this.sessionId, () => this.sandboxContext());
    this.tasks = {
      ...tasks,
      start: async (command, o) => {
        const started = await tasks.start(command, o);
        this.startedTasks.add(started.taskId);
        return started;
      },
      output: (id) => tasks.output(id),
      kill: (id) => tasks.kill(id),
      list: () => tasks.list(),
    };
  }

  /**
   * A background task ended. Delivered only if this exact instance started it; held until the next
   * user turn (no unsolicited model request). Returns whether it was accepted.
   */
  noticeTaskExit(taskId: string, text: string): boolean {
    if (this.disposed || !this.startedTasks.has(taskId)) return false;
    this.startedTasks.delete(taskId);
    this.notices.push({ taskId, text });
    return true;
  }

  /** Agent id == session id == header.id. */
  get sessionId(): string {
    return this.session.id;
  }

  get cwd(): string {
    return this.session.header.cwd;
  }

  /** The durable fold of this session's own config events (I-48). */
  get settings(): Readonly<SessionSettings> {
    return this.settingsValue;
  }

  get inTurn(): boolean {
    return this.turn !== null;
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  get currentTurnId(): string | null {
    return this.turn?.turnId ?? null;
  }

  /** Whether `toolCallId` was announced by this agent and has no result yet. */
  isOpenToolCall(toolCallId: string): boolean {
    return this.openCalls.has(toolCallId);
  }

  enqueue(msg: QueuedMessage): void {
    if (this.disposed) throw new Error(`session ${this.sessionId} is closed`);
    this.queue.push(msg);
    this.running ??= this.drain().finally(() => {
      this.running = null;
    });
  }

  /**
   * Takes a steer into the running turn: a model step takes it in next (after the running tool calls,
   * before the next request; a turn whose last step already ended runs one more step). Refused (false)
   * when no turn will take it: none running, cancelled, already ending, or running a local command;
   * a prompt queued behind a cancelled turn takes it instead. An accepted steer is never dropped:
   * what no step took in is recorded at the turn's end (`applied: false`).
   */
  steer(msg: SteerMessage): boolean {
    if (this.disposed) return false;
    const t = this.turn;
    const running = t !== null && !t.closing && !t.controller.signal.aborted;
    if (!running && !this.queue.some((m) => m.source === "user")) return false;
    this.steers.push(msg);
    return true;
  }

  /** Appends a config switch now (used for a switch during an open turn, I-50, and for anchoring, I-49). */
  appendConfig(configId: string, value: string): LogEntry {
    return this.append({ type: "config/set", configId, value });
  }

  append(event: SessionEvent): LogEntry {
    this.deltas.flush(); // merged deltas first: the order of entries and updates is the model's
    return this.record(event);
  }

  private record(event: SessionEvent): LogEntry {
    const entry = this.session.append(event);
    if (event.type === "tool/result") this.openCalls.delete(event.toolCallId);
    if (event.type === "config/set") this.settingsValue = applyConfig(this.settingsValue, event.configId, event.value);
    this.hooks.publish(this, { kind: "entry", entry });
    return entry;
  }

  /** Every other event goes out after the deltas that came before it. */
  private publish(ev: AgentEvent): void {
    this.deltas.flush();
    this.hooks.publish(this, ev);
  }

  /** Queue-aware cancel: drops queued work and aborts the running turn. Returns the dropped message ids. */
  cancel(): string[] {
    const dropped = this.queue.splice(0).map((m) => m.messageId);
    if (dropped.length > 0) this.publish({ kind: "dropped", messageIds: dropped });
    this.abortTurn();
    return dropped;
  }

  /** Aborts the running turn (it ends `aborted`); queued work is untouched. */
  abortTurn(): void {
    this.turn?.controller.abort(ABORT_CANCELLED);
  }

  /** Stops the loop: queued work is dropped, the open turn ends `disposed`; `shutdown` waits for the rest. */
  dispose(): void {
    if (!this.shutdownPromise) this.shutdown().catch((err: unknown) => console.error(`[runtime] ${this.sessionId}: ${errorMessage(err)}`));
  }

  /** Like `dispose`; resolves once the loop has stopped and the log is flushed and closed. */
  shutdown(): Promise<void> {
    this.shutdownPromise ??= (async () => {
      this.disposed = true;
      const dropped = this.queue.splice(0).map((m) => m.messageId);
      if (dropped.length > 0) this.publish({ kind: "dropped", messageIds: dropped });
      this.turn?.controller.abort(ABORT_DISPOSED);
      await this.running;
      await this.session.close();
    })();
    return this.shutdownPromise;
  }

  /** Replaces the client-named protected paths (each session/new, load, resume or fork that names them). */
  setProtectedPaths(paths: readonly string[]): void {
    this.protectedPathsValue = [...paths];
  }

  /** Every consumer of the temp area (tools, tasks, the fence) gets it through here, so it exists by then. */
  sandboxContext(): SandboxContext {
    if (!this.tmpDirMade) {
      // Synchronous, like the store's own file creation: our temp base, not a path a client named (I-111).
      ensureDir(this.tmpDir);
      this.tmpDirMade = true;
    }
    return {
      protectedPaths: this.protectedPathsValue,
      sessionId: this.sessionId,
      mode: this.settingsValue.sandbox,
      approval: this.settingsValue.approval,
      root: this.root,
      tmpDir: this.tmpDir,
      network: this.settingsValue.sandbox === "danger-full-access",
    };
  }

  private async drain(): Promise<void> {
    for (;;) {
      const next = this.queue.shift();
      if (!next || this.disposed) return;
      await this.runTurn(next);
    }
  }

  private async runTurn(msg: QueuedMessage): Promise<void> {
    const turn: OpenTurn = {
      turnId: randomUUID(),
      messageId: msg.messageId,
      source: msg.source,
      controller: new AbortController(),
      closing: false,
      startSeq: 0,
      imagesNoticedSeq: 0,
    };
    this.turn = turn;
    const signal = turn.controller.signal;
    let reason: TurnEndReason = "end_turn";
    let error: string | undefined;
    try {
      turn.startSeq = this.append({ type: "turn/start", turnId: turn.turnId, messageId: msg.messageId, source: msg.source }).seq;
      turn.imagesNoticedSeq = turn.startSeq; // earlier turns' images were noticed in their own turn
      if (msg.source === "user") {
        this.hooks.beforeUserTurn(this, { turnId: turn.turnId, messageId: msg.messageId });
        for (const n of this.notices.splice(0)) this.append({ type: "task/notice", taskId: n.taskId, text: n.text });
      }
      this.append({ type: "user/message", messageId: msg.messageId, content: msg.content });
      // A lazily created log's file exists before the turn talks to a model or runs a tool.
      await this.session.ready();
      signal.throwIfAborted();
      const command = msg.source === "user" ? parseCommand(msg.content) : null;
      if (command && isLocalCommand(command)) {
        turn.closing = true; // a local command takes no steer
        const before = this.session.entries.filter((e) => e.seq < turn.startSeq);
        reason = await runLocalCommand(command.name, {
          before,
          append: (event) => void this.append(event),
          summarise: async (instruction) => {
            const conversation = (vision: boolean): ChatMessage[] => [
              ...buildMessages(before, { vision }),
              { role: "user", content: [{ type: "text", text: instruction }] },
            ];
            const { text } = await modelStep(this.steps, turn, { withTools: false, conversation });
            return signal.aborted ? null : text;
          },
        });
      } else reason = await runSteps(this.steps, turn);
    } catch (err) {
      if (!signal.aborted) {
        reason = "error";
        error = errorMessage(err);
        if (!(err instanceof Error && err.name === "ModelError")) console.error(`[runtime] ${this.sessionId}: turn failed:`, err);
      }
    }
    await this.closeTurn(turn, reason, error);
  }

  /** Ends the turn: open calls balanced, unclaimed steers recorded, `turn/end`, the checkpoint (I-86), then `turn-closed`. */
  private async closeTurn(turn: OpenTurn, ended: TurnEndReason, failure: string | undefined): Promise<void> {
    const signal = turn.controller.signal;
    let reason = ended;
    let error = failure;
    turn.closing = true; // from here on a steer is refused (unless a queued prompt will take it)
    if (signal.aborted) {
      if (signal.reason === ABORT_UNSAVED) {
        reason = "error";
        error = this.session.failure?.message ?? "the session could not be saved";
      } else reason = signal.reason === ABORT_DISPOSED ? "disposed" : "aborted";
    }
    let unsaved: string | undefined;
    try {
      for (const id of [...this.openCalls]) {
        this.append({
          type: "tool/result",
          toolCallId: id,
          status: "failed",
          output: "The tool call was cancelled before it finished.",
          isError: true,
        });
      }
      // An accepted steer is never lost: one no step took in is recorded here, unless a queued prompt's turn will take it.
      if (!this.queue.some((m) => m.source === "user")) this.takeSteers(false);
      const end: SessionEvent = { type: "turn/end", turnId: turn.turnId, reason };
      if (error !== undefined) end.error = error;
      this.turn = null;
      this.append(end);
      await this.session.checkpoint(); // I-86: durable before the next item is claimed
    } catch (err) {
      unsaved = errorMessage(err);
      console.error(`[runtime] ${this.sessionId}: could not close turn: ${unsaved}`);
    } finally {
      this.turn = null;
    }
    // Only now does the prompt learn how its turn ended: after the checkpoint, so "saved" is true (I-109).
    this.publish({
      kind: "turn-closed",
      turnId: turn.turnId,
      reason,
      ...(error !== undefined ? { error } : {}),
      ...(unsaved !== undefined ? { unsaved } : {}),
    });
  }

  /** Appends every pending steer (`applied`: a model step takes them in now; else recorded at a turn's end). */
  private takeSteers(applied: boolean): void {
    for (const s of this.steers.splice(0)) this.append({ type: "user/steer", messageId: s.messageId, content: s.content, applied });
  }

  private stepHost(): StepHost {
    return {
      sessionId: this.sessionId,
      root: this.root,
      cwd: this.cwd,
      session: this.session,
      services: this.services,
      deltas: this.deltas,
      modelId: () => this.settingsValue.model,
      canAskUser: () => this.hooks.canAskUser?.(this) ?? false,
      delegateAgents: () => this.hooks.delegateAgents?.(this) ?? [],
      append: (event) => this.append(event),
      publish: (ev) => this.publish(ev),
      hasSteers: () => this.steers.length > 0,
      takeSteers: (applied) => this.takeSteers(applied),
      openCall: (toolCallId) => void this.openCalls.add(toolCallId),
      toolContext: (toolCallId, signal) => this.toolContext(toolCallId, signal),
    };
  }

  /** A tool call's view of its session: its sandbox, the client's files, tasks, and the asks routed to this agent's owner. */
  private toolContext(toolCallId: string, signal: AbortSignal): ToolContext {
    return {
      sessionId: this.sessionId,
      toolCallId,
      signal,
      sandbox: this.sandboxContext(),
      clientFs: this.hooks.clientFs(this),
      tasks: this.tasks,
      requestPermission: (ask) => this.hooks.requestPermission(this, toolCallId, ask, signal),
      ...(this.hooks.askUser && this.hooks.canAskUser?.(this)
        ? { askUser: (q: UserQuestion) => this.hooks.askUser!(this, toolCallId, q, signal) }
        : {}),
      runSubagent: (task, onText) => this.hooks.runSubagent(this, toolCallId, task, signal, onText),
      ...(this.hooks.runRemote
        ? {
            runRemote: (agentId: string, task: string) => this.hooks.runRemote!(this, toolCallId, agentId, task, signal),
            delegateAgents: this.hooks.delegateAgents?.(this) ?? [],
          }
        : {}),
      update: (patch) => {
        if (!this.disposed) this.publish({ kind: "tool-progress", toolCallId, patch });
      },
    };
  }
}
