// An in-process ACP agent built with the SDK, for client-side unit tests. Each test scripts what a
// prompt does through `onPrompt`; the agent records what the client answered.
import * as acp from "@agentclientprotocol/sdk";
import type { AgentCapabilities, AgentContext, PromptRequest, RequestPermissionResponse, StopReason } from "@agentclientprotocol/sdk";

export interface PromptScript {
  /** `cancelled`: the session's `session/cancel`; `request`: the client gave this prompt up (`$/cancel_request`). */
  (ctx: { params: PromptRequest; client: AgentContext; cancelled: AbortSignal; request: AbortSignal }): Promise<StopReason>;
}

/** A `_session/steering` request as the fake agent received it. */
export interface SteerRequest {
  sessionId: string;
  prompt: acp.ContentBlock[];
  _meta?: Record<string, unknown>;
}
export type SteerAnswer = { outcome: "injected"; _meta?: Record<string, unknown> } | { outcome: "promptRequired"; reason: "noRunningTurn" };

export interface FakeAgent {
  app: acp.AgentApp;
  /** Every permission answer the agent received, in order, with its session. */
  permissionAnswers: { sessionId: string; response: RequestPermissionResponse }[];
  newSessions: { cwd: string; additionalDirectories?: string[] | null; meta?: Record<string, unknown> }[];
  calls: string[];
  onPrompt: PromptScript;
  /** Every `_session/steering` request, in order (only answered when created with `steering`). */
  steers: SteerRequest[];
  /** How a steer is answered; the default injects it into a running turn of that session. */
  onSteer(req: SteerRequest, client: AgentContext): Promise<SteerAnswer>;
  /** What `session/load` does before it answers (replay history: `session/update`s of that session); what it returns is the answer's `_meta`. */
  onLoad(params: acp.LoadSessionRequest, client: AgentContext, signal: AbortSignal): Promise<void | Record<string, unknown>>;
  /** How `_manifold/session/history` is answered (refused when unset). */
  onHistory?: (params: { sessionId: string; beforePrompt: number; events: number }) => Promise<unknown>;
  /** The requests the client gave up on (`$/cancel_request` aborted their handler's signal), by method. */
  requestCancels: string[];
  /** The agent-side context (to send unsolicited updates). */
  client(): AgentContext;
  /** With `auth`: whether sessions are served (else new, load and resume answer `auth_required`). */
  signedIn: boolean;
  /** What the client advertised in `initialize`. */
  clientCapabilities?: acp.ClientCapabilities;
  /** The config options `session/new` answers with; `session/set_config_option` updates them. */
  configOptions: acp.SessionConfigOption[];
  /** Every `session/set_config_option` request, in order. */
  configSets: acp.SetSessionConfigOptionRequest[];
  /** The modes `session/new` answers with, when set. */
  modes?: acp.SessionModeState;
}

/** Sign-in of the fake: the `authMethods` it advertises; an `agent` method's `authenticate` signs it in. */
export interface FakeAuth {
  methods: unknown[];
  signedIn?: boolean;
  logout?: boolean;
}

