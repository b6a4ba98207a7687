// The ACP client side of one agent connection. It takes a transport (a stdio stream
// in production, an in-process `AgentApp` in tests) and routes everything the agent sends by
// `sessionId` to that session's owner (the handlers: clientHandlers.ts; the routing: router.ts).
// Optional agent methods are only called when the agent advertised them.
import * as acp from "@agentclientprotocol/sdk";
import type {
  AgentCapabilities,
  ContentBlock,
  InitializeResponse,
  McpServer,
  ListSessionsResponse,
  LoadSessionResponse,
  NewSessionResponse,
  ResumeSessionResponse,
  SessionConfigOption,
  SessionInfo,
  SessionUpdate,
  StopReason,
} from "@agentclientprotocol/sdk";
import { authMethodViews, type AuthMethodView } from "../common/auth";
import type { McpServerStatus } from "../common/mcpRows";
import { clientHandlers, parseSessionNotification, takeUpdates, type McpStatusReport, type SessionServices } from "./clientHandlers";
import { SessionRouter } from "./router";
import { advertisesDelegation } from "./delegateProtocol";
import { Emitter, type Event } from "../../base/event";
import { EXACT_SESSION_IDS_META } from "../../base/sessionIds";
import { HISTORY_METHOD, HISTORY_PAGES_META, HistoryPage } from "../../base/historyPages";

/** Manifold's extension method: restart one MCP server of a session (built-in agent). */
export const MCP_RESTART_METHOD = "_manifold/mcp_restart";

export type Transport = acp.Stream | acp.AgentApp;

/** Capabilities the extension relies on, flattened from `initialize`. */
export interface AgentFeatures {
  load: boolean;
  resume: boolean;
  list: boolean;
  close: boolean;
  delete: boolean;
  additionalDirectories: boolean;
  embeddedContext: boolean;
  image: boolean;
  /** MCP transports the agent accepts besides stdio (`mcpCapabilities`). */
  mcp: { http: boolean; sse: boolean };
  /** The agent reports MCP server states / restarts one (advertised in `agentCapabilities._meta.manifold`). */
  mcpStatus: boolean;
  mcpRestart: boolean;
  /** The agent starts stdio servers marked `_meta["manifold.dev/confine"]` inside the session's sandbox (I-114). */
  mcpConfine: boolean;
  /** `session/fork` that can be cut before a prompt (Manifold's `_meta` extension): edit and resend forgets. */
  forkAtPrompt: boolean;
  /** `_session/steering`: user content into the running turn (top-level `_meta.steering.supported` of `initialize`). */
  steering: boolean;
  /** `logout` (`agentCapabilities.auth.logout`). */
  logout: boolean;
  /** `_manifold/delegate`: the agent hands tasks to the agents the user allowed (extension/delegation/). */
  delegate: boolean;
  /** `session/new` under a client-minted exact id, resume-or-create (`agentCapabilities._meta["manifold.dev/exactSessionIds"]`). */
  exactSessionIds: boolean;
  /** `session/load` replays the latest turns when asked, older ones come in pages (`_meta["manifold.dev/historyPages"]`, base/historyPages.ts). */
  historyPages: boolean;
}

/** Where an agent advertises a fork that can be cut before a prompt (agent-server/acp/fork.ts). */
export const FORK_METHOD = "session/fork";
export const KEEP_PROMPTS_META = "manifold.dev/keepPrompts";

function forkMeta(meta: unknown): boolean {
  if (typeof meta !== "object" || meta === null) return false;
  const fork = (meta as Record<string, unknown>)[FORK_METHOD];
  return typeof fork === "object" && fork !== null && (fork as Record<string, unknown>)[KEEP_PROMPTS_META] === true;
}

/**
 * The interoperable steering extension (claude-agent-acp, codex-acp and the built-in agent,
 * agent-server/acp/steering.ts): advertised beside `agentCapabilities`, not inside it.
 */
export const STEERING_METHOD = "_session/steering";

function steeringMeta(initMeta: unknown): boolean {
  if (typeof initMeta !== "object" || initMeta === null) return false;
  const st = (initMeta as Record<string, unknown>).steering;
  return typeof st === "object" && st !== null && (st as Record<string, unknown>).supported === true;
}

/** What `_session/steering` answered: taken into the running turn, or to be sent as the next prompt. */
export type SteerOutcome = "injected" | "promptRequired";

