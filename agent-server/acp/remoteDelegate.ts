// Delegation to another ACP agent, run by the client (Manifold's extension spawns it in the parent's
// folder, inside its fence, and serves it as the parent's session). The client offers the agents the
// user allowed in `_meta["manifold.dev/delegateAgents"]` on session/new, load and resume; the agent
// advertises `_meta["manifold.dev/delegate"]` at initialize. A delegation is the agent → client
// request `_manifold/delegate {sessionId, delegateId, toolCallId, agent, task}` answered with
// `{stopReason, text, error?}`. The lifecycle id `<parent>-sub-<uuid>` is minted here; whatever id
// the child's own server uses stays on the client's side, and nothing in the answer names a session
// (an extra field is ignored, I-14). Cancelling the parent's turn, closing or deleting it sends
// `$/cancel_request`, on which the client ends the child's process tree. Pure apart from the request.
import { randomUUID } from "node:crypto";
import { RequestError, type AgentContext } from "@agentclientprotocol/sdk";
import * as z from "zod/v4";
import type { DelegateTarget, SubagentOutcome } from "../runtime/capabilities";
import type { SessionRecord } from "./record";
import { notOffered } from "../tools/delegate";
import { errorMessage } from "../../base/errors";

import { DELEGATE_AGENTS_META, DELEGATE_METHOD } from "./wire";

export { DELEGATE_AGENTS_META, DELEGATE_METHOD, DELEGATE_CAPABILITY_META } from "./wire";
export const MAX_DELEGATE_AGENTS = 32;

const Target = z.object({
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:@/+-]{0,127}$/, "an agent id is 1–128 characters of letters, digits and ._:@/+-"),
  name: z.string().trim().min(1).max(80),
  description: z.string().max(300).optional(),
});
const Targets = z
  .array(Target)
  .max(MAX_DELEGATE_AGENTS)
  .refine((ts) => new Set(ts.map((t) => t.id)).size === ts.length, "agent ids must be unique");

/** The agents a request offers for delegation ([] when it offers none). Throws invalid params. */
export function delegateAgentsOf(params: { _meta?: Record<string, unknown> | null }): DelegateTarget[] {
  const raw = params._meta?.[DELEGATE_AGENTS_META];
  if (raw === undefined || raw === null) return [];
  const r = Targets.safeParse(raw);
  if (!r.success)
    throw RequestError.invalidParams(
      undefined,
      `${DELEGATE_AGENTS_META} must be at most ${MAX_DELEGATE_AGENTS} agents {id, name, description?}: ${r.error.issues[0]?.message ?? "bad shape"}`,
    );
  return r.data.map((t) => (t.description ? { id: t.id, name: t.name, description: t.description } : { id: t.id, name: t.name }));
}

const DelegateAnswer = z.object({
  stopReason: z.string().min(1).max(64),
  text: z.string().max(1_000_000),
  error: z.string().max(4000).optional(),
});

export interface RemoteCall {
  toolCallId: string;
  agentId: string;
  task: string;
  signal: AbortSignal;
}

/** One delegation: checked against what the client offered, sent under a parent-minted id, its answer checked. */
export async function runRemoteDelegate(client: AgentContext, rec: SessionRecord, call: RemoteCall): Promise<SubagentOutcome> {
  const target = rec.delegateAgents.find((t) => t.id === call.agentId);
  if (!target) return { kind: "refused", why: notOffered(call.agentId, rec.delegateAgents) };
  if (call.signal.aborted) return { kind: "ended", reason: "cancelled", text: "" };
  const delegateId = `${rec.sessionId}-sub-${randomUUID()}`;
  await rec.lastSend; // the delegate card is on the wire before the client starts anything under it
  let res: unknown;
  try {
    res = await client.request(
      DELEGATE_METHOD,
      { sessionId: rec.sessionId, delegateId, toolCallId: call.toolCallId, agent: target.id, task: call.task },
      { cancellationSignal: call.signal },
    );
  } catch (err) {
    if (call.signal.aborted) return { kind: "ended", reason: "cancelled", text: "" };
    return { kind: "ended", reason: "error", error: `${target.name}: ${errorMessage(err)}`, text: "" };
  }
  if (call.signal.aborted) return { kind: "ended", reason: "cancelled", text: "" };
  const parsed = DelegateAnswer.safeParse(res);
  if (!parsed.success)
    return { kind: "ended", reason: "error", error: `${target.name} answered in a shape Manifold does not know`, text: "" };
  const { stopReason, text, error } = parsed.data;
  return error !== undefined ? { kind: "ended", reason: stopReason, error, text } : { kind: "ended", reason: stopReason, text };
}
