// LiveAgents: live agents keyed by SessionId (agent id == session id, I-8). One creation
// transaction serves create and resume: final-entry conflict check, rollback, quiescence (I-15, I-20..24).
import { randomUUID } from "node:crypto";
import type { PermissionAnswer } from "../policy/types";
import { SessionNotFoundError } from "../session/errors";
import { LOG_FORMAT_VERSION, type SessionHeader, type SessionProfile } from "../session/events";
import type { SessionLog } from "../session/log";
import type { SessionStore } from "../session/store";
import { AbortedError, raceAbort } from "./abortable";
import { Agent, type AgentEvent, type AgentHooks, type AgentServices } from "./agent";
import type { ClientFs, DelegateTarget, PermissionAsk, SubagentOutcome, UserAnswer, UserQuestion } from "./capabilities";
import { RuntimeBus } from "./events";
import { canonicalCwd } from "./cwd";
import { runSubagent, SubagentLinks } from "./subagents";
import { ignoreError, logError } from "../../base/errors";
import { toDisposable, type IDisposable } from "../../base/lifecycle";
import { profileSessionId } from "../../base/agentProfiles";

/** Whoever shows an agent to a user (an ACP bridge). Answers only for agents it owns; else undefined. */
export interface AgentOwner {
  requestPermission(agent: Agent, toolCallId: string, ask: PermissionAsk, signal: AbortSignal): Promise<PermissionAnswer> | undefined;
  beforeUserTurn(agent: Agent, turn: { turnId: string; messageId: string }): void;
  clientFs(agent: Agent): Partial<ClientFs> | undefined;
  canAskUser?(agent: Agent): boolean;
  /** Undefined unless this owner owns the agent (I-46). */
  askUser?(agent: Agent, toolCallId: string, q: UserQuestion, signal: AbortSignal): Promise<UserAnswer> | undefined;
  /** Undefined unless this owner owns the agent; a subagent has no owner here and is refused. */
  runRemote?(agent: Agent, toolCallId: string, agentId: string, task: string, signal: AbortSignal): Promise<SubagentOutcome> | undefined;
  delegateAgents?(agent: Agent): readonly DelegateTarget[] | undefined;
}

export class AlreadyLiveError extends Error {
  constructor(readonly sessionId: string) {
    super(`session ${JSON.stringify(sessionId)} is already loaded`);
    this.name = "AlreadyLiveError";
  }
}

export interface CreateOptions {
  cwd: string;
  /** Exact id (pre-minted, or client-minted for resume-or-create). Omitted: a CSPRNG UUID v4 is minted (I-6). */
  sessionId?: string;
  parent?: string;
  /** The agent profile it starts from: recorded in the header, and the prefix of a minted id (I-7). */
  profile?: SessionProfile;
  signal?: AbortSignal;
  /** Runs after `agent/created` is published and before the agent is returned; a failure rolls back (I-15). */
  setup?: (agent: Agent) => Promise<void> | void;
}

export interface ResumeOptions {
  resumeSessionId: string;
  signal?: AbortSignal;
  setup?: (agent: Agent) => Promise<void> | void;
}

/** What a creation builds first: the log, and the root when the build already made it canonical (else null). */
interface Built {
  log: SessionLog;
  root: string | null;
}

export class LiveAgents {
  readonly agents = new Map<string, Agent>();
  readonly sessions = new Map<string, SessionLog>();
  readonly bus = new RuntimeBus();
  /** In-process subagents → their parent and the parent's delegate call. */
  readonly subagents = new SubagentLinks();
  private readonly owners = new Set<AgentOwner>();
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly draining = new Map<string, Promise<void>>();
  // Weak: a disposed agent must stay collectable (a Map kept every closed session alive, I-110).
  private readonly disposing = new WeakMap<Agent, Promise<void>>();
  /** The hooks every agent of this LiveAgents reports through (exposed so tests can build impostors). */
  readonly hooks: AgentHooks;
  /** The services once they are there: a creation then takes them without a race against its signal. */
  private servicesReady: AgentServices | null;

