// What the agent may send the client, each routed by the `sessionId` it names (router.ts): its
// `session/update`s, Manifold's MCP status notification, and the requests the client serves —
// permission, form and URL elicitation, `fs/*`, `terminal/*`. Apart from acpClient.ts (the connection, what
// the client asks of the agent, and the ordering of answers after their updates) because routing
// holds no connection state: a request reaches the services of the session it names, or fails closed.
import * as acp from "@agentclientprotocol/sdk";
import type {
  CreateElicitationRequest,
  CreateElicitationResponse,
  CreateTerminalRequest,
  CreateTerminalResponse,
  KillTerminalRequest,
  ReadTextFileRequest,
  ReadTextFileResponse,
  ReleaseTerminalRequest,
  RequestPermissionRequest,
  RequestPermissionResponse,
  TerminalOutputRequest,
  TerminalOutputResponse,
  WaitForTerminalExitRequest,
  WaitForTerminalExitResponse,
  WriteTextFileRequest,
} from "@agentclientprotocol/sdk";
import { z } from "zod";
import type { McpServerStatus } from "../common/mcpRows";
import type { SessionRouter } from "./router";
import { DELEGATE_METHOD, delegateParams, type DelegateParams } from "./delegateProtocol";

/** Manifold's extension notification: a session's MCP server states (sent by the built-in agent). */
export const MCP_STATUS_METHOD = "_manifold/mcp_status";

const mcpStatusParams = z.object({
  sessionId: z.string(),
  servers: z
    .array(
      z.object({
        name: z.string().max(200),
        state: z.enum(["starting", "ready", "failed"]),
        tools: z.number().int().min(0).optional(),
        error: z.string().max(2_000).optional(),
      }),
    )
    .max(100),
});

/** One `_manifold/mcp_status` report: the states of one session's MCP servers. */
export interface McpStatusReport {
  readonly sessionId: string;
  readonly servers: McpServerStatus[];
}

/** A session-scoped, form-mode `elicitation/create`. */
export type SessionFormElicitation = Extract<CreateElicitationRequest, { sessionId: string }> & { mode: "form" };
/** A session-scoped, URL-mode `elicitation/create`: the agent asks the user to open a page. */
export type SessionUrlElicitation = Extract<CreateElicitationRequest, { sessionId: string }> & {
  mode: "url";
  elicitationId: string;
  url: string;
};
/** The two kinds of question routed to a session. */
export type SessionElicitation = SessionFormElicitation | SessionUrlElicitation;

