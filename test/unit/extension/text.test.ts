// One line of text for titles and confirmations.
import assert from "node:assert/strict";
import { test } from "node:test";
import { oneLine, quotePrompt } from "../../../extension/common/text";

test("oneLine folds whitespace and line breaks and cuts long text with an ellipsis", () => {
  assert.equal(oneLine("  fix\n\tthe   build \r\n"), "fix the build");
  assert.equal(oneLine("abcdefghij", 5), "abcd…");
  assert.equal(oneLine("abcde", 5), "abcde");
});

test("I-105: a prompt quoted in a title is one short line in curly quotes", () => {
  const prompt = `Refactor the parser\n\n${"and explain every step in detail ".repeat(10)}`;
  const q = quotePrompt(prompt);
  assert.ok(!q.includes("\n"));
  assert.ok(q.startsWith("“Refactor the parser and explain"));
  assert.ok(q.endsWith("…”"));
  assert.equal(q.length, 62);
  assert.equal(quotePrompt("short"), "“short”");
});
