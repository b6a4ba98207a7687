// Permission routing: a tool's ask becomes `session/request_permission` to the owning session only,
// naming an announced tool call. Anything but a recognized allow is a refusal (I-41..45).
import { methods, type AgentContext, type PermissionOption, type RequestPermissionResponse } from "@agentclientprotocol/sdk";
import * as z from "zod/v4";
import type { PermissionAnswer } from "../policy/types";
import type { PermissionAsk } from "../runtime/capabilities";
import type { SessionRecord } from "./record";

export const OPTION_ALLOW_ONCE = "allow_once";
export const OPTION_ALLOW_SESSION = "allow_always";
export const OPTION_REJECT = "reject_once";

export function permissionOptions(ask: PermissionAsk): PermissionOption[] {
  const options: PermissionOption[] = [{ optionId: OPTION_ALLOW_ONCE, name: "Allow once", kind: "allow_once" }];
  if (ask.allowSession !== false) options.push({ optionId: OPTION_ALLOW_SESSION, name: "Allow for this session", kind: "allow_always" });
  options.push({ optionId: OPTION_REJECT, name: "Reject", kind: "reject_once" });
  return options;
}

/** Where a client puts the user's reason for a rejection (Manifold's panel does; others may not). */
export const PERMISSION_NOTE_META = "manifold.dev/note";
/** The longest note the model reads; a longer one is cut, never refused (the rejection stands). */
export const PERMISSION_NOTE_MAX = 2000;

/** The SDK's response type, checked on arrival: the SDK types the client's answer but does not validate it. */
const permissionResponse = z.object({
  outcome: z.discriminatedUnion("outcome", [
    z.object({ outcome: z.literal("cancelled") }),
    z.object({ outcome: z.literal("selected"), optionId: z.string() }),
  ]),
  _meta: z.record(z.string(), z.unknown()).nullish(),
}) satisfies z.ZodType<RequestPermissionResponse>;

/** The note of a rejection: a string, trimmed and bounded; anything else (or empty) is no note. */
function noteOf(meta: Record<string, unknown> | null | undefined): string | undefined {
  const raw = meta?.[PERMISSION_NOTE_META];
  if (typeof raw !== "string") return undefined;
  const note = raw.trim().slice(0, PERMISSION_NOTE_MAX).trimEnd();
  return note === "" ? undefined : note;
}

/** Maps the client's answer; unknown option ids and malformed answers are refusals (I-43). */
export function answerOf(res: unknown, ask: PermissionAsk): PermissionAnswer {
  const parsed = permissionResponse.safeParse(res);
  if (!parsed.success) return "reject";
  const { outcome } = parsed.data;
  if (outcome.outcome === "cancelled") return "cancelled";
  if (outcome.optionId === OPTION_ALLOW_ONCE) return "allow_once";
  if (outcome.optionId === OPTION_ALLOW_SESSION) return ask.allowSession === false ? "allow_once" : "allow_session";
  const note = noteOf(parsed.data._meta);
  return note === undefined ? "reject" : { kind: "reject", note };
}

export async function askClient(
  client: AgentContext,
  rec: SessionRecord,
  toolCallId: string,
  ask: PermissionAsk,
  signal: AbortSignal,
): Promise<PermissionAnswer> {
  if (signal.aborted) return "cancelled"; // I-44: after cancel, no prompt at all
  const controller = new AbortController();
  const onAbort = (): void => controller.abort();
  signal.addEventListener("abort", onAbort, { once: true });
  rec.pendingPermissions.add(controller);
  try {
    await rec.lastSend; // the tool_call announcement is on the wire first
    if (controller.signal.aborted) return "cancelled";
    let res: unknown;
    try {
      res = await client.request(
        methods.client.session.requestPermission,
        {
          sessionId: rec.sessionId,
          toolCall: {
            toolCallId,
            title: ask.title,
            status: "pending",
            _meta: { "manifold/reason": ask.reason, "manifold/grantKey": ask.grantKey },
          },
          options: permissionOptions(ask),
        },
        { cancellationSignal: controller.signal, stopWaitingOnCancel: true },
      );
    } catch {
      return controller.signal.aborted ? "cancelled" : "reject"; // transport failure is never a grant (I-43)
    }
    if (controller.signal.aborted || signal.aborted) return "cancelled"; // a late allow is ignored (I-44)
    return answerOf(res, ask);
  } finally {
    signal.removeEventListener("abort", onAbort);
    rec.pendingPermissions.delete(controller);
  }
}