export function agentFeatures(caps: AgentCapabilities | undefined | null, initMeta?: unknown): AgentFeatures {
  const sc = caps?.sessionCapabilities;
  const on = (v: unknown) => v !== undefined && v !== null;
  return {
    load: caps?.loadSession === true,
    resume: on(sc?.resume),
    list: on(sc?.list),
    close: on(sc?.close),
    delete: on(sc?.delete),
    additionalDirectories: on(sc?.additionalDirectories),
    embeddedContext: caps?.promptCapabilities?.embeddedContext === true,
    image: caps?.promptCapabilities?.image === true,
    mcp: { http: caps?.mcpCapabilities?.http === true, sse: caps?.mcpCapabilities?.sse === true },
    mcpStatus: manifoldMeta(caps)?.mcpStatus === true,
    mcpRestart: manifoldMeta(caps)?.mcpRestart === true,
    mcpConfine: manifoldMeta(caps)?.mcpConfine === true,
    forkAtPrompt: forkMeta(caps?._meta),
    steering: steeringMeta(initMeta),
    logout: on(caps?.auth?.logout),
    delegate: advertisesDelegation(caps?._meta),
    exactSessionIds: caps?._meta?.[EXACT_SESSION_IDS_META] === true,
    historyPages: caps?._meta?.[HISTORY_PAGES_META] === true,
  };
}

function manifoldMeta(caps: AgentCapabilities | undefined | null): Record<string, unknown> | undefined {
  const m = caps?._meta?.manifold;
  return typeof m === "object" && m !== null ? (m as Record<string, unknown>) : undefined;
}

export class UnsupportedError extends Error {}

const CLIENT_INFO = { name: "manifold-vscode", version: "0.1.0" };

/**
 * What this client offers the agent beyond the baseline. An agent that runs elsewhere (a container,
 * a remote host) is not offered `fs/*` or `terminal/*`, so one turn never spans two filesystems.
 */
export interface ClientOffer {
  /** Offer `fs/read_text_file` and `fs/write_text_file` (default true). */
  fs?: boolean;
  /** Offer `terminal/*` (default true). */
  terminal?: boolean;
}

export class AcpClient {
  readonly router: SessionRouter<SessionServices>;
  readonly #conn: acp.ClientConnection;
  #features: AgentFeatures = agentFeatures(undefined);
  #info?: InitializeResponse;
  readonly #mcpStatus = new Map<string, McpServerStatus[]>();
  readonly #onDidReportMcpStatus = new Emitter<McpStatusReport>();
  /** `_manifold/mcp_status` reports (validated), for whichever folder session holds the id. */
  readonly onDidReportMcpStatus: Event<McpStatusReport> = this.#onDidReportMcpStatus.event;

  readonly #offer: Required<ClientOffer>;
  readonly #onRouteError: (sessionId: string, err: unknown) => void;

  constructor(transport: Transport, onRouteError: (sessionId: string, err: unknown) => void = () => {}, offer: ClientOffer = {}) {
    this.router = new SessionRouter<SessionServices>(onRouteError);
    this.#onRouteError = onRouteError;
    this.#offer = { fs: offer.fs ?? true, terminal: offer.terminal ?? true };
    const app = clientHandlers(
      CLIENT_INFO.name,
      this.router,
      (report) => {
        // Kept per session: a report may arrive before the session/new answer that names the session.
        this.#mcpStatus.set(report.sessionId, report.servers);
        this.#onDidReportMcpStatus.fire(report);
      },
      this.#offer,
    );
    // Over a stream the updates are taken off before the SDK reads them and checked once, cheaply
    // (clientHandlers.ts); an in-process agent app's go through the SDK's handler.
    this.#conn =
      "onRequest" in transport ? app.connect(transport) : app.connect(takeUpdates(transport, (n) => this.router.dispatch(n), onRouteError));
  }

  get closed(): Promise<void> {
    return this.#conn.closed;
  }

  get features(): AgentFeatures {
    return this.#features;
  }

  get agentName(): string {
    return this.#info?.agentInfo?.title ?? this.#info?.agentInfo?.name ?? "agent";
  }

