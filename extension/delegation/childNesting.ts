// What a delegated child agent sends, turned into what its parent session shows and serves. The
// child's own wire session id never leaves the child's connection (I-14): everything it names is
// re-addressed to the parent session, its tool call ids are namespaced by the delegation's
// parent-minted id, and each forwarded update carries the parent's delegate card in
// `_meta["manifold.dev/parentToolCallId"]`, so the parent's transcript nests it under that card.
// Only the parts of a turn are forwarded (text, thoughts, tool calls, plan); what would change the
// parent session itself (its mode, config, commands, title, usage) is the child's alone. Pure.
import type {
  CreateTerminalRequest,
  KillTerminalRequest,
  ReadTextFileRequest,
  ReleaseTerminalRequest,
  RequestPermissionRequest,
  SessionUpdate,
  TerminalOutputRequest,
  WaitForTerminalExitRequest,
  WriteTextFileRequest,
} from "@agentclientprotocol/sdk";
import { DELEGATE_PARENT_META } from "../common/adapterConventions";

/** Where a forwarded update names the delegate card (the transcript nests it there: common/adapterConventions.ts). */
export const PARENT_TOOL_CALL_META = DELEGATE_PARENT_META;

/** Where a delegation sits in its parent session. */
export interface NestTarget {
  /** The parent session's id. */
  sessionId: string;
  /** The parent's delegate card. */
  toolCallId: string;
  /** The parent-minted lifecycle id `<parent>-sub-<uuid>`. */
  delegateId: string;
}

const FORWARDED = new Set<SessionUpdate["sessionUpdate"]>([
  "agent_message_chunk",
  "agent_thought_chunk",
  "tool_call",
  "tool_call_update",
  "plan",
]);

/** The child's tool call id as the parent session knows it. */
export function nestedToolCallId(t: NestTarget, childToolCallId: string): string {
  return `${t.delegateId}/${childToolCallId}`;
}

function withParent<M extends { _meta?: { [k: string]: unknown } | null }>(t: NestTarget, m: M): M {
  return { ...m, _meta: { ...(m._meta ?? {}), [PARENT_TOOL_CALL_META]: t.toolCallId } };
}

/** The child's update as the parent shows it, or undefined when it is the child's own business. */
export function nestUpdate(t: NestTarget, u: SessionUpdate): SessionUpdate | undefined {
  if (!FORWARDED.has(u.sessionUpdate)) return undefined;
  if (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update")
    return withParent(t, { ...u, toolCallId: nestedToolCallId(t, u.toolCallId) });
  return withParent(t, u);
}

/** The child's permission request, asked in the parent's session under the child's nested card. */
export function nestPermission(t: NestTarget, p: RequestPermissionRequest): RequestPermissionRequest {
  return {
    ...p,
    sessionId: t.sessionId,
    toolCall: withParent(t, { ...p.toolCall, toolCallId: nestedToolCallId(t, p.toolCall.toolCallId) }),
  };
}

type SessionScoped =
  | ReadTextFileRequest
  | WriteTextFileRequest
  | CreateTerminalRequest
  | TerminalOutputRequest
  | WaitForTerminalExitRequest
  | KillTerminalRequest
  | ReleaseTerminalRequest;

/** An `fs/*` or `terminal/*` request of the child, served as the parent session's (confined to its folder). */
export function asParent<R extends SessionScoped>(t: NestTarget, r: R): R {
  return { ...r, sessionId: t.sessionId };
}
