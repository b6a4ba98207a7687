// An agent's `requestedSchema` (ACP `elicitation/create`, form mode), `unknown` until
// `parseQuestionSchema` turns it into the fields of ./questionForm.ts or says why it cannot be
// rendered. Host side: the webview gets the parsed form, so its bundle carries none of these schemas.
import { z } from "zod";
import { MAX_FIELDS, MAX_OPTIONS, MAX_TEXT, type FieldOption, type QuestionField, type QuestionForm } from "./questionForm";

const text = (max: number) => z.string().max(max);
const opt = <T extends z.ZodType>(t: T) => t.nullish();
const meta = z.record(z.string(), z.unknown()).nullish();
const count = z.number().int().min(0).max(1_000_000);
const finite = z.number().finite();

const common = { title: opt(text(500)), description: opt(text(4000)), _meta: meta };
const enumOption = z.object({ const: text(500), title: text(500), description: opt(text(4000)), _meta: meta }).strict();

const stringProp = z
  .object({
    type: z.literal("string"),
    ...common,
    minLength: opt(count),
    maxLength: opt(count),
    pattern: opt(text(1000)),
    format: opt(z.enum(["email", "uri", "date", "date-time"])),
    default: opt(text(MAX_TEXT)),
    enum: opt(z.array(text(500)).min(1).max(MAX_OPTIONS)),
    oneOf: opt(z.array(enumOption).min(1).max(MAX_OPTIONS)),
  })
  .strict();
const numberProp = z
  .object({ type: z.enum(["number", "integer"]), ...common, minimum: opt(finite), maximum: opt(finite), default: opt(finite) })
  .strict();
const booleanProp = z.object({ type: z.literal("boolean"), ...common, default: opt(z.boolean()) }).strict();
const multiItems = z.union([
  z.object({ type: z.literal("string"), enum: z.array(text(500)).min(1).max(MAX_OPTIONS), _meta: meta }).strict(),
  z.object({ anyOf: z.array(enumOption).min(1).max(MAX_OPTIONS), _meta: meta }).strict(),
]);
const multiProp = z
  .object({
    type: z.literal("array"),
    ...common,
    minItems: opt(count),
    maxItems: opt(count),
    items: multiItems,
    default: opt(z.array(text(500)).max(MAX_OPTIONS)),
  })
  .strict();
const property = z.discriminatedUnion("type", [stringProp, numberProp, booleanProp, multiProp]);

const schema = z
  .object({
    type: z.literal("object").nullish(),
    title: opt(text(500)),
    description: opt(text(4000)),
    properties: z.record(z.string().min(1).max(200), z.unknown()).nullish(),
    required: z.array(z.string()).nullish(),
    _meta: meta,
  })
  .strict();

export type ParsedForm = { ok: true; form: QuestionForm } | { ok: false; reason: string };

function withText<T extends object>(o: T, key: "description" | "format", v: string | null | undefined): T {
  return v ? { ...o, [key]: v } : o;
}

function options(p: { enum?: string[] | null; oneOf?: z.infer<typeof enumOption>[] | null }): FieldOption[] | undefined {
  if (p.oneOf) return p.oneOf.map((o) => withText({ value: o.const, title: o.title }, "description", o.description));
  if (p.enum) return p.enum.map((v) => ({ value: v, title: v }));
  return undefined;
}

function field(name: string, required: boolean, raw: unknown): QuestionField | string {
  const r = property.safeParse(raw);
  if (!r.success) return `property "${name}" is not a string, number, integer, boolean, enum or multi-select field`;
  const p = r.data;
  const base = withText({ name, title: p.title || name, required }, "description", p.description);
  switch (p.type) {
    case "string": {
      if (p.enum && p.oneOf) return `property "${name}" has both enum and oneOf`;
      const choices = options(p);
      if (choices) {
        if (p.default != null && !choices.some((c) => c.value === p.default))
          return `property "${name}" has a default that is not one of its options`;
        return { ...base, kind: "select", options: choices, ...(p.default != null ? { default: p.default } : {}) };
      }
      // `pattern` is not enforced here (an agent's regular expression is not run in the panel); the agent validates.
      return withText(
        {
          ...base,
          kind: "text" as const,
          ...(p.minLength != null ? { minLength: p.minLength } : {}),
          ...(p.maxLength != null ? { maxLength: p.maxLength } : {}),
          ...(p.default != null ? { default: p.default } : {}),
        },
        "format",
        p.format,
      );
    }
    case "number":
    case "integer":
      return {
        ...base,
        kind: "number",
        integer: p.type === "integer",
        ...(p.minimum != null ? { minimum: p.minimum } : {}),
        ...(p.maximum != null ? { maximum: p.maximum } : {}),
        ...(p.default != null ? { default: p.default } : {}),
      };
    case "boolean":
      return { ...base, kind: "boolean", ...(p.default != null ? { default: p.default } : {}) };
    case "array": {
      const items = p.items;
      const choices = "anyOf" in items ? options({ oneOf: items.anyOf }) : options({ enum: items.enum });
      return {
        ...base,
        kind: "multi",
        options: choices ?? [],
        ...(p.minItems != null ? { minItems: p.minItems } : {}),
        ...(p.maxItems != null ? { maxItems: p.maxItems } : {}),
        ...(p.default != null ? { default: p.default } : {}),
      };
    }
  }
}

/** Turns an agent's `requestedSchema` into renderable fields, or says why it cannot be rendered. */
export function parseQuestionSchema(raw: unknown): ParsedForm {
  const r = schema.safeParse(raw);
  if (!r.success) return { ok: false, reason: "the form is not a flat object schema" };
  const props = Object.entries(r.data.properties ?? {});
  if (props.length === 0) return { ok: false, reason: "the form has no fields" };
  if (props.length > MAX_FIELDS) return { ok: false, reason: `the form has more than ${MAX_FIELDS} fields` };
  const required = r.data.required ?? [];
  const missing = required.find((n) => !props.some(([k]) => k === n));
  if (missing !== undefined) return { ok: false, reason: `required field "${missing.slice(0, 100)}" is not defined` };
  const fields: QuestionField[] = [];
  for (const [name, p] of props) {
    const f = field(name, required.includes(name), p);
    if (typeof f === "string") return { ok: false, reason: f };
    fields.push(f);
  }
  let form: QuestionForm = { fields };
  if (r.data.title) form = { ...form, title: r.data.title };
  if (r.data.description) form = { ...form, description: r.data.description };
  return { ok: true, form };
}
