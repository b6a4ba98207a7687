// An in-process ACP agent built with the SDK, for client-side unit tests. Each test scripts what a
// prompt does through `onPrompt`; the agent records what the client answered.
import * as acp from "@agentclientprotocol/sdk";
import type { AgentCapabilities, AgentContext, PromptRequest, RequestPermissionResponse, StopReason } from "@agentclientprotocol/sdk";

export interface PromptScript {
  (ctx: { params: PromptRequest; client: AgentContext; cancelled: AbortSignal }): Promise<StopReason>;
}

export interface FakeAgent {
  app: acp.AgentApp;
  /** Every permission answer the agent received, in order, with its session. */
  permissionAnswers: { sessionId: string; response: RequestPermissionResponse }[];
  newSessions: { cwd: string; additionalDirectories?: string[] | null }[];
  calls: string[];
  onPrompt: PromptScript;
  /** The agent-side context (to send unsolicited updates). */
  client(): AgentContext;
}

export function createFakeAgent(caps: AgentCapabilities = {}): FakeAgent {
  let seq = 0;
  const aborts = new Map<string, AbortController>();
  let ctx: AgentContext | undefined;
  const fake: FakeAgent = {
    permissionAnswers: [],
    newSessions: [],
    calls: [],
    onPrompt: async () => "end_turn",
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
      }))
      .onRequest(acp.methods.agent.session.new, ({ params }) => {
        fake.calls.push("session/new");
        fake.newSessions.push({
          cwd: params.cwd,
          ...(params.additionalDirectories !== undefined ? { additionalDirectories: params.additionalDirectories } : {}),
        });
        return { sessionId: `s${++seq}` };
      })
      .onRequest(acp.methods.agent.session.load, () => {
        fake.calls.push("session/load");
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
