// An in-process ACP agent built with the SDK, for client-side unit tests. Each test scripts what a
// prompt does through `onPrompt`; the agent records what the client answered.
import * as acp from "@agentclientprotocol/sdk";
import type { AgentCapabilities, AgentContext, PromptRequest, RequestPermissionResponse, StopReason } from "@agentclientprotocol/sdk";

export interface PromptScript {
  (ctx: { params: PromptRequest; client: AgentContext; cancelled: AbortSignal }): Promise<StopReason>;
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
  newSessions: { cwd: string; additionalDirectories?: string[] | null }[];
  calls: string[];
  onPrompt: PromptScript;
  /** Every `_session/steering` request, in order (only answered when created with `steering`). */
  steers: SteerRequest[];
  /** How a steer is answered; the default injects it into a running turn of that session. */
  onSteer(req: SteerRequest, client: AgentContext): Promise<SteerAnswer>;
  /** What `session/load` does before it answers (replay history: `session/update`s of that session). */
  onLoad(params: acp.LoadSessionRequest, client: AgentContext): Promise<void>;
  /** The agent-side context (to send unsolicited updates). */
  client(): AgentContext;
}

export function createFakeAgent(caps: AgentCapabilities = {}, opts: { steering?: boolean } = {}): FakeAgent {
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
    app: acp
      .agent({ name: "fake-agent" })
      .onConnect((conn) => {
        ctx = conn.client;
      })
      .onRequest(acp.methods.agent.initialize, () => ({
        protocolVersion: acp.PROTOCOL_VERSION,
        agentCapabilities: caps,
        agentInfo: { name: "fake-agent", version: "0.0.0" },
        ...(opts.steering ? { _meta: { steering: { supported: true } } } : {}),
      }))
      .onRequest("_session/steering", { parse: (p: unknown) => p as SteerRequest }, ({ params, client }) => {
        if (!opts.steering) throw acp.RequestError.methodNotFound("_session/steering");
        fake.steers.push(params);
        return fake.onSteer(params, client);
      })
      .onRequest(acp.methods.agent.session.new, ({ params }) => {
        fake.calls.push("session/new");
        fake.newSessions.push({
          cwd: params.cwd,
          ...(params.additionalDirectories !== undefined ? { additionalDirectories: params.additionalDirectories } : {}),
        });
        return { sessionId: `s${++seq}` };
      })
      .onRequest(acp.methods.agent.session.load, async ({ params, client }) => {
        fake.calls.push("session/load");
        await fake.onLoad(params, client);
      })
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
      .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
        const ac = new AbortController();
        aborts.set(params.sessionId, ac);
        try {
          return { stopReason: await fake.onPrompt({ params, client, cancelled: ac.signal }) };
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
