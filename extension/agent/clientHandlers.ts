// What the agent may send the client, each routed by the `sessionId` it names (router.ts): its
// `session/update`s (checked by the one schema their kind names: the end of this module), Manifold's MCP status notification, and the requests the client serves —
// permission, form and URL elicitation, `fs/*`, `terminal/*`. Apart from acpClient.ts (the connection, what
// the client asks of the agent, and the ordering of answers after their updates) because routing
// holds no connection state: a request reaches the services of the session it names, or fails closed.
import * as acp from "@agentclientprotocol/sdk";
import type {
  SessionNotification,
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
// The SDK's generated schemas (zod.gen.js), which its package does not export by name: the module
// the SDK validates with, so the check below cannot drift from its own.
import { zSessionNotification, zSessionUpdate } from "../../node_modules/@agentclientprotocol/sdk/dist/v1/schema/zod.gen.js";

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
      .onNotification(acp.methods.client.session.update, parseSessionNotification, ({ params }) => router.dispatch(params))
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

// `session/update` checked the cheap way, with the SDK's own schemas. The SDK checks every update
// against its union of the fourteen update kinds (the branches tried in order, issue objects built
// for each branch that does not match) and does that twice, in its own session router and for the
// handler's params: over a `session/load` replaying thousands of updates that was most of the host's
// work. Here the update's `sessionUpdate` names the one branch of that union that can match (each
// branch fixes it to a different literal), and that branch alone checks it: the union's answer for
// a valid update, and a failure for an invalid one, at a fraction of the cost. A kind this SDK does
// not know goes through the whole union, as before. `takeUpdates` takes these notifications off a
// stream connection before the SDK reads it, in arrival order (an answer is read after the updates
// sent before it), and hands each checked one to the router; an invalid one is dropped and
// reported, as the SDK drops it.

type Branch = (typeof zSessionUpdate.options)[number];

/** Each branch of the SDK's union by the `sessionUpdate` literal it requires. */
const branches: ReadonlyMap<string, Branch> = new Map(
  zSessionUpdate.options.map((b): [string, Branch] => [String(b.def.right.shape.sessionUpdate.value), b]),
);

/** The notification's other fields, as the SDK's schema has them. */
const envelope = z.object({ sessionId: zSessionNotification.shape.sessionId, _meta: zSessionNotification.shape._meta });

/** The update kinds the check knows a branch for (the tests compare them with the SDK's union). */
export function knownUpdateKinds(): string[] {
  return [...branches.keys()];
}

/** `params` of a `session/update`, checked as the SDK checks it; throws (a ZodError) when invalid. */
export function parseSessionNotification(params: unknown): SessionNotification {
  const update = typeof params === "object" && params !== null ? (params as { update?: unknown }).update : undefined;
  const kind = typeof update === "object" && update !== null ? (update as { sessionUpdate?: unknown }).sessionUpdate : undefined;
  const branch = typeof kind === "string" ? branches.get(kind) : undefined;
  if (!branch) return zSessionNotification.parse(params) as SessionNotification;
  const head = envelope.parse(params);
  return { ...head, update: branch.parse(update) } as SessionNotification;
}

function isUpdateNotification(msg: unknown): msg is { method: string; params?: unknown } {
  return (
    typeof msg === "object" && msg !== null && (msg as { method?: unknown }).method === acp.methods.client.session.update && !("id" in msg)
  );
}

/**
 * `stream` with its `session/update` notifications taken out: each is checked and handed to `dispatch`
 * as it is read, before any later message reaches the SDK. An invalid one goes to `onInvalid`.
 */
export function takeUpdates(
  stream: acp.Stream,
  dispatch: (n: SessionNotification) => unknown,
  onInvalid: (sessionId: string, err: unknown) => void,
): acp.Stream {
  const taken = new TransformStream<acp.AnyMessage, acp.AnyMessage>({
    transform(msg, ctrl) {
      if (!isUpdateNotification(msg)) {
        ctrl.enqueue(msg);
        return;
      }
      let n: SessionNotification;
      try {
        n = parseSessionNotification(msg.params);
      } catch {
        const id = (msg.params as { sessionId?: unknown } | undefined)?.sessionId;
        // Like the SDK, the update's content is not logged: it may carry what the agent read.
        onInvalid(typeof id === "string" ? id.slice(0, 200) : "(no session id)", new Error("an invalid session/update was dropped"));
        return;
      }
      void dispatch(n);
    },
  });
  return { readable: stream.readable.pipeThrough(taken), writable: stream.writable };
}
