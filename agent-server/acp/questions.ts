// User questions: a tool's question becomes `elicitation/create` (form mode) to the owning session
// only, naming an announced tool call. Cancel and teardown reject the asker with an AbortError;
// anything but a well-formed accept is "declined" (I-45, I-46).
import { methods, type AgentContext, type CreateElicitationRequest, type CreateElicitationResponse } from "@agentclientprotocol/sdk";
import * as z from "zod/v4";
import { AbortedError } from "../runtime/abortable";
import type { UserAnswer, UserQuestion } from "../runtime/capabilities";
import type { SessionRecord } from "./record";

export const QUESTION_CANCELLED = "the question was cancelled";

export function questionRequest(sessionId: string, toolCallId: string, q: UserQuestion): CreateElicitationRequest {
  const answer =
    q.choices && q.choices.length > 0
      ? { type: "string" as const, title: "Answer", enum: [...q.choices] }
      : { type: "string" as const, title: "Answer" };
  return {
    sessionId,
    toolCallId,
    mode: "form",
    message: q.question,
    requestedSchema: { type: "object", properties: { answer }, required: ["answer"] },
  };
}

/** The SDK's response type, narrowed to an accept with a string `answer` (the SDK does not validate responses). */
const accepted = z.object({
  action: z.literal("accept"),
  content: z.object({ answer: z.string() }),
}) satisfies z.ZodType<CreateElicitationResponse>;

/** Only an accept whose `answer` is a string (and one of the choices, when given) is an answer. */
export function answerOfElicitation(res: unknown, q: UserQuestion): UserAnswer {
  const parsed = accepted.safeParse(res);
  if (!parsed.success) return { outcome: "declined" };
  const answer = parsed.data.content.answer;
  if (q.choices && q.choices.length > 0 && !q.choices.includes(answer)) return { outcome: "declined" };
  return { outcome: "answered", answer };
}

export async function askQuestion(
  client: AgentContext,
  rec: SessionRecord,
  toolCallId: string,
  q: UserQuestion,
  signal: AbortSignal,
): Promise<UserAnswer> {
  if (signal.aborted) throw new AbortedError(QUESTION_CANCELLED); // after cancel: no frame at all
  const controller = new AbortController(); // aborted by the caller's signal, session cancel or teardown
  const onAbort = (): void => controller.abort();
  signal.addEventListener("abort", onAbort, { once: true });
  rec.pendingQuestions.add(controller);
  try {
    await rec.lastSend; // the tool_call announcement is on the wire first
    if (controller.signal.aborted) throw new AbortedError(QUESTION_CANCELLED);
    let res: unknown;
    try {
      res = await client.request(methods.client.elicitation.create, questionRequest(rec.sessionId, toolCallId, q), {
        cancellationSignal: controller.signal,
        stopWaitingOnCancel: true,
      });
    } catch {
      if (controller.signal.aborted) throw new AbortedError(QUESTION_CANCELLED);
      return { outcome: "declined" }; // a transport failure is never an answer
    }
    if (controller.signal.aborted) throw new AbortedError(QUESTION_CANCELLED); // a late answer is ignored
    return answerOfElicitation(res, q);
  } finally {
    signal.removeEventListener("abort", onAbort);
    rec.pendingQuestions.delete(controller);
  }
}