  constructor(
    readonly store: SessionStore,
    /** A promise while the process is still starting: a creation waits for it. */
    private readonly services: AgentServices | Promise<AgentServices>,
    private readonly onDisposeOwner: (sessionId: string) => Promise<void> = async () => undefined,
    /** Called after a session's log is deleted (drop its task records, grants, …). */
    private readonly onForgetOwner: (sessionId: string) => Promise<void> = async () => undefined,
  ) {
    this.servicesReady = services instanceof Promise ? null : services;
    if (services instanceof Promise)
      services.then((s) => void (this.servicesReady = s), ignoreError("a creation waiting for the services hears their failure itself"));
    this.hooks = {
      publish: (agent, ev: AgentEvent) => this.bus.publish({ type: "agent/event", agent, event: ev }),
      requestPermission: (agent, toolCallId, ask, signal) => {
        for (const o of this.owners) {
          const r = o.requestPermission(agent, toolCallId, ask, signal);
          if (r) return r;
        }
        return Promise.resolve<PermissionAnswer>("reject"); // I-42: nobody owns it, fail closed
      },
      beforeUserTurn: (agent, turn) => {
        for (const o of this.owners) o.beforeUserTurn(agent, turn);
      },
      clientFs: (agent) => {
        for (const o of this.owners) {
          const fs = o.clientFs(agent);
          if (fs) return fs;
        }
        return undefined;
      },
      canAskUser: (agent) => [...this.owners].some((o) => o.canAskUser?.(agent) === true),
      askUser: (agent, toolCallId, q, signal) => {
        for (const o of this.owners) {
          const r = o.askUser?.(agent, toolCallId, q, signal);
          if (r) return r;
        }
        return Promise.resolve<UserAnswer>({ outcome: "unavailable" }); // I-46: nobody owns it, fail closed
      },
      runSubagent: (parent, toolCallId, task, signal, onText) => runSubagent(this, { parent, toolCallId, task, signal, onText }),
      runRemote: (agent, toolCallId, agentId, task, signal) => {
        for (const o of this.owners) {
          const r = o.runRemote?.(agent, toolCallId, agentId, task, signal);
          if (r) return r;
        }
        return Promise.resolve<SubagentOutcome>({ kind: "refused", why: "Only a session of the client can hand a task to another agent." });
      },
      delegateAgents: (agent) => {
        for (const o of this.owners) {
          const list = o.delegateAgents?.(agent);
          if (list) return list;
        }
        return [];
      },
    };
  }

  addOwner(owner: AgentOwner): IDisposable {
    this.owners.add(owner);
    return toDisposable(() => this.owners.delete(owner));
  }

  get(id: string): Agent | undefined {
    return this.agents.get(id);
  }

  async create(opts: CreateOptions): Promise<Agent> {
    const id = opts.sessionId ?? (opts.profile ? profileSessionId(opts.profile.id, randomUUID()) : randomUUID());
    return this.transact(id, opts.signal, opts.setup, async () => {
      const cwd = await canonicalCwd(opts.cwd);
      const header: SessionHeader = { type: "header", version: LOG_FORMAT_VERSION, id, cwd, createdAt: new Date().toISOString() };
      if (opts.parent !== undefined) header.parent = opts.parent;
      if (opts.profile !== undefined) header.profile = opts.profile;
      // The header's cwd was just made canonical: it is the root, no second realpath. A minted id
      // cannot collide (I-6), so its file is created while the answer leaves; a client's is made first (I-88).
      return { log: await this.store.create(header, { lazy: opts.sessionId === undefined }), root: cwd };
    });
  }

  async resume(opts: ResumeOptions): Promise<Agent> {
    const id = opts.resumeSessionId;
    return this.transact(id, opts.signal, opts.setup, async () => ({ log: await this.store.open(id), root: null }));
  }

  /** The creation transaction shared by create and resume. */
  private async transact(
    id: string,
    signal: AbortSignal | undefined,
    setup: CreateOptions["setup"],
    build: () => Promise<Built>,
  ): Promise<Agent> {
    if (this.agents.has(id) || this.inFlight.has(id)) throw new AlreadyLiveError(id);
    const run = this.transactInner(id, signal, setup, build);
    this.inFlight.set(id, run);
    try {
      return await run;
    } finally {
      if (this.inFlight.get(id) === run) this.inFlight.delete(id);
    }
  }

