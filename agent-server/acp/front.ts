// The ACP app as a client first meets it. `initialize` is answered from constants; every other
// method is registered here by name and handed to the routes (app.ts), which the front asks for on
// first need. The process answers `initialize` before it has loaded the sessions, the tools or the
// store at all (main.ts imports them after that answer has left), so a cold start costs what the
// SDK costs. The SDK still parses every standard method's params; the extension methods' params
// are parsed by their routes.
import * as acp from "@agentclientprotocol/sdk";
import { HISTORY_METHOD, HISTORY_PAGES_META } from "../../base/historyPages";
import { EXACT_SESSION_IDS_META } from "../../base/sessionIds";
import { MCP_CAPABILITIES, MCP_META, MCP_RESTART_METHOD } from "../mcp/clientExt";
import { errorMessage } from "../../base/errors";
import { DEBUG_MEMORY_METHOD, debugMemoryEnabled, type MemoryReport } from "./debug";
import { DELEGATE_CAPABILITY_META, FORK_METHOD, KEEP_PROMPTS_META, STEERING_META, STEERING_METHOD } from "./wire";

export const AGENT_INFO = { name: "manifold-agent", title: "Manifold", version: "0.1.0" };

export const AGENT_CAPABILITIES: acp.AgentCapabilities = {
  loadSession: true,
  promptCapabilities: { image: true, audio: false, embeddedContext: true },
  mcpCapabilities: { ...MCP_CAPABILITIES },
  sessionCapabilities: { list: {}, resume: {}, close: {}, delete: {} },
  // session/fork is unstable in ACP; advertised here (`_meta`: it can be cut before a prompt, fork.ts).
  // `session/new` takes a client-minted exact id, resume-or-create (exactSession.ts); `session/load`
  // replays the latest turns only when asked, older ones are paged (historyPages.ts).
  _meta: {
    [FORK_METHOD]: { [KEEP_PROMPTS_META]: true },
    [EXACT_SESSION_IDS_META]: true,
    [HISTORY_PAGES_META]: true,
    ...DELEGATE_CAPABILITY_META,
  },
};

/** The `initialize` answer. Honest: without an MCP layer no transport is offered (stdio is still refused with a clear error). */
export function initializeAnswer(withMcp: boolean): acp.InitializeResponse {
  const agentCapabilities = withMcp
    ? { ...AGENT_CAPABILITIES, _meta: { ...AGENT_CAPABILITIES._meta, ...MCP_META } }
    : { ...AGENT_CAPABILITIES, mcpCapabilities: { http: false, sse: false } };
  return { protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities, agentInfo: AGENT_INFO, authMethods: [], _meta: { ...STEERING_META } };
}

type Requests = acp.AgentRequestHandlersByMethod;
/** An extension method: its route parses `params` itself. */
type RawRoute = acp.AgentRequestHandler<unknown, unknown>;

/** What the front hands every method to, once loaded. */
export interface AcpRoutes {
  /** The connection opened (once). */
  connected(conn: acp.AgentConnection): void;
  /** `initialize` was answered with these params. */
  initialized(params: acp.InitializeRequest): void;
  newSession: Requests["session/new"];
  loadSession: Requests["session/load"];
  resumeSession: Requests["session/resume"];
  listSessions: Requests["session/list"];
  closeSession: Requests["session/close"];
  deleteSession: Requests["session/delete"];
  setConfigOption: Requests["session/set_config_option"];
  setMode: Requests["session/set_mode"];
  prompt: Requests["session/prompt"];
  cancel: acp.AgentNotificationHandlersByMethod["session/cancel"];
  history: RawRoute;
  fork: RawRoute;
  steering: RawRoute;
  mcpRestart: RawRoute;
  debugMemory(ctx: acp.AgentRequestContext<unknown>): MemoryReport;
}

export interface FrontOptions {
  /** Loads the routes; called at the first method after `initialize` (or earlier, by `load`), once. */
  routes: () => Promise<AcpRoutes>;
  /** Whether this agent has an MCP layer (what `initialize` advertises). */
  mcp: boolean;
}

export interface Front {
  app: acp.AgentApp;
  /** Starts loading the routes now, if that has not started yet; idempotent. */
  load(): Promise<AcpRoutes>;
}

const passThrough = (raw: unknown): unknown => raw;

export function createFront(opts: FrontOptions): Front {
  let conn: acp.AgentConnection | undefined;
  let init: acp.InitializeRequest | undefined;
  let loaded: AcpRoutes | undefined;
  let loading: Promise<AcpRoutes> | undefined;
  // What happened before the routes existed is told to them when they arrive, later events at once.
  const load = (): Promise<AcpRoutes> =>
    (loading ??= opts.routes().then((r) => {
      if (conn) r.connected(conn);
      if (init) r.initialized(init);
      loaded = r;
      return r;
    }));
  const route =
    <K extends keyof AcpRoutes>(name: K) =>
    async (ctx: Parameters<AcpRoutes[K]>[0]): Promise<Awaited<ReturnType<AcpRoutes[K]>>> => {
      const routes = await load().catch((err: unknown) => {
        throw acp.RequestError.internalError(undefined, `the agent-server could not load its core: ${errorMessage(err)}`);
      });
      return (await (routes[name] as (c: typeof ctx) => unknown)(ctx)) as Awaited<ReturnType<AcpRoutes[K]>>;
    };
  let app = acp
    .agent({ name: AGENT_INFO.name })
    .onConnect((c) => {
      conn = c;
      loaded?.connected(c);
    })
    .onRequest(acp.methods.agent.initialize, ({ params }) => {
      init = params;
      loaded?.initialized(params);
      return initializeAnswer(opts.mcp);
    })
    .onRequest(acp.methods.agent.session.new, route("newSession"))
    .onRequest(acp.methods.agent.session.load, route("loadSession"))
    .onRequest(acp.methods.agent.session.resume, route("resumeSession"))
    .onRequest(HISTORY_METHOD, passThrough, route("history"))
    .onRequest(acp.methods.agent.session.list, route("listSessions"))
    .onRequest(acp.methods.agent.session.close, route("closeSession"))
    .onRequest(FORK_METHOD, passThrough, route("fork"))
    .onRequest(acp.methods.agent.session.delete, route("deleteSession"))
    .onRequest(acp.methods.agent.session.setConfigOption, route("setConfigOption"))
    .onRequest(acp.methods.agent.session.setMode, route("setMode"))
    .onRequest(acp.methods.agent.session.prompt, route("prompt"))
    .onRequest(STEERING_METHOD, passThrough, route("steering"))
    .onRequest(MCP_RESTART_METHOD, passThrough, route("mcpRestart"))
    .onNotification(acp.methods.agent.session.cancel, route("cancel"));
  // I-110: the memory probe exists only in a process started for it (debug.ts).
  if (debugMemoryEnabled()) app = app.onRequest(DEBUG_MEMORY_METHOD, passThrough, route("debugMemory"));
  return { app, load };
}
