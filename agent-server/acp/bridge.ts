// The ACP bridge for one connection: live records by session id, exact-owner checks, the
// loading-id set, prompt slots, targeted cancel, config switches, memoized teardown.
import { randomUUID } from "node:crypto";
import {
  methods,
  RequestError,
  type AgentContext,
  type ClientCapabilities,
  type ContentBlock,
  type SessionUpdate,
  type StopReason,
} from "@agentclientprotocol/sdk";
import type { McpSessions } from "../mcp";
import type { AgentProfile } from "../../base/agentProfiles";
import type { ModelConfig } from "../model/types";
import type { PermissionAnswer } from "../policy/types";
import type { Agent, AgentEvent } from "../runtime/agent";
import type { RuntimeEvent } from "../runtime/events";
import type { AgentOwner, LiveAgents } from "../runtime/liveAgents";
import type { LogEntry, TurnEndReason } from "../session/events";
import type { ClientFs, DelegateTarget, PermissionAsk, SubagentOutcome, UserAnswer, UserQuestion } from "../runtime/capabilities";
import { askClient } from "./permissions";
import { askQuestion } from "./questions";
import { runRemoteDelegate } from "./remoteDelegate";
import { PromptSlot, SessionRecord, type SlotResult } from "./record";
import { entryToUpdates } from "./updates";
import { errorMessage } from "../../base/errors";
import { DisposableStore } from "../../base/lifecycle";

export interface BridgeDeps {
  live: LiveAgents;
  models: readonly ModelConfig[];
  /** The command sandbox backend in use, once detected (shown on the `sandbox` config option). */
  sandboxBackend?: () => string | undefined;
  /** Every session's MCP servers (absent: non-empty `mcpServers` are refused). */
  mcp?: McpSessions;
  /** The configured agent profiles (absent: none). */
  profiles?: readonly AgentProfile[];
}

export class TeardownError extends Error {
  constructor(readonly failures: Array<{ sessionId: string; error: unknown }>) {
    super(
      `teardown failed for ${failures.length} session(s): ${failures.map((f) => `${f.sessionId} (${errorMessage(f.error)})`).join("; ")}`,
    );
    this.name = "TeardownError";
  }
}

function stopReasonOf(reason: TurnEndReason): StopReason {
  switch (reason) {
    case "end_turn":
      return "end_turn";
    case "max_tokens":
      return "max_tokens";
    case "max_turn_requests":
      return "max_turn_requests";
    case "refusal":
      return "refusal";
    default:
      return "cancelled";
  }
}

export class Bridge implements AgentOwner {
  readonly records = new Map<string, SessionRecord>();
  readonly loading = new Set<string>();
  private closedFlag = false;
  private readonly closeController = new AbortController();
  /** One per session creation under way: the close signal's single listener aborts them all. */
  private readonly creations = new Set<AbortController>();
  private teardownPromise: Promise<void> | null = null;
  private client: AgentContext | null = null;
  clientCapabilities: ClientCapabilities | undefined;
  /** The bridge's subscriptions to the runtime, ended at teardown once its sessions are disposed. */
  private readonly subscriptions = new DisposableStore();

  constructor(readonly deps: BridgeDeps) {
    // One global listener per bridge, O(1) demultiplexing by session id (I-4).
    this.subscriptions.add(deps.live.bus.on((ev) => this.onRuntime(ev)));
    this.subscriptions.add(deps.live.addOwner(this));
    // One listener fans the close out, however many creations wait (no listener per request).
    this.closeController.signal.addEventListener("abort", () => this.creations.forEach((c) => c.abort()), { once: true });
  }

