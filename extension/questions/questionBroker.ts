// Pending agent questions (`elicitation/create`: a form, or a page to open) of ONE session. A page is
// opened only once the user chose to, and only an http(s) URL: anything else is declined unasked.
// Like the permission broker, it never answers for the user: only `answer` (Submit), `decline`
// (Decline) settle a question with the user's word; `cancelAll` (turn cancelled, panel closed,
// session left, agent gone) and the agent withdrawing its request answer `cancel` (I-46).
import type { CreateElicitationResponse } from "@agentclientprotocol/sdk";
import type { SessionElicitation } from "../agent/clientHandlers";
import { PendingRequests } from "../common/pendingRequests";
import type { TranscriptEvent } from "../common/transcript";
import { answerSummary, coerceAnswer, type QuestionForm, type QuestionUrl } from "../common/questionForm";
import { parseQuestionSchema } from "../common/questionSchema";

/** What the broker adds to its session's transcript: the card, its outcome, a notice for a form it cannot show. */
type QuestionEvent = Extract<TranscriptEvent, { type: "question/requested" | "question/resolved" | "notice" }>;

export interface PendingQuestion {
  questionId: string;
  sessionId: string;
  toolCallId?: string;
  message: string;
  form: QuestionForm;
  /** A URL question: the page to open once the user agrees. */
  url?: QuestionUrl;
}

export type QuestionOutcome = { state: "answered"; summary: string } | { state: "declined" } | { state: "cancelled" };

export interface QuestionListener {
  requested(q: PendingQuestion): void;
  resolved(questionId: string, outcome: QuestionOutcome): void;
  /** A question whose form cannot be rendered was declined without asking. */
  unrenderable(message: string, reason: string): void;
  /** The user agreed to open a URL question's page (http or https only). */
  open(href: string): void;
}

const CANCEL: CreateElicitationResponse = { action: "cancel" };
const DECLINE: CreateElicitationResponse = { action: "decline" };
const MESSAGE_MAX = 20_000;
const URL_MAX = 8_000;

/** The page a URL question opens: an absolute http(s) URL, else why it is refused. */
export function questionUrl(raw: string): { ok: true; url: QuestionUrl } | { ok: false; reason: string } {
  if (raw.length > URL_MAX) return { ok: false, reason: "the URL is too long" };
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return { ok: false, reason: "the URL is not valid" };
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") return { ok: false, reason: `${u.protocol.slice(0, 20)} URLs are not opened` };
  if (u.username || u.password) return { ok: false, reason: "the URL carries credentials" };
  return { ok: true, url: { href: u.href, host: u.host } };
}

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
  request(params: SessionElicitation, signal?: AbortSignal): Promise<CreateElicitationResponse> {
    // Defence in depth: the router already routes by id.
    if (params.sessionId !== this.sessionId) return Promise.resolve(CANCEL);
    if (signal?.aborted) return Promise.resolve(CANCEL);
    const message = typeof params.message === "string" ? params.message.slice(0, MESSAGE_MAX) : "";
    const parsed: { ok: true; form: QuestionForm; url?: QuestionUrl } | { ok: false; reason: string } =
      params.mode === "url" ? urlForm(params.url) : parseQuestionSchema(params.requestedSchema);
    if (!parsed.ok) {
      this.listener.unrenderable(message, parsed.reason);
      return Promise.resolve(DECLINE);
    }
    const url = parsed.url;
    return this.#pending.add(
      (questionId) => ({
        questionId,
        sessionId: this.sessionId,
        ...(typeof params.toolCallId === "string" ? { toolCallId: params.toolCallId } : {}),
        message,
        form: parsed.form,
        ...(url ? { url } : {}),
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
    if (q.url) {
      // Settled first: a page is opened for a question that is still the user's to answer, once.
      if (!this.#settle(questionId, { action: "accept" }, { state: "answered", summary: `Opened ${q.url.host}` }))
        return { ok: false, errors: {} };
      this.listener.open(q.url.href);
      return { ok: true };
    }
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

function urlForm(raw: string): { ok: true; form: QuestionForm; url: QuestionUrl } | { ok: false; reason: string } {
  const r = questionUrl(raw);
  return r.ok ? { ok: true, form: { fields: [] }, url: r.url } : r;
}

/** A listener that turns the broker's changes into transcript events of the owning session. */
export function transcriptListener(
  emit: (ev: QuestionEvent) => void,
  onRequested: (q: PendingQuestion) => void,
  open: (href: string) => void,
): QuestionListener {
  return {
    open,
    requested: (q) => {
      emit({
        type: "question/requested",
        questionId: q.questionId,
        ...(q.toolCallId !== undefined ? { toolCallId: q.toolCallId } : {}),
        message: q.message,
        form: q.form,
        ...(q.url ? { url: q.url } : {}),
      });
      onRequested(q);
    },
    resolved: (questionId, outcome) => emit({ type: "question/resolved", questionId, outcome }),
    unrenderable: (message, reason) => emit({ type: "notice", severity: "warning", text: unrenderableNotice(message, reason) }),
  };
}
