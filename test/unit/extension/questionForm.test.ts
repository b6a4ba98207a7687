// The question form (ACP form elicitation, client side): which `requestedSchema`s the panel renders,
// how the user's values are validated and typed, and the webview → host guards for question messages.
import assert from "node:assert/strict";
import { test } from "node:test";
import { questionRequest } from "../../../agent-server/acp/questions";
import { parseWebviewMessage } from "../../../extension/common/webviewMessages";
import { answerSummary, coerceAnswer, initialValues, type QuestionForm } from "../../../extension/common/questionForm";
import { parseQuestionSchema } from "../../../extension/common/questionSchema";

function form(raw: unknown): QuestionForm {
  const r = parseQuestionSchema(raw);
  if (!r.ok) throw new Error(`unexpected: ${r.reason}`);
  return r.form;
}

test("the schemas the built-in ask_user sends are rendered as one required text or single-select field", () => {
  const free = questionRequest("s1", "t1", { question: "Why?" });
  const choice = questionRequest("s1", "t1", { question: "Which?", choices: ["blue", "green"] });
  assert.deepEqual(parseQuestionSchema(free.mode === "form" ? free.requestedSchema : undefined), {
    ok: true,
    form: { fields: [{ name: "answer", title: "Answer", required: true, kind: "text" }] },
  });
  assert.deepEqual(parseQuestionSchema(choice.mode === "form" ? choice.requestedSchema : undefined), {
    ok: true,
    form: {
      fields: [
        {
          name: "answer",
          title: "Answer",
          required: true,
          kind: "select",
          options: [
            { value: "blue", title: "blue" },
            { value: "green", title: "green" },
          ],
        },
      ],
    },
  });
});

test("every SDK field shape is rendered: string, number, integer, boolean, enum, oneOf with titles, multi-select (enum and anyOf)", () => {
  const f = form({
    type: "object",
    title: "Deploy",
    description: "Details",
    properties: {
      name: { type: "string", title: "Name", description: "Your name", minLength: 2, maxLength: 10, format: "email", default: "ab" },
      ratio: { type: "number", minimum: 0, maximum: 1, default: 0.5 },
      count: { type: "integer", title: "Count", minimum: 1 },
      ok: { type: "boolean", title: "OK?", default: true },
      env: { type: "string", enum: ["dev", "prod"] },
      tier: {
        type: "string",
        oneOf: [
          { const: "s", title: "Small", description: "cheap" },
          { const: "l", title: "Large" },
        ],
        default: "s",
      },
      tags: { type: "array", items: { type: "string", enum: ["a", "b", "c"] }, minItems: 1, maxItems: 2 },
      picks: { type: "array", title: "Picks", items: { anyOf: [{ const: "x", title: "Ex" }] }, default: ["x"] },
    },
    required: ["name", "count"],
  });
  assert.deepEqual(f, {
    title: "Deploy",
    description: "Details",
    fields: [
      {
        name: "name",
        title: "Name",
        description: "Your name",
        required: true,
        kind: "text",
        minLength: 2,
        maxLength: 10,
        default: "ab",
        format: "email",
      },
      { name: "ratio", title: "ratio", required: false, kind: "number", integer: false, minimum: 0, maximum: 1, default: 0.5 },
      { name: "count", title: "Count", required: true, kind: "number", integer: true, minimum: 1 },
      { name: "ok", title: "OK?", required: false, kind: "boolean", default: true },
      {
        name: "env",
        title: "env",
        required: false,
        kind: "select",
        options: [
          { value: "dev", title: "dev" },
          { value: "prod", title: "prod" },
        ],
      },
      {
        name: "tier",
        title: "tier",
        required: false,
        kind: "select",
        options: [
          { value: "s", title: "Small", description: "cheap" },
          { value: "l", title: "Large" },
        ],
        default: "s",
      },
      {
        name: "tags",
        title: "tags",
        required: false,
        kind: "multi",
        options: [
          { value: "a", title: "a" },
          { value: "b", title: "b" },
          { value: "c", title: "c" },
        ],
        minItems: 1,
        maxItems: 2,
      },
      { name: "picks", title: "Picks", required: false, kind: "multi", options: [{ value: "x", title: "Ex" }], default: ["x"] },
    ],
  });
  assert.deepEqual(initialValues(f), { name: "ab", ratio: "0.5", ok: true, tier: "s", picks: ["x"] });
});

test("schemas the panel cannot render are refused with a reason (never thrown)", () => {
  const cases: [string, unknown][] = [
    ["not an object", "hello"],
    ["null", null],
    ["no fields", { type: "object", properties: {} }],
    ["nested object", { type: "object", properties: { a: { type: "object", properties: {} } } }],
    ["array of numbers", { type: "object", properties: { a: { type: "array", items: { type: "number" } } } }],
    ["custom type", { type: "object", properties: { a: { type: "_color" } } }],
    ["not a type object", { type: "array", properties: { a: { type: "string" } } }],
    ["required field missing", { type: "object", properties: { a: { type: "string" } }, required: ["b"] }],
    ["unknown keyword", { type: "object", properties: { a: { type: "string", items: {} } } }],
    ["enum and oneOf", { type: "object", properties: { a: { type: "string", enum: ["x"], oneOf: [{ const: "x", title: "X" }] } } }],
    ["default outside enum", { type: "object", properties: { a: { type: "string", enum: ["x"], default: "y" } } }],
    ["empty enum", { type: "object", properties: { a: { type: "string", enum: [] } } }],
    ["property not an object", { type: "object", properties: { a: 5 } }],
    [
      "too many fields",
      { type: "object", properties: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`f${i}`, { type: "string" }])) },
    ],
  ];
  for (const [what, raw] of cases) {
    const r = parseQuestionSchema(raw);
    assert.equal(r.ok, false, what);
    assert.equal(typeof (r.ok ? undefined : r.reason), "string", what);
  }
});