  get live(): LiveAgents {
    return this.deps.live;
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  /** Runs a session creation with a signal of its own, aborted at close and released when it ends. */
  async withCreationSignal<T>(run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const creation = new AbortController();
    if (this.closeController.signal.aborted) creation.abort();
    else this.creations.add(creation);
    try {
      return await run(creation.signal);
    } finally {
      this.creations.delete(creation);
    }
  }

  attach(client: AgentContext): void {
    this.client = client;
  }

  /** The record only if it owns this exact agent (I-2, I-3). */
  ownedRecord(agent: Agent): SessionRecord | undefined {
    const rec = this.records.get(agent.sessionId);
    return rec && rec.agent === agent ? rec : undefined;
  }

  requireOpen(): void {
    if (this.closedFlag) throw RequestError.internalError(undefined, "the agent is shutting down");
  }

  requireRecord(sessionId: string): SessionRecord {
    const rec = this.records.get(sessionId);
    if (!rec) throw RequestError.sessionNotFound(sessionId);
    return rec;
  }

  /** Publishes a live record (after its agent was created or resumed). */
  adopt(agent: Agent): SessionRecord {
    const rec = new SessionRecord(agent);
    this.records.set(agent.sessionId, rec);
    return rec;
  }

  // ---- updates -------------------------------------------------------------------------------

  /**
   * An update of a session whose load has not built its record yet (a replay sent ahead, I-25); in
   * order with every later send on this connection.
   */
  sendAhead(sessionId: string, update: SessionUpdate): Promise<void> {
    const client = this.client;
    if (!client || this.closedFlag) return Promise.resolve();
    return this.notifyUpdate(client, sessionId, update);
  }

  send(rec: SessionRecord, update: SessionUpdate): void {
    const client = this.client;
    if (!client || this.records.get(rec.sessionId) !== rec) return;
    rec.lastSend = this.notifyUpdate(client, rec.sessionId, update);
  }

  /** Failures while sending never block settlement (I-32): they are logged, and the promise resolves. */
  private notifyUpdate(client: AgentContext, sessionId: string, update: SessionUpdate): Promise<void> {
    const failed = (err: unknown): void => console.error(`[acp] update for ${sessionId} not sent: ${errorMessage(err)}`);
    try {
      return client.notify(methods.client.session.update, { sessionId, update }).catch(failed);
    } catch (err) {
      failed(err);
      return Promise.resolve();
    }
  }

  private onRuntime(ev: RuntimeEvent): void {
    if (ev.type !== "agent/event") return;
    const rec = this.ownedRecord(ev.agent);
    if (!rec) return; // I-2/I-3: impostors and agents we did not create produce nothing
    this.onAgentEvent(rec, ev.event);
  }

  private onAgentEvent(rec: SessionRecord, ev: AgentEvent): void {
    switch (ev.kind) {
      case "entry":
        this.onEntry(rec, ev.entry);
        break;
      case "tool-progress": {
        if (!rec.agent.isOpenToolCall(ev.toolCallId)) return;
        const u: SessionUpdate = { sessionUpdate: "tool_call_update", toolCallId: ev.toolCallId };
        if (ev.status) u.status = ev.status;
        if (ev.patch?.title !== undefined) u.title = ev.patch.title;
        if (ev.patch?.content !== undefined) u.content = ev.patch.content;
        if (ev.patch?.locations !== undefined) u.locations = ev.patch.locations;
        this.safeSend(rec, () => [u]);
        break;
      }
      case "turn-closed":
        this.onTurnClosed(rec, ev);
        break;
      case "dropped":
        for (const id of ev.messageIds) {
          const slot = rec.slots.get(id);
          if (slot) this.settleAfterSends(rec, slot, { stopReason: "cancelled" });
        }
        break;
    }
  }

  private safeSend(rec: SessionRecord, render: () => SessionUpdate[]): void {
    let updates: SessionUpdate[];
    try {
      updates = render();
    } catch (err) {
      console.error(`[acp] could not render an update for ${rec.sessionId}: ${errorMessage(err)}`);
      return;
    }
    for (const u of updates) this.send(rec, u);
  }

  private onEntry(rec: SessionRecord, entry: LogEntry): void {
    switch (entry.type) {
      case "turn/start": {
        const slot = entry.messageId !== null ? rec.slots.get(entry.messageId) : undefined;
        if (slot) slot.turnId = entry.turnId;
        return;
      }
      case "user/message":
      case "config/set":
        return; // the client wrote the prompt and chose the value itself
      default:
        break;
    }
    this.safeSend(rec, () => entryToUpdates(entry));
  }

  /** Settles the prompt after its turn's checkpoint: a turn that is not on disk is never a success (I-109). */
  private onTurnClosed(rec: SessionRecord, ev: Extract<AgentEvent, { kind: "turn-closed" }>): void {
    const slot = rec.slotForTurn(ev.turnId); // only this prompt's own turn settles it (I-28, I-29)
    if (!slot) return;
    let result: SlotResult = ev.reason === "error" ? { error: ev.error ?? "the turn failed" } : { stopReason: stopReasonOf(ev.reason) };
    if (ev.unsaved !== undefined) {
      const error = `this turn was not saved: ${ev.unsaved}`;
      this.send(rec, {
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text: `\n\n⚠️ ${error}` },
        messageId: `turn-unsaved-${ev.turnId}`,
      });
      result = { error };
    }
    this.settleAfterSends(rec, slot, result);
  }

