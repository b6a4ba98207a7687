// The ACP app's routes: what each method does, a thin adapter onto the Bridge per method. front.ts
// registers the methods and answers `initialize`; these run behind it, on the one connection (the
// agent-server's core imports only the front's types: its code is the front file's alone).
// "Agent" elsewhere in agent-server/ is the runtime `Agent` of one session.
import * as acp from "@agentclientprotocol/sdk";
import { MCP_STATUS_METHOD, mcpRestartParams, type McpSessions } from "../mcp";
import type { ModelConfig } from "../model/types";
import type { AgentProfile } from "../../base/agentProfiles";
import type { LiveAgents } from "../runtime/liveAgents";
import { Bridge } from "./bridge";
import { memoryReport } from "./debug";
import { forkSession, parseForkParams } from "./fork";
import type { AcpRoutes } from "./front";
import { attachSession, deleteSession, listSessions, newSession, setConfig } from "./handlers";
import { checkPrompt } from "./prompt";
import { parseSteeringParams, steerSession } from "./steering";
import { announceCommandsAfterNew } from "./availableCommands";
import { errorMessage, logError } from "../../base/errors";
import { historyPage, parseHistoryParams } from "./historyPages";

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

/** The routes and the bridge they share; main.ts puts them behind the front once loaded. */
export function createAcpRoutes(deps: AcpAppDeps): { routes: AcpRoutes; bridge: Bridge } {
  const bridge = new Bridge({
    live: deps.live,
    models: deps.models,
    sandboxBackend: deps.sandboxBackend,
    ...(deps.mcp ? { mcp: deps.mcp } : {}),
    ...(deps.profiles ? { profiles: deps.profiles } : {}),
  });
  const ready = deps.ready ?? (() => Promise.resolve());
  const routes: AcpRoutes = {
    ...connectionRoutes(deps, bridge),
    ...sessionRoutes(bridge, ready),
    ...turnRoutes(deps, bridge),
    debugMemory: () => memoryReport(deps.live, bridge),
  };
  return { routes, bridge };
}

/** The connection: the bridge attached to its client, MCP status forwarded, teardown on close; the client's capabilities. */
function connectionRoutes(deps: AcpAppDeps, bridge: Bridge): Pick<AcpRoutes, "connected" | "initialized"> {
  return {
    connected(conn) {
      bridge.attach(conn.client);
      if (deps.mcp)
        deps.mcp.onStatus = (sessionId, servers) =>
          void conn.client
            .notify(MCP_STATUS_METHOD, { sessionId, servers })
            .catch(logError(console.error, `[acp] mcp status for ${sessionId} not sent`));
      // Closing the connection tears this connection's sessions down (and only them, I-84).
      void conn.closed.then(() => bridge.teardown()).catch((err: unknown) => console.error(`[acp] ${errorMessage(err)}`));
    },
    initialized(params) {
      bridge.clientCapabilities = params.clientCapabilities ?? undefined;
    },
  };
}

type SessionRoute =
  | "newSession"
  | "loadSession"
  | "resumeSession"
  | "history"
  | "listSessions"
  | "closeSession"
  | "fork"
  | "deleteSession"
  | "setConfigOption"
  | "setMode";

/** Session lifecycle: new, load, resume, list, close, fork, delete, and the config switches. */
function sessionRoutes(bridge: Bridge, ready: () => Promise<void>): Pick<AcpRoutes, SessionRoute> {
  return {
    async newSession({ params }) {
      await ready();
      const res = await newSession(bridge, params);
      announceCommandsAfterNew(bridge, res.sessionId);
      return res;
    },
    async loadSession({ params }) {
      await ready();
      return attachSession(bridge, params, true);
    },
    async resumeSession({ params }) {
      await ready();
      return attachSession(bridge, params, false);
    },
    history({ params: raw }) {
      const params = parseHistoryParams(raw);
      bridge.requireOpen();
      const rec = bridge.requireRecord(params.sessionId);
      return historyPage(rec.agent.session.entries, params.beforePrompt, params.events);
    },
    async listSessions({ params }) {
      await ready();
      return listSessions(bridge, params);
    },
    async closeSession({ params }) {
      bridge.requireOpen();
      const rec = bridge.requireRecord(params.sessionId);
      await bridge.closeSession(rec);
      return {};
    },
    async fork({ params: raw }) {
      const params = parseForkParams(raw);
      await ready();
      return forkSession(bridge, params);
    },
    async deleteSession({ params }) {
      await deleteSession(bridge, params.sessionId);
      return {};
    },
    setConfigOption({ params }) {
      const { configOptions } = setConfig(bridge, params.sessionId, params.configId, params.value);
      return { configOptions };
    },
    setMode({ params }) {
      setConfig(bridge, params.sessionId, "mode", params.modeId);
      return {};
    },
  };
}

/** Turns: prompt, steering, MCP restart, cancel. */
function turnRoutes(deps: AcpAppDeps, bridge: Bridge): Pick<AcpRoutes, "prompt" | "steering" | "mcpRestart" | "cancel"> {
  return {
    async prompt({ params }) {
      // Everything up to admitPrompt is synchronous: the slot is reserved before the first await (I-27).
      bridge.requireOpen();
      const rec = bridge.requireRecord(params.sessionId);
      const check = checkPrompt(params.prompt);
      if (!check.ok) throw acp.RequestError.invalidParams(undefined, check.message); // I-31
      const slot = bridge.admitPrompt(rec, params.prompt, check.title);
      const result = await slot.promise;
      if ("error" in result) throw acp.RequestError.internalError(undefined, result.error); // I-30
      return { stopReason: result.stopReason };
    },
    steering: ({ params }) => steerSession(bridge, parseSteeringParams(params)),
    async mcpRestart({ params: raw }) {
      const params = mcpRestartParams.parse(raw); // a ZodError is invalid params, as the SDK's own parsing makes it
      bridge.requireOpen();
      bridge.requireRecord(params.sessionId);
      if (!(await deps.mcp?.restart(params.sessionId, params.name)))
        throw acp.RequestError.invalidParams(undefined, `the session has no MCP server named ${JSON.stringify(params.name)}`);
      return {};
    },
    cancel({ params }) {
      bridge.cancel(params.sessionId);
    },
  };
}
