// Question cards in the transcript model: the entry, its two events and how the shared reducer folds
// them (transcript.ts delegates here). Pure: the webview imports it too.
import type { TranscriptEntry, TranscriptState } from "./transcript";
import type { QuestionForm } from "./questionForm";

export type QuestionState = { state: "pending" } | { state: "answered"; summary: string } | { state: "declined" } | { state: "cancelled" };

export interface QuestionEntry {
  kind: "question";
  id: string;
  questionId: string;
  toolCallId?: string;
  /** The agent's message: untrusted, rendered as text. */
  message: string;
  form: QuestionForm;
  outcome: QuestionState;
}

export type QuestionEvent =
  | { type: "question/requested"; questionId: string; toolCallId?: string; message: string; form: QuestionForm }
  | { type: "question/resolved"; questionId: string; outcome: QuestionState };

export function reduceQuestion(s: TranscriptState, ev: QuestionEvent): TranscriptState {
  if (ev.type === "question/requested") {
    const entry: QuestionEntry = {
      kind: "question",
      id: `e${s.nextId}`,
      questionId: ev.questionId,
      ...(ev.toolCallId !== undefined ? { toolCallId: ev.toolCallId } : {}),
      message: ev.message,
      form: ev.form,
      outcome: { state: "pending" },
    };
    return { ...s, nextId: s.nextId + 1, entries: [...s.entries, entry] };
  }
  return {
    ...s,
    entries: s.entries.map((e) => (e.kind === "question" && e.questionId === ev.questionId && e.outcome.state === "pending" ? { ...e, outcome: ev.outcome } : e)),
  };
}

/** Question cards still waiting for the user. */
export function pendingQuestionEntries(entries: readonly TranscriptEntry[]): QuestionEntry[] {
  return entries.filter((e): e is QuestionEntry => e.kind === "question" && e.outcome.state === "pending");
}