  /** Every update of the prompt's interval is written before its response (I-33). */
  private settleAfterSends(rec: SessionRecord, slot: PromptSlot, r: SlotResult): void {
    if (rec.active === slot) rec.active = null;
    rec.slots.delete(slot.messageId);
    void rec.lastSend.then(() => slot.settle(r));
  }

  // ---- prompt and cancel ---------------------------------------------------------------------

  /** Synchronous admission (I-26, I-27): the slot is taken before the caller's first await. */
  admitPrompt(rec: SessionRecord, content: ContentBlock[], title: string | null): PromptSlot {
    if (rec.active)
      throw RequestError.invalidRequest(
        undefined,
        `session ${rec.sessionId} already has a prompt running; cancel it or wait for it to finish`,
      );
    const slot = new PromptSlot(randomUUID(), title);
    rec.active = slot;
    rec.slots.set(slot.messageId, slot);
    try {
      rec.agent.enqueue({ messageId: slot.messageId, content, source: "user" });
    } catch (err) {
      rec.settle(slot, { error: errorMessage(err) });
      throw RequestError.internalError(undefined, errorMessage(err));
    }
    return slot;
  }

  /** Targets one record only (I-34); unknown ids are ignored (I-35). */
  cancel(sessionId: string): void {
    const rec = this.records.get(sessionId);
    if (!rec) return;
    for (const s of rec.slots.values()) s.cancelled = true;
    rec.active = null;
    for (const c of rec.pendingPermissions) c.abort();
    for (const c of rec.pendingQuestions) c.abort(); // this record's questions only (I-46)
    rec.agent.cancel();
  }

  // ---- AgentOwner ----------------------------------------------------------------------------

  requestPermission(agent: Agent, toolCallId: string, ask: PermissionAsk, signal: AbortSignal): Promise<PermissionAnswer> | undefined {
    const rec = this.ownedRecord(agent);
    if (!rec) {
      // An in-process subagent asks through its parent's session, under the parent's delegate card.
      const link = this.live.subagents.of(agent);
      if (!link || this.live.get(agent.sessionId) !== agent) return undefined;
      const parentRec = this.ownedRecord(link.parent);
      if (!parentRec) return undefined;
      if (this.closedFlag || !this.client) return Promise.resolve("cancelled");
      if (!parentRec.agent.isOpenToolCall(link.toolCallId)) return Promise.resolve("reject");
      return askClient(this.client, parentRec, link.toolCallId, { ...ask, title: `Subagent: ${ask.title}` }, signal);
    }
    if (this.closedFlag || !this.client) return Promise.resolve("cancelled");
    if (!rec.agent.isOpenToolCall(toolCallId)) return Promise.resolve("reject"); // I-42: the agent owns what it announced
    return askClient(this.client, rec, toolCallId, ask, signal);
  }

  /** Only for an agent this bridge owns, when this connection's client advertised form elicitation. */
  canAskUser(agent: Agent): boolean {
    return !this.closedFlag && !!this.client && !!this.clientCapabilities?.elicitation?.form && this.ownedRecord(agent) !== undefined;
  }

  askUser(agent: Agent, toolCallId: string, q: UserQuestion, signal: AbortSignal): Promise<UserAnswer> | undefined {
    const rec = this.ownedRecord(agent);
    if (!rec) return undefined; // not ours: no frame from this connection (I-46)
    if (!this.canAskUser(agent) || !this.client || !rec.agent.isOpenToolCall(toolCallId))
      return Promise.resolve({ outcome: "unavailable" }); // fails closed
    return askQuestion(this.client, rec, toolCallId, q, signal);
  }

