// The ACP app: the agent-server's face on one connection (capabilities and the request/notification
// handlers, each a thin adapter onto the Bridge). "Agent" elsewhere in agent-server/ is the runtime `Agent` of one session.
import * as acp from "@agentclientprotocol/sdk";
import { MCP_CAPABILITIES, MCP_META, MCP_RESTART_METHOD, MCP_STATUS_METHOD, mcpRestartParams, type McpSessions } from "../mcp";
import type { ModelConfig } from "../model/types";
import type { AgentProfile } from "../../base/agentProfiles";
import type { LiveAgents } from "../runtime/liveAgents";
import { Bridge } from "./bridge";
import { withDebugMethods } from "./debug";
import { FORK_METHOD, forkSession, KEEP_PROMPTS_META, parseForkParams } from "./fork";
import { attachSession, deleteSession, listSessions, newSession, setConfig } from "./handlers";
import { checkPrompt } from "./prompt";
import { parseSteeringParams, steerSession, STEERING_META, STEERING_METHOD } from "./steering";
import { announceCommandsAfterNew } from "./availableCommands";
import { DELEGATE_CAPABILITY_META } from "./remoteDelegate";
import { errorMessage, logError } from "../../base/errors";
import { EXACT_SESSION_IDS_META } from "../../base/sessionIds";
import { HISTORY_METHOD, HISTORY_PAGES_META } from "../../base/historyPages";
import { historyPage, parseHistoryParams } from "./historyPages";

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

export interface AcpAppDeps {
  live: LiveAgents;
  /** The `model` config option values (may be filled in while `ready` is pending). */
  models: readonly ModelConfig[];
  /** The command sandbox backend in use, once detected. */
  sandboxBackend?: () => string | undefined;
  /** Every session's MCP servers (absent: non-empty `mcpServers` are refused). */
  mcp?: McpSessions;
  /** The configured agent profiles. */
  profiles?: readonly AgentProfile[];
  /**
   * Lifecycle requests wait for this (models and sandbox resolved); initialize does not. Calling it
   * starts that work if it has not started yet (start-up defers it until `initialize` has answered).
   */
  ready?: () => Promise<void>;
}

export function createAcpApp(deps: AcpAppDeps): { app: acp.AgentApp; bridge: Bridge } {
  const bridge = new Bridge({
    live: deps.live,
    models: deps.models,
    sandboxBackend: deps.sandboxBackend,
    ...(deps.mcp ? { mcp: deps.mcp } : {}),
    ...(deps.profiles ? { profiles: deps.profiles } : {}),
  });
  const ready = deps.ready ?? (() => Promise.resolve());
  // Registered in this order: connection and initialize, the session lifecycle, then turns.
  const connected = withConnection(acp.agent({ name: AGENT_INFO.name }), deps, bridge);
  const app = withTurns(withSessions(connected, bridge, ready), deps, bridge);
  return { app: withDebugMethods(app, deps.live, bridge), bridge };
}

/** The connection: the bridge attached to its client, MCP status forwarded, teardown on close; and `initialize`. */
function withConnection(app: acp.AgentApp, deps: AcpAppDeps, bridge: Bridge): acp.AgentApp {
  return app
    .onConnect((conn) => {
      bridge.attach(conn.client);
      if (deps.mcp)
        deps.mcp.onStatus = (sessionId, servers) =>
          void conn.client
            .notify(MCP_STATUS_METHOD, { sessionId, servers })
            .catch(logError(console.error, `[acp] mcp status for ${sessionId} not sent`));
      // Closing the connection tears this connection's sessions down (and only them, I-84).
      void conn.closed.then(() => bridge.teardown()).catch((err: unknown) => console.error(`[acp] ${errorMessage(err)}`));
    })
    .onRequest(acp.methods.agent.initialize, ({ params }) => {
      bridge.clientCapabilities = params.clientCapabilities ?? undefined;
      // Honest: without an MCP layer no transport is offered (stdio is still refused with a clear error).
      const agentCapabilities = deps.mcp
        ? { ...AGENT_CAPABILITIES, _meta: { ...AGENT_CAPABILITIES._meta, ...MCP_META } }
        : { ...AGENT_CAPABILITIES, mcpCapabilities: { http: false, sse: false } };
      return {
        protocolVersion: acp.PROTOCOL_VERSION,
        agentCapabilities,
        agentInfo: AGENT_INFO,
        authMethods: [],
        _meta: { ...STEERING_META },
      };
    });
}

