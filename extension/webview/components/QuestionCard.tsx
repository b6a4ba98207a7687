// A question from the agent (ACP form elicitation): its message and one field per property, Submit /
// Decline. Everything the agent wrote (message, titles, descriptions, option labels) is untrusted and
// rendered as plain text (JSX escapes it; no markdown, no HTML). Required fields and types are checked
// here for the user's sake; the host checks the values again before answering. A URL question shows where
// it goes (the host name first, then the whole URL) and opens it only on "Open".
import { memo } from "preact/compat";
import { useEffect, useRef, useState } from "preact/hooks";
import type { QuestionEntry } from "../../common/transcript";
import { coerceAnswer, initialValues, type RawValue } from "../../common/questionForm";
import { TEST_IDS } from "../testIds";
import { userIsTyping } from "../focus";
import { Icon } from "../icons";
import { forgetQuestion, savedQuestionValues, saveQuestionValues } from "../panelState";
import { post } from "../vscodeApi";
import { Field } from "./QuestionFields";

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

/** A URL question: where the page is, "Open" (the host opens it in the browser) or Decline. */
function UrlQuestion({ e, url }: { e: QuestionEntry; url: NonNullable<QuestionEntry["url"]> }) {
  const pending = e.outcome.state === "pending";
  return (
    <div
      class={`card question url ${pending ? "pending" : "settled"}`}
      data-testid={TEST_IDS.urlQuestion}
      data-question-id={e.questionId}
      data-state={e.outcome.state}
      role="group"
      aria-label={`The agent asks you to open a page on ${url.host}`}
    >
      <div class="question-title">
        <Icon name="link-external" /> <span class="question-message">{e.message}</span>
      </div>
      <div class="url-host">{url.host}</div>
      <code class="url-full">{url.href}</code>
      {pending ? (
        <div class="question-actions">
          <button
            type="button"
            class="primary"
            data-testid={TEST_IDS.questionSubmit}
            title={`Open ${url.href} in the browser`}
            onClick={() => post({ type: "question/answer", questionId: e.questionId, values: {} })}
          >
            Open {url.host}
          </button>
          <DeclineButton questionId={e.questionId} />
        </div>
      ) : (
        <div class="muted question-outcome">{outcomeText(e)}</div>
      )}
    </div>
  );
}

/** Declines the question (form or URL): the agent gets `decline`. */
function DeclineButton({ questionId }: { questionId: string }) {
  return (
    <button
      type="button"
      class="secondary"
      data-testid={TEST_IDS.questionDecline}
      onClick={() => post({ type: "question/decline", questionId })}
    >
      Decline
    </button>
  );
}

export const QuestionCard = memo(function QuestionCard({ e }: { e: QuestionEntry }) {
  return e.url ? <UrlQuestion e={e} url={e.url} /> : <FormQuestion e={e} />;
});

function FormQuestion({ e }: { e: QuestionEntry }) {
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
            <DeclineButton questionId={e.questionId} />
          </div>
        </>
      ) : (
        <div class="muted question-outcome">{outcomeText(e)}</div>
      )}
    </form>
  );
}