  /** Only for an agent this bridge owns; an in-process subagent (no record) gets undefined and is refused. */
  runRemote(agent: Agent, toolCallId: string, agentId: string, task: string, signal: AbortSignal): Promise<SubagentOutcome> | undefined {
    const rec = this.ownedRecord(agent);
    if (!rec) return undefined;
    if (this.closedFlag || !this.client) return Promise.resolve({ kind: "ended", reason: "cancelled", text: "" });
    if (!rec.agent.isOpenToolCall(toolCallId)) return Promise.resolve({ kind: "refused", why: "The delegate call was not announced." });
    return runRemoteDelegate(this.client, rec, { toolCallId, agentId, task, signal });
  }

  delegateAgents(agent: Agent): readonly DelegateTarget[] | undefined {
    return this.ownedRecord(agent)?.delegateAgents;
  }

  beforeUserTurn(agent: Agent, turn: { turnId: string; messageId: string }): void {
    const rec = this.ownedRecord(agent);
    if (!rec) return;
    // I-49: pending idle switches are anchored inside the new user turn, before request assembly.
    for (const [id, value] of rec.pendingConfig) agent.appendConfig(id, value);
    rec.pendingConfig.clear();
    if (!rec.hasTitle) {
      const title = rec.slots.get(turn.messageId)?.title;
      if (title) {
        rec.hasTitle = true;
        agent.append({ type: "session/title", title });
      }
    }
  }

  clientFs(agent: Agent): Partial<ClientFs> | undefined {
    const rec = this.ownedRecord(agent);
    const client = this.client;
    const fs = this.clientCapabilities?.fs;
    if (!rec || !client || !fs) return undefined;
    const out: Partial<ClientFs> = {};
    if (fs.readTextFile) {
      out.readTextFile = async (path, opts) => {
        const res = await client.request(methods.client.fs.readTextFile, {
          sessionId: rec.sessionId,
          path,
          ...(opts?.line ? { line: opts.line } : {}),
          ...(opts?.limit ? { limit: opts.limit } : {}),
        });
        return res.content;
      };
    }
    if (fs.writeTextFile) {
      out.writeTextFile = async (path, content) => {
        await client.request(methods.client.fs.writeTextFile, { sessionId: rec.sessionId, path, content });
      };
    }
    return out;
  }

  // ---- close and teardown --------------------------------------------------------------------

  /** `session/close`: cancel as if `session/cancel` came, then free the agent. */
  async closeSession(rec: SessionRecord): Promise<void> {
    this.cancel(rec.sessionId);
    try {
      await this.live.dispose(rec.agent);
    } finally {
      await rec.lastSend;
      rec.settleAll({ stopReason: "cancelled" });
      if (this.records.get(rec.sessionId) === rec) this.records.delete(rec.sessionId);
    }
  }

  /** Memoized; shared by stdin EOF and SIGTERM/SIGINT (I-80). */
  teardown(): Promise<void> {
    this.teardownPromise ??= this.runTeardown();
    return this.teardownPromise;
  }

  private async runTeardown(): Promise<void> {
    this.closedFlag = true; // before the first await (I-77)
    this.closeController.abort();
    const recs = [...this.records.values()];
    this.records.clear(); // nothing is sent after this point (I-83)
    for (const rec of recs) {
      rec.settleAll({ stopReason: "cancelled" }); // I-78
      for (const c of rec.pendingPermissions) c.abort(); // I-45
      for (const c of rec.pendingQuestions) c.abort(); // I-45
    }
    const results = await Promise.allSettled(recs.map((rec) => this.live.dispose(rec.agent))); // I-79: in parallel
    this.subscriptions.dispose();
    const failures = results.flatMap((r, i) =>
      r.status === "rejected" ? [{ sessionId: recs[i]!.sessionId, error: r.reason as unknown }] : [],
    );
    if (failures.length > 0) throw new TeardownError(failures); // I-81: every failure, together
  }
}
