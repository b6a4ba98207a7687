// The form of an agent's question (ACP `elicitation/create`, form mode): the `requestedSchema` the
// agent sent is `unknown` until `parseQuestionSchema` (./questionSchema.ts, host side) turns it into
// fields this panel can render, and what the user typed is `unknown` until `coerceAnswer` turns it
// into typed content (numbers as numbers, booleans as booleans). The host and the webview share it.

export interface FieldOption {
  value: string;
  title: string;
  description?: string;
}

interface FieldBase {
  name: string;
  title: string;
  description?: string;
  required: boolean;
}
export type QuestionField =
  | (FieldBase & { kind: "text"; minLength?: number; maxLength?: number; format?: string; default?: string })
  | (FieldBase & { kind: "number"; integer: boolean; minimum?: number; maximum?: number; default?: number })
  | (FieldBase & { kind: "boolean"; default?: boolean })
  | (FieldBase & { kind: "select"; options: FieldOption[]; default?: string })
  | (FieldBase & { kind: "multi"; options: FieldOption[]; minItems?: number; maxItems?: number; default?: string[] });

/** The page a URL question opens (an http(s) URL the host checked) and its host, shown prominently. */
export interface QuestionUrl {
  href: string;
  host: string;
}

export interface QuestionForm {
  title?: string;
  description?: string;
  fields: QuestionField[];
}

/** What the webview posts for one field (the host validates it again). */
export type RawValue = string | number | boolean | string[];
/** A typed answer value (ACP `ElicitationContentValue`). */
export type AnswerValue = string | number | boolean | string[];

export const MAX_FIELDS = 20;
export const MAX_OPTIONS = 100;
export const MAX_TEXT = 100_000;

export type Coerced = { ok: true; content: Record<string, AnswerValue> } | { ok: false; errors: Record<string, string> };

const isEmpty = (v: unknown): boolean => v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0);

function coerceField(f: QuestionField, v: unknown): AnswerValue | { error: string } {
  switch (f.kind) {
    case "text": {
      if (typeof v !== "string") return { error: "Enter text." };
      if (v.length > MAX_TEXT) return { error: "The text is too long." };
      if (f.minLength !== undefined && v.length < f.minLength) return { error: `Enter at least ${f.minLength} characters.` };
      if (f.maxLength !== undefined && v.length > f.maxLength) return { error: `Enter at most ${f.maxLength} characters.` };
      return v;
    }
    case "number": {
      const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v.trim()) : NaN;
      if (!Number.isFinite(n)) return { error: "Enter a number." };
      if (f.integer && !Number.isInteger(n)) return { error: "Enter a whole number." };
      if (f.minimum !== undefined && n < f.minimum) return { error: `Enter a number of at least ${f.minimum}.` };
      if (f.maximum !== undefined && n > f.maximum) return { error: `Enter a number of at most ${f.maximum}.` };
      return n;
    }
    case "boolean":
      return typeof v === "boolean" ? v : { error: "Choose yes or no." };
    case "select":
      return typeof v === "string" && f.options.some((o) => o.value === v) ? v : { error: "Choose one of the options." };
    case "multi": {
      if (!Array.isArray(v) || !v.every((x): x is string => typeof x === "string" && f.options.some((o) => o.value === x))) {
        return { error: "Choose among the options." };
      }
      const picked = f.options.map((o) => o.value).filter((x) => v.includes(x)); // option order, no duplicates
      if (f.minItems !== undefined && picked.length < f.minItems) return { error: `Choose at least ${f.minItems}.` };
      if (f.maxItems !== undefined && picked.length > f.maxItems) return { error: `Choose at most ${f.maxItems}.` };
      return picked;
    }
  }
}

/**
 * Validates the user's values against the form. Empty optional fields are left out; a boolean field
 * the user did not touch counts as `false` (an unchecked box is an answer).
 */
export function coerceAnswer(form: QuestionForm, values: unknown): Coerced {
  const rec: Record<string, unknown> =
    typeof values === "object" && values !== null && !Array.isArray(values) ? (values as Record<string, unknown>) : {};
  const content: Record<string, AnswerValue> = {};
  const errors: Record<string, string> = {};
  for (const f of form.fields) {
    const raw = Object.hasOwn(rec, f.name) ? rec[f.name] : undefined;
    const v = f.kind === "boolean" && raw === undefined ? false : raw;
    // An empty multi-select with a minimum is "too few", not "missing".
    if (isEmpty(v) && !(f.kind === "multi" && Array.isArray(v) && f.minItems !== undefined && f.minItems > 0)) {
      if (f.required) errors[f.name] = "This field is required.";
      continue;
    }
    const c = coerceField(f, v);
    if (typeof c === "object" && !Array.isArray(c)) errors[f.name] = c.error;
    else content[f.name] = c;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, content };
}

/** The initial values of a form (defaults), as the webview holds them. */
export function initialValues(form: QuestionForm): Record<string, RawValue> {
  const out: Record<string, RawValue> = {};
  for (const f of form.fields) {
    if (f.default === undefined) continue;
    out[f.name] = f.kind === "number" ? String(f.default) : f.default;
  }
  return out;
}

/** A one-line summary of an answer, for the settled card ("Answered: …"). */
export function answerSummary(form: QuestionForm, content: Record<string, AnswerValue>): string {
  const show = (f: QuestionField, v: AnswerValue): string => {
    const title = (x: string) => (f.kind === "select" || f.kind === "multi" ? (f.options.find((o) => o.value === x)?.title ?? x) : x);
    if (Array.isArray(v)) return v.map(title).join(", ");
    if (typeof v === "boolean") return v ? "yes" : "no";
    return title(String(v));
  };
  const parts = form.fields.filter((f) => Object.hasOwn(content, f.name)).map((f) => ({ f, v: content[f.name] as AnswerValue }));
  const only = parts[0];
  const s = parts.length === 1 && only ? show(only.f, only.v) : parts.map(({ f, v }) => `${f.title}: ${show(f, v)}`).join("; ");
  return s.length > 300 ? `${s.slice(0, 299)}…` : s;
}
