// What a chat panel keeps in VS Code's webview state, which outlives the panel's page (a hidden panel's
// page is dropped and rebuilt when it is shown again, and a window reload restores the panel from it):
// the folder it belongs to (the host restores the panel from that), the composer's draft, and the
// values typed into question cards still waiting for an answer. Read back as `unknown` and validated.
import * as z from "zod/mini"; // zod's tree-shakable API: the bundle keeps only what it uses
import type { RawValue } from "../common/questionForm";
import { vscodeState } from "./vscodeApi";

const rawValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);
const stateSchema = z.object({
  folder: z.optional(z.string()),
  draft: z.optional(z.string()),
  questions: z.optional(z.record(z.string(), z.record(z.string(), rawValue))),
});
type PanelState = z.infer<typeof stateSchema>;

function read(): PanelState {
  const parsed = stateSchema.safeParse(vscodeState.get());
  return parsed.success ? parsed.data : {};
}

function update(change: (s: PanelState) => PanelState): void {
  vscodeState.set(change(read()));
}

/** Remembers the panel's folder so VS Code can restore the panel after a reload. */
export function rememberFolder(folder: string): void {
  update((s) => ({ ...s, folder }));
}

export function savedDraft(): string {
  return read().draft ?? "";
}

export function saveDraft(draft: string): void {
  update(({ draft: _old, ...rest }) => (draft === "" ? rest : { ...rest, draft }));
}

export function savedQuestionValues(questionId: string): Record<string, RawValue> | undefined {
  return read().questions?.[questionId];
}

export function saveQuestionValues(questionId: string, values: Record<string, RawValue>): void {
  update((s) => ({ ...s, questions: { ...s.questions, [questionId]: values } }));
}

/** A settled question's values are not needed any more. */
export function forgetQuestion(questionId: string): void {
  if (!read().questions?.[questionId]) return;
  update((s) => {
    const { [questionId]: _gone, ...questions } = s.questions ?? {};
    return { ...s, questions };
  });
}