/** What the client serves to the agent for one session. */
export interface SessionServices {
  requestPermission(params: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse>;
  /** A question for the user (a form, or a page to open), shown in this session's panel only (I-46). */
  elicit(params: SessionElicitation, signal: AbortSignal): Promise<CreateElicitationResponse>;
  readTextFile(params: ReadTextFileRequest): Promise<ReadTextFileResponse>;
  writeTextFile(params: WriteTextFileRequest): Promise<void>;
  createTerminal(params: CreateTerminalRequest): Promise<CreateTerminalResponse>;
  terminalOutput(params: TerminalOutputRequest): Promise<TerminalOutputResponse>;
  waitForTerminalExit(params: WaitForTerminalExitRequest, signal: AbortSignal): Promise<WaitForTerminalExitResponse>;
  killTerminal(params: KillTerminalRequest): Promise<void>;
  releaseTerminal(params: ReleaseTerminalRequest): Promise<void>;
  /** `_manifold/delegate`: a task for another agent, run as part of this session (absent: refused). */
  delegate?(params: DelegateParams, signal: AbortSignal): Promise<{ stopReason: string; text: string; error?: string }>;
}

/**
 * `elicitation/create`: form and URL modes are advertised, so any other mode (or a URL request without
 * its id and URL) is invalid params. A session
 * question goes to the owner of that session id only; an unknown id is answered `cancel` and shown
 * nowhere. A request-scoped question (no session, e.g. during setup) has no panel to be asked in: it is
 * declined (I-46).
 */
export function routeElicitation(
  router: SessionRouter<SessionServices>,
  params: CreateElicitationRequest,
  signal: AbortSignal,
): Promise<CreateElicitationResponse> {
  const url = params.mode === "url" && typeof params.elicitationId === "string" && typeof params.url === "string";
  if (params.mode !== "form" && !url)
    return Promise.reject(
      acp.RequestError.invalidParams(undefined, `elicitation mode "${String(params.mode).slice(0, 40)}" is not supported`),
    );
  if (!("sessionId" in params) || typeof params.sessionId !== "string") return Promise.resolve({ action: "decline" });
  const s = router.services(params.sessionId);
  if (!s) return Promise.resolve({ action: "cancel" });
  return s.elicit(params as SessionElicitation, signal);
}

// "Method not found": to this agent the method does not exist, as `initialize` told it.
function notOffered(methods: string, setting: string): acp.RequestError {
  return new acp.RequestError(
    -32601,
    `Manifold did not offer ${methods} to this agent (${setting} is false in its manifold.agents entry), so it refuses the request`,
  );
}

/** The client app named `name`, every handler routed through `router`; MCP status reports (validated) go to `onMcpStatus`. */
export function clientHandlers(
  name: string,
  router: SessionRouter<SessionServices>,
  onMcpStatus: (report: McpStatusReport) => void,
  offer: { fs: boolean; terminal: boolean } = { fs: true, terminal: true },
): acp.ClientApp {
  const svc = (sessionId: string): SessionServices => {
    const s = router.services(sessionId);
    if (!s) throw acp.RequestError.sessionNotFound(sessionId);
    return s;
  };
  // What `initialize` did not offer is refused, not served: the agent runs elsewhere (its entry in
  // manifold.agents says so), and serving it would split one turn across two filesystems.
  const fsSvc = (sessionId: string): SessionServices => {
    if (!offer.fs) throw notOffered("fs/*", "clientFs");
    return svc(sessionId);
  };
  const termSvc = (sessionId: string): SessionServices => {
    if (!offer.terminal) throw notOffered("terminal/*", "clientTerminal");
    return svc(sessionId);
  };
  return (
    acp
      .client({ name })
      .onNotification(acp.methods.client.session.update, ({ params }) => router.dispatch(params))
      .onNotification(MCP_STATUS_METHOD, mcpStatusParams, ({ params }) => onMcpStatus(params))
      .onRequest(acp.methods.client.session.requestPermission, async ({ params, signal }) => {
        const s = router.services(params.sessionId);
        // Unknown session: fail closed.
        if (!s) return { outcome: { outcome: "cancelled" } };
        return s.requestPermission(params, signal);
      })
      .onRequest(DELEGATE_METHOD, delegateParams, ({ params, signal }) => {
        const s = svc(params.sessionId);
        if (!s.delegate) throw acp.RequestError.invalidParams(undefined, "this session cannot hand tasks to other agents");
        return s.delegate(params, signal);
      })
      .onRequest(acp.methods.client.elicitation.create, ({ params, signal }) => routeElicitation(router, params, signal))
      // A URL flow's end: the question was settled when the user chose; nothing more to show.
      .onNotification(acp.methods.client.elicitation.complete, () => {})
      .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => fsSvc(params.sessionId).readTextFile(params))
      .onRequest(acp.methods.client.fs.writeTextFile, async ({ params }) => {
        await fsSvc(params.sessionId).writeTextFile(params);
        return {};
      })
      .onRequest(acp.methods.client.terminal.create, ({ params }) => termSvc(params.sessionId).createTerminal(params))
      .onRequest(acp.methods.client.terminal.output, ({ params }) => termSvc(params.sessionId).terminalOutput(params))
      .onRequest(acp.methods.client.terminal.waitForExit, ({ params, signal }) =>
        termSvc(params.sessionId).waitForTerminalExit(params, signal),
      )
      .onRequest(acp.methods.client.terminal.kill, async ({ params }) => {
        await termSvc(params.sessionId).killTerminal(params);
        return {};
      })
      .onRequest(acp.methods.client.terminal.release, async ({ params }) => {
        await termSvc(params.sessionId).releaseTerminal(params);
        return {};
      })
  );
}