  /** The sign-in methods `initialize` offered that this client can run (validated: the list is the agent's). */
  get authMethods(): AuthMethodView[] {
    return authMethodViews(this.#info?.authMethods);
  }

  /** `authenticate` with an agent-run method (never a terminal or env-var one: those are the client's to run). */
  async authenticate(methodId: string): Promise<void> {
    const m = this.authMethods.find((x) => x.id === methodId);
    if (m?.kind !== "agent") throw new UnsupportedError(`"${methodId}" is not a sign-in method the agent runs itself`);
    await this.#conn.agent.request(acp.methods.agent.authenticate, { methodId });
  }

  /** `logout`, where the agent advertises it. */
  async logout(): Promise<void> {
    if (!this.#features.logout) throw new UnsupportedError(`${this.agentName} does not support signing out`);
    await this.#conn.agent.request(acp.methods.agent.logout, {});
  }

  close(): void {
    this.#conn.close();
  }

  async initialize(): Promise<InitializeResponse> {
    const params: acp.InitializeRequest = {
      protocolVersion: acp.PROTOCOL_VERSION,
      // Form and URL elicitation (questions and pages to open, in the session's panel). Terminal
      // sign-in methods run in a VS Code terminal (extension/sessions/signIn.ts). Boolean config
      // options show as a checkbox in the panel's header.
      clientCapabilities: {
        fs: { readTextFile: this.#offer.fs, writeTextFile: this.#offer.fs },
        terminal: this.#offer.terminal,
        elicitation: { form: {}, url: {} },
        auth: { terminal: true },
        // Compaction: `compaction_update` shows as one entry (its summary chunks are not shown).
        session: { configOptions: { boolean: {} }, compaction: {} },
      },
      clientInfo: CLIENT_INFO,
    };
    const res = await this.#conn.agent.request(acp.methods.agent.initialize, params);
    if (res.protocolVersion !== acp.PROTOCOL_VERSION) {
      throw new Error(`the agent speaks ACP protocol version ${res.protocolVersion}; Manifold supports ${acp.PROTOCOL_VERSION}`);
    }
    this.#info = res;
    this.#features = agentFeatures(res.agentCapabilities, res._meta);
    return res;
  }

  /**
   * `session/new` for one folder; `additionalDirectories` is never sent (I-92). `register` runs as soon
   * as the id is known, before any update held during creation is delivered.
   */
  async newSession(
    cwd: string,
    register: (res: NewSessionResponse) => void,
    mcpServers: McpServer[] = [],
    meta?: Record<string, unknown>,
  ): Promise<NewSessionResponse> {
    const done = this.router.beginCreate();
    try {
      const res = await this.#conn.agent.request(acp.methods.agent.session.new, { cwd, mcpServers, ...(meta ? { _meta: meta } : {}) });
      register(res);
      return res;
    } finally {
      done();
    }
  }

  /** `abandoned`: aborted when the caller gives the load up; the agent is then sent `$/cancel_request` for it. */
  async loadSession(
    sessionId: string,
    cwd: string,
    mcpServers: McpServer[] = [],
    meta?: Record<string, unknown>,
    abandoned?: AbortSignal,
  ): Promise<LoadSessionResponse> {
    if (!this.#features.load) throw new UnsupportedError("this agent cannot load sessions");
    const res = await this.#conn.agent.request(
      acp.methods.agent.session.load,
      { sessionId, cwd, mcpServers, ...(meta ? { _meta: meta } : {}) },
      giveUp(abandoned),
    );
    await this.#updatesApplied(sessionId);
    return res ?? {};
  }

  async resumeSession(
    sessionId: string,
    cwd: string,
    mcpServers: McpServer[] = [],
    meta?: Record<string, unknown>,
    abandoned?: AbortSignal,
  ): Promise<ResumeSessionResponse> {
    if (!this.#features.resume) throw new UnsupportedError("this agent cannot resume sessions");
    return this.#conn.agent.request(
      acp.methods.agent.session.resume,
      { sessionId, cwd, mcpServers, ...(meta ? { _meta: meta } : {}) },
      giveUp(abandoned),
    );
  }

  /** The last MCP status report for a session. */
  mcpStatusOf(sessionId: string): McpServerStatus[] | undefined {
    return this.#mcpStatus.get(sessionId);
  }

  /** Restarts one MCP server of a session (only for agents advertising it). */
  async restartMcpServer(sessionId: string, name: string): Promise<void> {
    if (!this.#features.mcpRestart) throw new UnsupportedError("this agent cannot restart one MCP server");
    await this.#conn.agent.request(MCP_RESTART_METHOD, { sessionId, name });
  }

  /**
   * Whole turns before user prompt `beforePrompt`, at least `events` logged events of them, as checked
   * updates (an invalid one is dropped, as on the wire) and the prompt they begin at.
   */
  async historyPage(sessionId: string, beforePrompt: number, events: number): Promise<{ updates: SessionUpdate[]; fromPrompt: number }> {
    if (!this.#features.historyPages) throw new UnsupportedError("this agent does not page its history");
    const page = HistoryPage.parse(await this.#conn.agent.request(HISTORY_METHOD, { sessionId, beforePrompt, events }));
    if (page.fromPrompt >= beforePrompt) throw new Error(`history page from prompt ${page.fromPrompt} is not before ${beforePrompt}`);
    const updates: SessionUpdate[] = [];
    for (const update of page.updates) {
      try {
        updates.push(parseSessionNotification({ sessionId, update }).update);
      } catch {
        this.#onRouteError(sessionId, new Error("an invalid update in a history page was dropped"));
      }
    }
    return { updates, fromPrompt: page.fromPrompt };
  }

  /** Every session the agent knows for `cwd` (all pages). */
  async listSessions(cwd: string): Promise<SessionInfo[]> {
    if (!this.#features.list) throw new UnsupportedError("this agent cannot list sessions");
    const out: SessionInfo[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const res: ListSessionsResponse = await this.#conn.agent.request(acp.methods.agent.session.list, cursor ? { cwd, cursor } : { cwd });
      // Some agents ignore the cwd filter: filter again here.
      out.push(...res.sessions.filter((s) => s.cwd === cwd));
      if (!res.nextCursor) break;
      cursor = res.nextCursor;
    }
    return out;
  }

  async closeSession(sessionId: string): Promise<void> {
    if (!this.#features.close) return;
    await this.#conn.agent.request(acp.methods.agent.session.close, { sessionId });
  }

  async deleteSession(sessionId: string): Promise<void> {
    if (!this.#features.delete) throw new UnsupportedError("this agent cannot delete sessions");
    await this.#conn.agent.request(acp.methods.agent.session.delete, { sessionId });
  }

  /** A new session with the first `keepPrompts` user prompts of `sessionId` (only where `forkAtPrompt`). */
  async forkAtPrompt(sessionId: string, cwd: string, keepPrompts: number): Promise<string> {
    if (!this.#features.forkAtPrompt) throw new UnsupportedError("this agent cannot fork a session before a prompt");
    const raw: unknown = await this.#conn.agent.request(FORK_METHOD, {
      sessionId,
      cwd,
      mcpServers: [],
      _meta: { [KEEP_PROMPTS_META]: keepPrompts },
    });
    const id = typeof raw === "object" && raw !== null ? (raw as { sessionId?: unknown }).sessionId : undefined;
    if (typeof id !== "string" || id.length === 0) throw new Error("the agent's session/fork answer has no sessionId");
    // Only the id is taken from this (schema-less) answer; the session's state comes from session/resume.
    return id;
  }

  /** Resolves with the turn's stop reason once every update the agent sent before answering has been applied. */
  async prompt(sessionId: string, prompt: ContentBlock[], abandoned?: AbortSignal): Promise<StopReason> {
    const res = await this.#conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt }, giveUp(abandoned));
    await this.#updatesApplied(sessionId);
    return res.stopReason;
  }

  /**
   * The SDK resolves a response as soon as it is read but hands a notification to its handler several
   * microtasks after it arrived, so a turn's last updates could be applied after its answer. Everything
   * between reading a message and our handler is microtasks: one macrotask later every update read
   * before the answer has been dispatched, and the router's queue says when it has been applied.
   */
  async #updatesApplied(sessionId: string): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    await this.router.drain(sessionId);
  }

  /**
   * Sends user content into the running turn of `sessionId` (I-104). `promptRequired`: no turn took it,
   * and the caller sends it as the next prompt; it is never dropped.
   */
  async steer(sessionId: string, prompt: ContentBlock[]): Promise<SteerOutcome> {
    if (!this.#features.steering) throw new UnsupportedError("this agent cannot take a message into a running turn");
    const raw: unknown = await this.#conn.agent.request(STEERING_METHOD, {
      sessionId,
      prompt,
      _meta: { steering: { idleBehavior: "promptRequired" } },
    });
    const outcome = typeof raw === "object" && raw !== null ? (raw as { outcome?: unknown }).outcome : undefined;
    if (outcome === "injected" || outcome === "promptRequired") return outcome;
    throw new Error(`the agent's ${STEERING_METHOD} answer has no known outcome`);
  }

  async cancel(sessionId: string): Promise<void> {
    await this.#conn.agent.notify(acp.methods.agent.session.cancel, { sessionId });
  }

  async setConfigOption(sessionId: string, configId: string, value: string | boolean): Promise<SessionConfigOption[]> {
    const params: acp.SetSessionConfigOptionRequest =
      typeof value === "boolean" ? { sessionId, configId, type: "boolean", value } : { sessionId, configId, value };
    const res = await this.#conn.agent.request(acp.methods.agent.session.setConfigOption, params);
    return res.configOptions;
  }

  async setMode(sessionId: string, modeId: string): Promise<void> {
    await this.#conn.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId });
  }
}

/**
 * The request options that give a request up when `abandoned` aborts: the SDK sends `$/cancel_request`
 * for it and still settles the promise with the agent's last answer (a result or `-32800`), so the
 * caller's own handling of the outcome is unchanged.
 */
function giveUp(abandoned: AbortSignal | undefined): { cancellationSignal: AbortSignal } | undefined {
  return abandoned ? { cancellationSignal: abandoned } : undefined;
}