/** Session lifecycle: new, load, resume, list, close, fork, delete, and the config switches. */
function withSessions(app: acp.AgentApp, bridge: Bridge, ready: () => Promise<void>): acp.AgentApp {
  return app
    .onRequest(acp.methods.agent.session.new, async ({ params }) => {
      await ready();
      const res = await newSession(bridge, params);
      announceCommandsAfterNew(bridge, res.sessionId);
      return res;
    })
    .onRequest(acp.methods.agent.session.load, async ({ params }) => {
      await ready();
      return attachSession(bridge, params, true);
    })
    .onRequest(acp.methods.agent.session.resume, async ({ params }) => {
      await ready();
      return attachSession(bridge, params, false);
    })
    .onRequest(HISTORY_METHOD, { parse: parseHistoryParams }, ({ params }) => {
      bridge.requireOpen();
      const rec = bridge.requireRecord(params.sessionId);
      return historyPage(rec.agent.session.entries, params.beforePrompt, params.events);
    })
    .onRequest(acp.methods.agent.session.list, async ({ params }) => {
      await ready();
      return listSessions(bridge, params);
    })
    .onRequest(acp.methods.agent.session.close, async ({ params }) => {
      bridge.requireOpen();
      const rec = bridge.requireRecord(params.sessionId);
      await bridge.closeSession(rec);
      return {};
    })
    .onRequest(FORK_METHOD, { parse: parseForkParams }, async ({ params }) => {
      await ready();
      return forkSession(bridge, params);
    })
    .onRequest(acp.methods.agent.session.delete, async ({ params }) => {
      await deleteSession(bridge, params.sessionId);
      return {};
    })
    .onRequest(acp.methods.agent.session.setConfigOption, ({ params }) => {
      const { configOptions } = setConfig(bridge, params.sessionId, params.configId, params.value);
      return { configOptions };
    })
    .onRequest(acp.methods.agent.session.setMode, ({ params }) => {
      setConfig(bridge, params.sessionId, "mode", params.modeId);
      return {};
    });
}

/** Turns: prompt, steering, MCP restart, cancel. */
function withTurns(app: acp.AgentApp, deps: AcpAppDeps, bridge: Bridge): acp.AgentApp {
  return app
    .onRequest(acp.methods.agent.session.prompt, async ({ params }) => {
      // Everything up to admitPrompt is synchronous: the slot is reserved before the first await (I-27).
      bridge.requireOpen();
      const rec = bridge.requireRecord(params.sessionId);
      const check = checkPrompt(params.prompt);
      if (!check.ok) throw acp.RequestError.invalidParams(undefined, check.message); // I-31
      const slot = bridge.admitPrompt(rec, params.prompt, check.title);
      const result = await slot.promise;
      if ("error" in result) throw acp.RequestError.internalError(undefined, result.error); // I-30
      return { stopReason: result.stopReason };
    })
    .onRequest(STEERING_METHOD, { parse: parseSteeringParams }, ({ params }) => steerSession(bridge, params))
    .onRequest(MCP_RESTART_METHOD, mcpRestartParams, async ({ params }) => {
      bridge.requireOpen();
      bridge.requireRecord(params.sessionId);
      if (!(await deps.mcp?.restart(params.sessionId, params.name)))
        throw acp.RequestError.invalidParams(undefined, `the session has no MCP server named ${JSON.stringify(params.name)}`);
      return {};
    })
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      bridge.cancel(params.sessionId);
    });
}