test("answers are typed: numbers as numbers, booleans as booleans, multi-select as option-ordered arrays; empty optional fields are left out", () => {
  const f = form({
    type: "object",
    properties: {
      name: { type: "string" },
      ratio: { type: "number" },
      count: { type: "integer" },
      ok: { type: "boolean" },
      env: { type: "string", enum: ["dev", "prod"] },
      tags: { type: "array", items: { type: "string", enum: ["a", "b", "c"] } },
      note: { type: "string" },
    },
  });
  assert.deepEqual(coerceAnswer(f, { name: "Ada", ratio: " 0.25 ", count: "3", ok: true, env: "prod", tags: ["c", "a", "c"], note: "" }), {
    ok: true,
    content: { name: "Ada", ratio: 0.25, count: 3, ok: true, env: "prod", tags: ["a", "c"] },
  });
  // An unchecked box is an answer (false); numbers may arrive as numbers.
  assert.deepEqual(coerceAnswer(f, { count: 7 }), { ok: true, content: { count: 7, ok: false } });
});

test("invalid or missing values are refused per field, with the rule that failed", () => {
  const f = form({
    type: "object",
    properties: {
      name: { type: "string", minLength: 2 },
      count: { type: "integer", minimum: 1, maximum: 5 },
      ratio: { type: "number" },
      env: { type: "string", enum: ["dev", "prod"] },
      tags: { type: "array", items: { type: "string", enum: ["a", "b"] }, minItems: 1 },
      ok: { type: "boolean" },
    },
    required: ["name", "env"],
  });
  const r = coerceAnswer(f, { count: "2.5", ratio: "abc", tags: ["z"], ok: "yes" });
  assert.deepEqual(r, {
    ok: false,
    errors: {
      name: "This field is required.",
      count: "Enter a whole number.",
      ratio: "Enter a number.",
      env: "This field is required.",
      tags: "Choose among the options.",
      ok: "Choose yes or no.",
    },
  });
  assert.deepEqual(coerceAnswer(f, { name: "A", env: "staging", count: 9, tags: [] }), {
    ok: false,
    errors: {
      name: "Enter at least 2 characters.",
      env: "Choose one of the options.",
      count: "Enter a number of at most 5.",
      tags: "Choose at least 1.",
    },
  });
  // Not a record at all: every required field is missing.
  assert.deepEqual(coerceAnswer(f, ["x"]), { ok: false, errors: { name: "This field is required.", env: "This field is required." } });
  // Inherited keys are not values.
  assert.deepEqual(coerceAnswer(f, Object.create({ name: "Ada", env: "dev" }) as object), {
    ok: false,
    errors: { name: "This field is required.", env: "This field is required." },
  });
});

test("the answer summary names option titles, yes/no and field titles", () => {
  const one = form({ type: "object", properties: { tier: { type: "string", oneOf: [{ const: "s", title: "Small" }] } } });
  assert.equal(answerSummary(one, { tier: "s" }), "Small");
  const two = form({ type: "object", properties: { a: { type: "boolean", title: "Sure" }, n: { type: "number", title: "N" } } });
  assert.equal(answerSummary(two, { a: false, n: 2 }), "Sure: no; N: 2");
});

test("the webview protocol guard accepts question answers and declines, and rejects malformed ones", () => {
  const good = [
    { type: "question/answer", questionId: "question-1", values: { answer: "blue", n: 3, ok: false, tags: ["a"] } },
    { type: "question/answer", questionId: "question-1", values: {} },
    { type: "question/decline", questionId: "question-1" },
  ];
  assert.deepEqual(good.map(parseWebviewMessage), good);
  const bad: unknown[] = [
    { type: "question/answer", questionId: "question-1" },
    { type: "question/answer", questionId: "", values: {} },
    { type: "question/answer", questionId: "q", values: { a: { nested: true } } },
    { type: "question/answer", questionId: "q", values: { a: null } },
    { type: "question/answer", questionId: "q", values: { a: [1] } },
    { type: "question/answer", questionId: "q", values: { a: Number.NaN } },
    { type: "question/answer", questionId: "q", values: [] },
    { type: "question/answer", questionId: "q", values: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`f${i}`, "x"])) },
    { type: "question/answer", questionId: "q", values: {}, extra: 1 },
    { type: "question/decline" },
    { type: "question/decline", questionId: "q", values: {} },
  ];
  for (const m of bad) assert.equal(parseWebviewMessage(m), undefined, JSON.stringify(m));
});
