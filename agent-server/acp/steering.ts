// Steering: user content sent into a session's running turn. The wire is the extension method that
// ACP agents already interoperate on (claude-agent-acp ≥ 0.66, codex-acp ≥ 1.2):
//
//   initialize → _meta: {"steering": {"supported": true}}            (top level, beside agentCapabilities)
//   _session/steering {sessionId, prompt: ContentBlock[], _meta?: {steering?: {idleBehavior?: "promptRequired"}}}
//     → {outcome: "injected", _meta: {"manifold/steer": {messageId}}}
//     | {outcome: "promptRequired", reason: "noRunningTurn"}
//
// "injected": the running turn accepted it; a model step takes it in next (`Agent.steer` has the
// rule). "promptRequired": no turn will take it, and the client sends it as the next `session/prompt`
// itself (I-104). This agent answers promptRequired whatever `idleBehavior` says: starting a turn
// that no `session/prompt` awaits would leave its end unreported. The standards-track successor
// (`session/inject`, ACP v2 RFD) replaces this module only.
import { randomUUID } from "node:crypto";
import { RequestError } from "@agentclientprotocol/sdk";
import * as z from "zod/v4";
import { ContentBlockSchema } from "../session/acpContent";
import type { Bridge } from "./bridge";
import { checkPrompt } from "./prompt";
import { STEER_META } from "./updates";

import { STEERING_METHOD } from "./wire";

export { STEERING_METHOD, STEERING_META } from "./wire";

const SteeringParams = z.object({
  sessionId: z.string().min(1).max(500),
  prompt: z.array(ContentBlockSchema),
  _meta: z.record(z.string(), z.unknown()).nullish(),
});
export type SteeringParams = z.infer<typeof SteeringParams>;

export type SteeringResponse =
  { outcome: "injected"; _meta: { [STEER_META]: { messageId: string } } } | { outcome: "promptRequired"; reason: "noRunningTurn" };

export function parseSteeringParams(raw: unknown): SteeringParams {
  const r = SteeringParams.safeParse(raw);
  if (!r.success)
    throw RequestError.invalidParams(undefined, `invalid ${STEERING_METHOD} params: ${r.error.issues[0]?.message ?? "bad shape"}`);
  return r.data;
}

/** Synchronous from the checks to the agent's answer, so a steer and the turn's end cannot interleave. */
export function steerSession(bridge: Bridge, params: SteeringParams): SteeringResponse {
  bridge.requireOpen();
  const rec = bridge.requireRecord(params.sessionId);
  const check = checkPrompt(params.prompt); // the same admission as a prompt (I-31)
  if (!check.ok) throw RequestError.invalidParams(undefined, check.message);
  const messageId = randomUUID();
  if (!rec.agent.steer({ messageId, content: params.prompt })) return { outcome: "promptRequired", reason: "noRunningTurn" };
  return { outcome: "injected", _meta: { [STEER_META]: { messageId } } };
}
