// The pure half of `@` mentions beyond files: the problems text (sorted, bounded), the
// terminal log (newest kept, escape sequences removed), each mention's ACP blocks with and without
// embedded context, and the chip labels.
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildPrompt, attachmentLabel } from "../../../extension/chat/promptBuilder";
import { boundText, mentionBlocks } from "../../../extension/chat/mentions";
import { problemsText, type Problem } from "../../../extension/chat/problems";
import { formatTerminalRuns, plainTerminalText, TerminalLog } from "../../../extension/common/terminalLog";

const problem = (over: Partial<Problem>): Problem => ({
  path: "/w/a/src/x.ts",
  line: 1,
  column: 1,
  severity: "error",
  message: "m",
  ...over,
});

test("problems: errors first, then by file and line, one line each, relative to the folder", () => {
  const { text, count } = problemsText("/w/a", [
    problem({ severity: "warning", path: "/w/a/b.ts", line: 2, message: "unused" }),
    problem({ path: "/w/a/src/x.ts", line: 9, column: 3, message: "Type 'string'\n  is not 'number'", source: "ts", code: "2322" }),
    problem({ path: "/w/a/a.ts", line: 4, message: "missing" }),
  ]);
  assert.equal(count, 3);
  assert.equal(
    text,
    [
      "Problems in a (2 errors, 1 warning):",
      "a.ts:4:1: error: missing",
      "src/x.ts:9:3: error: Type 'string' is not 'number' [ts 2322]",
      "b.ts:2:1: warning: unused",
    ].join("\n"),
  );
  assert.equal(problemsText("/w/a", []).text, "Problems in a (none):");
});

test("problems: bounded in count and size, the rest counted", () => {
  const many = Array.from({ length: 50 }, (_, i) => problem({ line: i + 1, message: "x".repeat(100) }));
  const byCount = problemsText("/w/a", many, { maxItems: 5, maxChars: 1_000_000 });
  assert.equal(byCount.text.split("\n").length, 1 + 5 + 1);
  assert.match(byCount.text, /\[… 45 more not listed\]$/);
  const bySize = problemsText("/w/a", many, { maxItems: 1000, maxChars: 1000 });
  assert.ok(bySize.text.length <= 1000 + 40, `bounded: ${bySize.text.length}`);
  assert.match(bySize.text, /more not listed/);
});

test("terminal log: the newest output is kept within the bound, oldest runs go first", () => {
  const log = new TerminalLog(100);
  const a = log.start("echo a", "/w/a");
  log.append(a, "a".repeat(60));
  log.end(a, 0);
  const b = log.start("echo b", "/w/a");
  log.append(b, "b".repeat(60));
  log.end(b, 1);
  // a lost the start of its output; b is whole.
  const size = log.runs().reduce((n, r) => n + r.command.length + r.output.length, 0);
  assert.ok(size <= 100, `bounded: ${size}`);
  assert.equal(log.runs().at(-1)?.output, "b".repeat(60));
  const c = log.start("yes", "/w/a");
  log.append(c, "c\n".repeat(200));
  assert.deepEqual(
    log.runs().map((r) => r.command),
    ["yes"],
    "a run alone over the bound keeps its newest output",
  );
  assert.ok(c.truncated && c.output.endsWith("c\n") && c.output.length <= 97);
  // Output for a run already dropped is ignored.
  log.append(a, "late");
  assert.ok(!log.runs().includes(a));
});

test("terminal log: at most maxRuns runs", () => {
  const log = new TerminalLog(1_000_000, 3);
  for (let i = 0; i < 5; i++) log.start(`cmd${i}`, "/w");
  assert.deepEqual(
    log.runs().map((r) => r.command),
    ["cmd2", "cmd3", "cmd4"],
  );
});

test("terminal text: escape sequences and redrawn lines removed; runs formatted with their exit codes", () => {
  assert.equal(plainTerminalText("\u001b[1;32mok\u001b[0m\r\n\u001b]633;D;0\u0007done\r\n"), "ok\ndone\n");
  assert.equal(plainTerminalText("10%\r50%\r100%\n"), "100%\n");
  const log = new TerminalLog(40);
  const r = log.start("npm test", "/w");
  log.append(r, "line one\nline two\nline three\nfailed: 1\n");
  log.end(r, 1);
  const text = formatTerminalRuns("bash", log.runs());
  assert.match(text, /^Recent output of terminal "bash":\n\n\$ npm test\n\[… earlier output dropped\]\n/);
  assert.match(text, /failed: 1\n\[exit code 1\]$/);
  assert.doesNotMatch(text, /line one/);
});

test("a symbol: embedded as its file's line range, else a link naming it", () => {
  const sym = {
    kind: "symbol" as const,
    path: "/w/a/src/m.ts",
    name: "greet",
    symbolKind: "function",
    startLine: 3,
    endLine: 5,
    text: "function greet() {}",
  };
  assert.deepEqual(mentionBlocks(sym, true).blocks, [
    { type: "resource", resource: { uri: "file:///w/a/src/m.ts#L3-L5", mimeType: "text/plain", text: "function greet() {}" } },
  ]);
  assert.deepEqual(mentionBlocks(sym, false).blocks, [
    { type: "resource_link", uri: "file:///w/a/src/m.ts", name: "m.ts", description: "function greet, lines 3-5" },
  ]);
  assert.equal(attachmentLabel(sym), "greet (m.ts:3)");
});

test("problems and terminal output: embedded text resources, else quoted into the message", () => {
  const problems = { kind: "problems" as const, folder: "/w/alpha", count: 1, text: "Problems in alpha (1 error):\nx.ts:1:1: error: bad" };
  const term = { kind: "terminal" as const, name: "my shell", text: "Recent output…" };
  assert.deepEqual(buildPrompt("look", [problems, term], { embeddedContext: true, image: false }), [
    { type: "text", text: "look" },
    { type: "resource", resource: { uri: "manifold://problems/alpha", mimeType: "text/plain", text: problems.text } },
    { type: "resource", resource: { uri: "manifold://terminal/my%20shell", mimeType: "text/plain", text: "Recent output…" } },
  ]);
  assert.deepEqual(buildPrompt("look", [problems, term], { embeddedContext: false, image: false }), [
    { type: "text", text: `look\n\n${problems.text}\n\nRecent output…` },
  ]);
  assert.equal(attachmentLabel(problems), "Problems (1)");
  assert.equal(attachmentLabel(term), "Terminal: my shell");
});

test("a symbol's text is bounded in lines and characters", () => {
  assert.equal(boundText("a\nb\nc", { maxLines: 2, maxChars: 100 }), "a\nb\n[… cut]");
  assert.equal(boundText("abcdef", { maxLines: 10, maxChars: 3 }), "abc\n[… cut]");
  assert.equal(boundText("short"), "short");
});