export function createFakeAgent(caps: AgentCapabilities = {}, opts: { steering?: boolean; auth?: FakeAuth } = {}): FakeAgent {
  let seq = 0;
  const aborts = new Map<string, AbortController>();
  let ctx: AgentContext | undefined;
  const fake: FakeAgent = {
    permissionAnswers: [],
    newSessions: [],
    calls: [],
    onPrompt: async () => "end_turn",
    steers: [],
    onLoad: async () => {},
    requestCancels: [],
    // Like the built-in agent: injected into a running turn of that session and shown where it landed.
    onSteer: async (req, client) => {
      if (!aborts.has(req.sessionId)) return { outcome: "promptRequired", reason: "noRunningTurn" };
      const messageId = `steer-${fake.steers.length}`;
      for (const content of req.prompt)
        await client.notify(acp.methods.client.session.update, {
          sessionId: req.sessionId,
          update: { sessionUpdate: "user_message_chunk", content, messageId, _meta: { "manifold/steer": { messageId, applied: true } } },
        });
      return { outcome: "injected", _meta: { "manifold/steer": { messageId } } };
    },
    client: () => {
      if (!ctx) throw new Error("not connected");
      return ctx;
    },
    signedIn: opts.auth ? opts.auth.signedIn === true : true,
    configOptions: [],
    configSets: [],
    app: acp
      .agent({ name: "fake-agent" })
      .onConnect((conn) => {
        ctx = conn.client;
      })
      .onRequest(acp.methods.agent.initialize, ({ params }) => {
        fake.clientCapabilities = params.clientCapabilities;
        return {
          protocolVersion: acp.PROTOCOL_VERSION,
          agentCapabilities: opts.auth?.logout ? { ...caps, auth: { logout: {} } } : caps,
          ...(opts.auth ? { authMethods: opts.auth.methods as acp.AuthMethod[] } : {}),
          agentInfo: { name: "fake-agent", version: "0.0.0" },
          ...(opts.steering ? { _meta: { steering: { supported: true } } } : {}),
        };
      })
      .onRequest("_session/steering", { parse: (p: unknown) => p as SteerRequest }, ({ params, client }) => {
        if (!opts.steering) throw acp.RequestError.methodNotFound("_session/steering");
        fake.steers.push(params);
        return fake.onSteer(params, client);
      })
      .onRequest(acp.methods.agent.authenticate, ({ params }) => {
        fake.calls.push(`authenticate ${params.methodId}`);
        const m = opts.auth?.methods.find((x) => (x as { id?: unknown }).id === params.methodId) as { type?: string } | undefined;
        if (!m || (m.type !== undefined && m.type !== "agent")) throw acp.RequestError.invalidParams(undefined, "not an agent method");
        fake.signedIn = true;
      })
      .onRequest(acp.methods.agent.logout, () => {
        fake.calls.push("logout");
        fake.signedIn = false;
      })
      .onRequest(acp.methods.agent.session.new, ({ params }) => {
        fake.calls.push("session/new");
        if (!fake.signedIn) throw acp.RequestError.authRequired();
        fake.newSessions.push({
          cwd: params.cwd,
          ...(params.additionalDirectories !== undefined ? { additionalDirectories: params.additionalDirectories } : {}),
          ...(params._meta ? { meta: params._meta } : {}),
        });
        return {
          sessionId: `s${++seq}`,
          ...(fake.configOptions.length > 0 ? { configOptions: fake.configOptions } : {}),
          ...(fake.modes ? { modes: fake.modes } : {}),
        };
      })
      .onRequest(acp.methods.agent.session.setConfigOption, ({ params }) => {
        fake.configSets.push(params);
        fake.configOptions = fake.configOptions.map((o) =>
          o.id !== params.configId
            ? o
            : o.type === "boolean" && typeof params.value === "boolean"
              ? { ...o, currentValue: params.value }
              : o,
        );
        return { configOptions: fake.configOptions };
      })
      .onRequest(acp.methods.agent.session.load, async ({ params, client, signal }) => {
        fake.calls.push("session/load");
        signal.addEventListener("abort", () => fake.requestCancels.push("session/load"), { once: true });
        if (!fake.signedIn) throw acp.RequestError.authRequired();
        const meta = await fake.onLoad(params, client, signal);
        return meta ? { _meta: meta } : {};
      })
      .onRequest(
        "_manifold/session/history",
        { parse: (p: unknown) => p as { sessionId: string; beforePrompt: number; events: number } },
        ({ params }) => {
          fake.calls.push("_manifold/session/history");
          if (!fake.onHistory) throw acp.RequestError.methodNotFound("_manifold/session/history");
          return fake.onHistory(params);
        },
      )
      .onRequest(acp.methods.agent.session.resume, () => {
        fake.calls.push("session/resume");
        return {};
      })
      // Manifold's fork before a prompt (agent-server/acp/fork.ts), answered only when advertised.
      .onRequest("session/fork", { parse: (p: unknown) => p as { sessionId: string; _meta?: Record<string, unknown> } }, ({ params }) => {
        fake.calls.push(`session/fork ${params.sessionId} keep=${String(params._meta?.["manifold.dev/keepPrompts"])}`);
        return { sessionId: `s${++seq}` };
      })
      .onRequest(acp.methods.agent.session.close, () => {
        fake.calls.push("session/close");
      })
      .onRequest(acp.methods.agent.session.prompt, async ({ params, client, signal }) => {
        signal.addEventListener("abort", () => fake.requestCancels.push("session/prompt"), { once: true });
        const ac = new AbortController();
        aborts.set(params.sessionId, ac);
        try {
          return { stopReason: await fake.onPrompt({ params, client, cancelled: ac.signal, request: signal }) };
        } finally {
          aborts.delete(params.sessionId);
        }
      })
      .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
        fake.calls.push(`session/cancel ${params.sessionId}`);
        aborts.get(params.sessionId)?.abort();
      }),
  };
  return fake;
}

/** Asks for permission and records the answer. */
export async function askPermission(
  fake: FakeAgent,
  client: AgentContext,
  sessionId: string,
  toolCallId: string,
): Promise<RequestPermissionResponse> {
  const response = await client.request(acp.methods.client.session.requestPermission, {
    sessionId,
    toolCall: { toolCallId, title: `run ${toolCallId}` },
    options: [
      { optionId: "allow", name: "Allow once", kind: "allow_once" },
      { optionId: "always", name: "Allow for this session", kind: "allow_always" },
      { optionId: "reject", name: "Reject", kind: "reject_once" },
    ],
  });
  fake.permissionAnswers.push({ sessionId, response });
  return response;
}
