// Pending agent questions (`elicitation/create`, form mode) of ONE session.
// Like the permission broker, it never answers for the user: only `answer` (Submit), `decline`
// (Decline) settle a question with the user's word; `cancelAll` (turn cancelled, panel closed,
// session left, agent gone) and the agent withdrawing its request answer `cancel` (I-46).
import type { CreateElicitationResponse } from "@agentclientprotocol/sdk";
import type { SessionFormElicitation } from "../agent/clientHandlers";
import { PendingRequests } from "../common/pendingRequests";
import type { TranscriptEvent } from "../common/transcript";
import { answerSummary, coerceAnswer, parseQuestionSchema, type QuestionForm } from "../common/questionForm";

/** What the broker adds to its session's transcript: the card, its outcome, a notice for a form it cannot show. */
type QuestionEvent = Extract<TranscriptEvent, { type: "question/requested" | "question/resolved" | "notice" }>;

export interface PendingQuestion {
  questionId: string;
  sessionId: string;
  toolCallId?: string;
  message: string;
  form: QuestionForm;
}

export type QuestionOutcome = { state: "answered"; summary: string } | { state: "declined" } | { state: "cancelled" };

export interface QuestionListener {
  requested(q: PendingQuestion): void;
  resolved(questionId: string, outcome: QuestionOutcome): void;
  /** A question whose form cannot be rendered was declined without asking. */
  unrenderable(message: string, reason: string): void;
}

const CANCEL: CreateElicitationResponse = { action: "cancel" };
const DECLINE: CreateElicitationResponse = { action: "decline" };
const MESSAGE_MAX = 20_000;

export class QuestionBroker {
  readonly #pending = new PendingRequests<PendingQuestion, CreateElicitationResponse>("question");

  constructor(
    readonly sessionId: string,
    private readonly listener: QuestionListener,
  ) {}

  get size(): number {
    return this.#pending.size;
  }

  list(): PendingQuestion[] {
    return this.#pending.list();
  }

  /** Called for each incoming question; resolves when the user (or a cancel) settles it. */
  request(params: SessionFormElicitation, signal?: AbortSignal): Promise<CreateElicitationResponse> {
    // Defence in depth: the router already routes by id.
    if (params.sessionId !== this.sessionId) return Promise.resolve(CANCEL);
    if (signal?.aborted) return Promise.resolve(CANCEL);
    const message = typeof params.message === "string" ? params.message.slice(0, MESSAGE_MAX) : "";
    const parsed = parseQuestionSchema(params.requestedSchema);
    if (!parsed.ok) {
      this.listener.unrenderable(message, parsed.reason);
      return Promise.resolve(DECLINE);
    }
    return this.#pending.add(
      (questionId) => ({
        questionId,
        sessionId: this.sessionId,
        ...(typeof params.toolCallId === "string" ? { toolCallId: params.toolCallId } : {}),
        message,
        form: parsed.form,
      }),
      signal,
      // The agent withdrew the question ($/cancel_request: its turn was cancelled) or the connection closed.
      (questionId) => void this.#settle(questionId, CANCEL, { state: "cancelled" }),
      (pending) => this.listener.requested(pending),
    );
  }

  /**
   * The user submitted the form. `values` is untrusted (it comes from the webview): it is validated and
   * typed against the form; invalid values answer nothing (the card stays) and the errors are returned.
   */
  answer(questionId: string, values: unknown): { ok: true } | { ok: false; errors: Record<string, string> } {
    const q = this.#pending.get(questionId);
    if (!q) return { ok: false, errors: {} };
    const c = coerceAnswer(q.form, values);
    if (!c.ok) return c;
    this.#settle(questionId, { action: "accept", content: c.content }, { state: "answered", summary: answerSummary(q.form, c.content) });
    return { ok: true };
  }

  decline(questionId: string): boolean {
    return this.#settle(questionId, DECLINE, { state: "declined" });
  }

  /** Every pending question is answered `cancel` (turn cancelled, panel closed, session left, agent gone). */
  cancelAll(): void {
    for (const id of this.#pending.ids()) this.#settle(id, CANCEL, { state: "cancelled" });
  }

  #settle(questionId: string, response: CreateElicitationResponse, outcome: QuestionOutcome): boolean {
    if (!this.#pending.settle(questionId, response)) return false;
    this.listener.resolved(questionId, outcome);
    return true;
  }
}

/** The notice shown in the panel when a question's form cannot be rendered (it was declined). */
export function unrenderableNotice(message: string, reason: string): string {
  const m = message.length > 200 ? `${message.slice(0, 199)}…` : message;
  return `The agent asked a question this panel cannot show (${reason}), so it was declined: "${m}"`;
}

/** A listener that turns the broker's changes into transcript events of the owning session. */
export function transcriptListener(emit: (ev: QuestionEvent) => void, onRequested: (q: PendingQuestion) => void): QuestionListener {
  return {
    requested: (q) => {
      emit({
        type: "question/requested",
        questionId: q.questionId,
        ...(q.toolCallId !== undefined ? { toolCallId: q.toolCallId } : {}),
        message: q.message,
        form: q.form,
      });
      onRequested(q);
    },
    resolved: (questionId, outcome) => emit({ type: "question/resolved", questionId, outcome }),
    unrenderable: (message, reason) => emit({ type: "notice", severity: "warning", text: unrenderableNotice(message, reason) }),
  };
}