  private async transactInner(
    id: string,
    signal: AbortSignal | undefined,
    setup: CreateOptions["setup"],
    build: () => Promise<Built>,
  ): Promise<Agent> {
    await this.draining.get(id);
    if (signal?.aborted) throw new AbortedError("creation aborted");
    const building = build();
    let log: SessionLog;
    let knownRoot: string | null;
    try {
      ({ log, root: knownRoot } = await raceAbort(building, signal));
    } catch (err) {
      // A log that materializes after the abort is closed, never published (I-20, I-23).
      building
        .then((b) => b.log.close(), ignoreError("the caller hears the abort; a build that fails after it has nothing left to undo"))
        .catch(logError(console.error, `[runtime] closing the abandoned log of ${id}`));
      throw err;
    }
    let agent: Agent | null = null;
    let published = false;
    try {
      if (log.id !== id) throw new SessionNotFoundError(id);
      const root = knownRoot ?? (await raceAbort(canonicalCwd(log.header.cwd), signal));
      // Made on first use (Agent.sandboxContext): a session that never runs a tool costs no directory.
      const tmpDir = this.store.tmpDirFor(id);
      const services = this.servicesReady ?? (await raceAbort(Promise.resolve(this.services), signal));
      if (signal?.aborted) throw new AbortedError("creation aborted");
      agent = new Agent({ log, root, tmpDir, services, hooks: this.hooks });
      // Final-entry conflict check (I-21): someone else won this id while we were building.
      if (this.agents.has(id) || this.sessions.has(id)) throw new AlreadyLiveError(id);
      this.agents.set(id, agent);
      this.sessions.set(id, log);
      published = true;
      this.bus.publishStrict({ type: "agent/created", agent });
      if (setup)
        await raceAbort(
          Promise.resolve().then(() => setup(agent!)),
          signal,
        );
      if (signal?.aborted) throw new AbortedError("creation aborted");
      return agent;
    } catch (err) {
      if (agent && published) {
        this.detach(agent);
        this.bus.publish({ type: "agent/disposed", agent });
      }
      // The creation's own failure is what the caller hears; a failure of the rollback is logged.
      if (agent) await agent.shutdown().catch(logError(console.error, `[runtime] rolling back ${id}`));
      else await log.close().catch(logError(console.error, `[runtime] closing the log of ${id}`));
      throw err;
    }
  }

  /** Resolves once a disposal of `id` still running has ended, at once when none runs (I-13). */
  async drained(id: string): Promise<void> {
    await this.draining.get(id);
  }

  /** Deletes a session that is not live: its log, its temp area, and what other layers keep for it. */
  async deleteSession(id: string): Promise<void> {
    if (this.agents.has(id) || this.inFlight.has(id)) throw new AlreadyLiveError(id);
    await this.draining.get(id);
    await this.store.delete(id);
    await this.onForgetOwner(id);
  }

  /** Exact-entry detach: a stale closure never removes a newer entry of the same id (I-22). */
  private detach(agent: Agent): void {
    const id = agent.sessionId;
    if (this.agents.get(id) === agent) this.agents.delete(id);
    if (this.sessions.get(id) === agent.session) this.sessions.delete(id);
  }

  /** Stops the loop, flushes, unregisters, publishes `agent/disposed` once; memoized per agent. */
  dispose(agent: Agent): Promise<void> {
    const existing = this.disposing.get(agent);
    if (existing) return existing;
    const id = agent.sessionId;
    const p = (async () => {
      let failure: unknown = null;
      try {
        await agent.shutdown();
      } catch (err) {
        failure = err;
      }
      try {
        await this.onDisposeOwner(id);
      } catch (err) {
        failure ??= err;
      }
      this.detach(agent);
      this.bus.publish({ type: "agent/disposed", agent });
      if (failure) throw failure;
    })();
    this.disposing.set(agent, p);
    // A creation of the same id only waits for the disposal to end; its failure is the disposer's.
    const drained = p.catch(ignoreError("the failure goes to whoever disposes; this only orders a re-creation"));
    this.draining.set(id, drained);
    void drained.finally(() => {
      if (this.draining.get(id) !== undefined) this.draining.delete(id);
    });
    return p;
  }
}
