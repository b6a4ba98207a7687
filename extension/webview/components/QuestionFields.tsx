// The fields of an agent's question, one component per kind: text, number, boolean (a checkbox), select
// (radio buttons, or a drop-down past RADIO_MAX options) and multi (checkboxes). Each shows its title (a
// star when required), its description and its error. Everything the agent wrote is plain text here.
import type { JSX } from "preact";
import type { QuestionField, RawValue } from "../../common/questionForm";
import { TEST_IDS } from "../testIds";

/** Radio buttons up to this many options, a drop-down beyond. */
const RADIO_MAX = 8;

type FieldOf<K extends QuestionField["kind"]> = Extract<QuestionField, { kind: K }>;

/** What every kind shows around its control, and the attributes of its wrapper. */
interface Parts {
  id: string;
  label: JSX.Element;
  help: JSX.Element | null;
  err: JSX.Element | null;
  common: {
    "data-testid": string;
    "data-field": string;
    "data-kind": QuestionField["kind"];
    "aria-invalid": true | undefined;
  };
}

interface KindProps<K extends QuestionField["kind"]> {
  f: FieldOf<K>;
  value: RawValue | undefined;
  onChange(v: RawValue): void;
  parts: Parts;
}

function fieldParts(f: QuestionField, qid: string, error: string | undefined): Parts {
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
  const common: Parts["common"] = {
    "data-testid": TEST_IDS.questionField,
    "data-field": f.name,
    "data-kind": f.kind,
    "aria-invalid": error ? true : undefined,
  };
  return { id: `${qid}-${f.name}`, label, help, err, common };
}

function TextField({ f, value, onChange, parts }: KindProps<"text">) {
  return (
    <div class="question-field" {...parts.common}>
      <label for={parts.id}>{parts.label}</label>
      {parts.help}
      <input
        id={parts.id}
        type="text"
        placeholder={f.format}
        value={typeof value === "string" ? value : ""}
        onInput={(ev) => onChange(ev.currentTarget.value)}
      />
      {parts.err}
    </div>
  );
}

function NumberField({ f, value, onChange, parts }: KindProps<"number">) {
  return (
    <div class="question-field" {...parts.common}>
      <label for={parts.id}>{parts.label}</label>
      {parts.help}
      <input
        id={parts.id}
        type="number"
        step={f.integer ? "1" : "any"}
        value={typeof value === "string" || typeof value === "number" ? String(value) : ""}
        onInput={(ev) => onChange(ev.currentTarget.value)}
      />
      {parts.err}
    </div>
  );
}

function BooleanField({ value, onChange, parts }: KindProps<"boolean">) {
  return (
    <div class="question-field" {...parts.common}>
      <label class="question-check">
        <input type="checkbox" checked={value === true} onChange={(ev) => onChange((ev.currentTarget as HTMLInputElement).checked)} />
        {parts.label}
      </label>
      {parts.help}
      {parts.err}
    </div>
  );
}

function DropDownField({ f, value, onChange, parts }: KindProps<"select">) {
  return (
    <div class="question-field" {...parts.common}>
      <label for={parts.id}>{parts.label}</label>
      {parts.help}
      <select
        id={parts.id}
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
      {parts.err}
    </div>
  );
}

function SelectField(p: KindProps<"select">) {
  const { f, value, onChange, parts } = p;
  if (f.options.length > RADIO_MAX) return <DropDownField {...p} />;
  return (
    <fieldset class="question-field" {...parts.common}>
      <legend>{parts.label}</legend>
      {parts.help}
      {f.options.map((o) => (
        <label key={o.value} class="question-check" title={o.description}>
          <input type="radio" name={parts.id} value={o.value} checked={value === o.value} onChange={() => onChange(o.value)} />
          {o.title}
        </label>
      ))}
      {parts.err}
    </fieldset>
  );
}

function MultiField({ f, value, onChange, parts }: KindProps<"multi">) {
  const picked = Array.isArray(value) ? value : [];
  return (
    <fieldset class="question-field" {...parts.common}>
      <legend>{parts.label}</legend>
      {parts.help}
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
      {parts.err}
    </fieldset>
  );
}

export function Field({
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
  const parts = fieldParts(f, qid, error);
  switch (f.kind) {
    case "text":
      return <TextField f={f} value={value} onChange={onChange} parts={parts} />;
    case "number":
      return <NumberField f={f} value={value} onChange={onChange} parts={parts} />;
    case "boolean":
      return <BooleanField f={f} value={value} onChange={onChange} parts={parts} />;
    case "select":
      return <SelectField f={f} value={value} onChange={onChange} parts={parts} />;
    case "multi":
      return <MultiField f={f} value={value} onChange={onChange} parts={parts} />;
  }
}
