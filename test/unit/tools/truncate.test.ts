// What the model reads of a long output: capped, announced, and for command output both ends kept.
import assert from "node:assert/strict";
import { test } from "node:test";
import { MAX_OUTPUT_CHARS, truncateHead, truncateMiddle } from "../../../agent-server/tools/truncate";

test("truncateMiddle keeps the tail of a few very long lines (the error is usually at the end)", () => {
  const text = `${"x".repeat(400_000)}\nthe-end`;
  const out = truncateMiddle(text);
  assert.ok(out.endsWith("the-end"), "the last line survives");
  assert.ok(out.startsWith("xxx"));
  assert.ok(out.length <= MAX_OUTPUT_CHARS + 200);
  assert.match(out, /characters omitted from the middle of 400008/);
});

test("truncateMiddle on a single huge line keeps both ends", () => {
  const text = `BEGIN${"y".repeat(100_000)}END`;
  const out = truncateMiddle(text);
  assert.ok(out.startsWith("BEGIN") && out.endsWith("END"));
  assert.ok(out.length <= MAX_OUTPUT_CHARS + 200);
});

test("truncateMiddle on many lines keeps the first and last lines", () => {
  const text = Array.from({ length: 10_000 }, (_, i) => `line ${i}`).join("\n");
  const out = truncateMiddle(text);
  assert.ok(out.startsWith("line 0\n"));
  assert.ok(out.endsWith("line 9999"));
});

test("short output is untouched; truncateHead announces the cut", () => {
  assert.equal(truncateMiddle("ok"), "ok");
  assert.match(truncateHead("z".repeat(50_000)), /output truncated: showing the first 1 of 1 lines/);
});
