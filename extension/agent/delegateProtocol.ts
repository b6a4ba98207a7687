// Manifold's delegation extension as the extension speaks it (the agent's side:
// agent-server/acp/remoteDelegate.ts). An agent that advertises `_meta["manifold.dev/delegate"]` in
// `agentCapabilities` is offered the agents the user allowed (`manifold.delegation.agents`) in each
// session's `_meta["manifold.dev/delegateAgents"]`, and asks with the request `_manifold/delegate`;
// the client runs the task in that agent (extension/delegation/childRun.ts) and answers `{stopReason, text, error?}`. Pure.
import { z } from "zod";

export const DELEGATE_METHOD = "_manifold/delegate";
export const DELEGATE_CAPABILITY = "manifold.dev/delegate";
export const DELEGATE_AGENTS_META = "manifold.dev/delegateAgents";

/** An agent the user allows the model to hand tasks to: the `manifold.agent` value that starts it, and its name. */
export interface DelegateTarget {
  id: string;
  name: string;
  description?: string;
}

export const delegateParams = z.object({
  sessionId: z.string().min(1).max(256),
  delegateId: z.string().min(1).max(400),
  toolCallId: z.string().min(1).max(256),
  agent: z.string().min(1).max(128),
  task: z.string().min(1).max(200_000),
});
export type DelegateParams = z.infer<typeof delegateParams>;

/** Whether the agent's `initialize` advertised delegation. */
export function advertisesDelegation(capsMeta: unknown): boolean {
  return (
    typeof capsMeta === "object" && capsMeta !== null && typeof (capsMeta as Record<string, unknown>)[DELEGATE_CAPABILITY] === "object"
  );
}

/** The `_meta` entry offering `targets` to a session (none: nothing to add). */
export function delegateOffer(targets: readonly DelegateTarget[]): Record<string, unknown> {
  return targets.length > 0 ? { [DELEGATE_AGENTS_META]: targets.map((t) => ({ ...t })) } : {};
}
