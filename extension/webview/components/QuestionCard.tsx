// A question from the agent (ACP form elicitation): its message and one field per property, Submit /
// Decline. Everything the agent wrote (message, titles, descriptions, option labels) is untrusted and
// rendered as plain text (JSX escapes it; no markdown, no HTML). Required fields and types are checked
// here for the user's sake; the host checks the values again before answering.
import { memo } from "preact/compat";
import { useEffect, useRef, useState } from "preact/hooks";
import type { QuestionEntry } from "../../common/transcript";
import { coerceAnswer, initialValues, type QuestionField, type RawValue } from "../../common/questionForm";
import { TEST_IDS } from "../testIds";
import { userIsTyping } from "../focus";
import { Icon } from "../icons";
import { forgetQuestion, savedQuestionValues, saveQuestionValues } from "../panelState";
import { post } from "../vscodeApi";

/** Radio buttons up to this many options, a drop-down beyond. */
const RADIO_MAX = 8;

function Field({
  f,
  value,
  error,
  qid,
  onChange,
}: {
  f: QuestionField;
  value: RawValue | undefined;
  error?: string;
  qid: string;
  onChange(v: RawValue): void;
}) {
  const id = `${qid}-${f.name}`;
  const label = (
    <span class="question-label">
      {f.title}
      {f.required ? (
        <span class="required" title="required">
          {" "}
          *
        </span>
      ) : null}
    </span>
  );
  const help = f.description ? <div class="muted question-help">{f.description}</div> : null;
  const err = error ? (
    <div class="question-error" data-testid={TEST_IDS.questionError} role="alert">
      {error}
    </div>
  ) : null;
  const common = {
    "data-testid": TEST_IDS.questionField,
    "data-field": f.name,
    "data-kind": f.kind,
    "aria-invalid": error ? true : undefined,
  };
  switch (f.kind) {
    case "text":
    case "number":
      return (
        <div class="question-field" {...common}>
          <label for={id}>{label}</label>
          {help}
          {f.kind === "number" ? (
            <input
              id={id}
              type="number"
              step={f.integer ? "1" : "any"}
              value={typeof value === "string" || typeof value === "number" ? String(value) : ""}
              onInput={(ev) => onChange(ev.currentTarget.value)}
            />
          ) : (
            <input
              id={id}
              type="text"
              placeholder={f.format}
              value={typeof value === "string" ? value : ""}
              onInput={(ev) => onChange(ev.currentTarget.value)}
            />
          )}
          {err}
        </div>
      );
    case "boolean":
      return (
        <div class="question-field" {...common}>
          <label class="question-check">
            <input type="checkbox" checked={value === true} onChange={(ev) => onChange((ev.currentTarget as HTMLInputElement).checked)} />
            {label}
          </label>
          {help}
          {err}
        </div>
      );
    case "select":
      if (f.options.length > RADIO_MAX) {
        return (
          <div class="question-field" {...common}>
            <label for={id}>{label}</label>
            {help}
            <select
              id={id}
              value={typeof value === "string" ? value : ""}
              onChange={(ev) => onChange((ev.currentTarget as HTMLSelectElement).value)}
            >
              <option value="">Choose…</option>
              {f.options.map((o) => (
                <option key={o.value} value={o.value} title={o.description}>
                  {o.title}
                </option>
              ))}
            </select>
            {err}
          </div>
        );
      }
      return (
        <fieldset class="question-field" {...common}>
          <legend>{label}</legend>
          {help}
          {f.options.map((o) => (
            <label key={o.value} class="question-check" title={o.description}>
              <input type="radio" name={id} value={o.value} checked={value === o.value} onChange={() => onChange(o.value)} />
              {o.title}
            </label>
          ))}
          {err}
        </fieldset>
      );
    case "multi": {
      const picked = Array.isArray(value) ? value : [];
      return (
        <fieldset class="question-field" {...common}>
          <legend>{label}</legend>
          {help}
          {f.options.map((o) => (
            <label key={o.value} class="question-check" title={o.description}>
              <input
                type="checkbox"
                value={o.value}
                checked={picked.includes(o.value)}
                onChange={(ev) =>
                  onChange((ev.currentTarget as HTMLInputElement).checked ? [...picked, o.value] : picked.filter((x) => x !== o.value))
                }
              />
              {o.title}
            </label>
          ))}
          {err}
        </fieldset>
      );
    }
  }
}

function outcomeText(e: QuestionEntry): string {
  switch (e.outcome.state) {
    case "answered":
      return `Answered: ${e.outcome.summary}`;
    case "declined":
      return "Declined";
    case "cancelled":
      return "Cancelled";
    default:
      return "";
  }
}

export const QuestionCard = memo(function QuestionCard({ e }: { e: QuestionEntry }) {
  const ref = useRef<HTMLFormElement>(null);
  const pending = e.outcome.state === "pending";
  // Typed values outlive the page (a hidden panel's page is rebuilt when shown) until the question settles.
  const [values, setValues] = useState<Record<string, RawValue>>(() => savedQuestionValues(e.questionId) ?? initialValues(e.form));
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => {
    if (pending) saveQuestionValues(e.questionId, values);
    else forgetQuestion(e.questionId);
  }, [pending, values, e.questionId]);
  useEffect(() => {
    // A question arriving takes focus (its first control), unless the user is typing a message.
    if (pending && !userIsTyping()) ref.current?.querySelector<HTMLElement>("input, select, button")?.focus();
  }, [pending]);
  const submit = (ev: Event) => {
    ev.preventDefault();
    const c = coerceAnswer(e.form, values);
    if (!c.ok) {
      setErrors(c.errors);
      return;
    }
    setErrors({});
    post({ type: "question/answer", questionId: e.questionId, values: c.content });
  };
  return (
    <form
      ref={ref}
      class={`card question ${pending ? "pending" : "settled"}`}
      data-testid={TEST_IDS.questionCard}
      data-question-id={e.questionId}
      data-state={e.outcome.state}
      aria-label="Question from the agent"
      onSubmit={submit}
      noValidate
    >
      <div class="question-title">
        <Icon name="question" /> <span class="question-message">{e.message}</span>
      </div>
      {e.form.description ? <div class="muted question-help">{e.form.description}</div> : null}
      {pending ? (
        <>
          {e.form.fields.map((f) => (
            <Field
              key={f.name}
              f={f}
              qid={e.questionId}
              value={values[f.name]}
              {...(errors[f.name] !== undefined ? { error: errors[f.name] } : {})}
              onChange={(v) => setValues((old) => ({ ...old, [f.name]: v }))}
            />
          ))}
          <div class="question-actions">
            <button type="submit" class="primary" data-testid={TEST_IDS.questionSubmit}>
              Submit
            </button>
            <button
              type="button"
              class="secondary"
              data-testid={TEST_IDS.questionDecline}
              onClick={() => post({ type: "question/decline", questionId: e.questionId })}
            >
              Decline
            </button>
          </div>
        </>
      ) : (
        <div class="muted question-outcome">{outcomeText(e)}</div>
      )}
    </form>
  );
});
