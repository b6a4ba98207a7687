// The hand-checked fast paths of a log line (turn/start, turn/end, user/message, streamed text, tool calls and results) give
// exactly what the schema gives for a valid line, and leave anything else to the schema's verdict.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkedEntry, fastEntry, parseEntry } from "../../../agent-server/session/entry";
import { CorruptSessionError } from "../../../agent-server/session/errors";
import { parseLog } from "../../../agent-server/session/parse";

const at = "2026-12-01T00:00:00.000Z";
const header = JSON.stringify({ type: "header", version: 1, id: "s", cwd: "/w", createdAt: at });

type Raw = Record<string, unknown>;

/** zod alone on the same line: the reference. */
function viaSchema(line: string): unknown {
  const raw = JSON.parse(line) as Raw;
  return checkedEntry(raw, raw.seq as number, raw.at as string);
}

const line = (e: Raw, seq = 1): string => JSON.stringify({ ...e, seq, at });

const valid: Raw[] = [
  { type: "turn/start", turnId: "t1", messageId: "m1", source: "user" },
  { type: "turn/start", turnId: "t2", messageId: null, source: "task" },
  { type: "turn/start", turnId: "t3", messageId: "m3", source: "subagent", extra: 1 },
  { type: "turn/end", turnId: "t1", reason: "end_turn" },
  { type: "turn/end", turnId: "t1", reason: "error", error: "boom" },
  { type: "turn/end", turnId: "t1", reason: "interrupted", note: "stripped" },
  { type: "user/message", messageId: "m1", content: [{ type: "text", text: "hi" }] },
  { type: "user/message", messageId: "m1", content: [] },
  {
    type: "user/message",
    messageId: "m1",
    content: [
      { text: "order", type: "text" },
      { type: "text", text: "" },
    ],
    extra: true,
  },
  { type: "assistant/text", messageId: "a", text: "x" },
  { type: "assistant/thought", messageId: "a", text: "y", extra: [] },
  { type: "tool/call", toolCallId: "c", name: "read_file", input: { path: "a" }, title: "Read a", kind: "read" },
  { type: "tool/call", toolCallId: "c", name: "bash", input: null, title: "t", kind: "execute", locations: [] },
  { type: "tool/call", toolCallId: "c", name: "n", input: [1], title: "t", kind: "k", locations: [{ path: "a" }, { path: "b", line: 3 }] },
  { type: "tool/call", toolCallId: "c", name: "n", input: "s", title: "t", kind: "k", extra: 1 },
  { type: "tool/result", toolCallId: "c", status: "completed", output: "ok", isError: false },
  { type: "tool/result", toolCallId: "c", status: "failed", output: "", isError: true, content: [] },
  {
    type: "tool/result",
    toolCallId: "c",
    status: "completed",
    output: "o",
    isError: false,
    content: [
      { type: "content", content: { type: "text", text: "out" } },
      { type: "diff", path: "/w/a", oldText: "x", newText: "y" },
      { type: "diff", path: "/w/b", oldText: null, newText: "new" },
      { type: "diff", path: "/w/c", newText: "created" },
    ],
  },
];

const malformed: Raw[] = [
  { type: "turn/start", turnId: 1, messageId: "m", source: "user" },
  { type: "turn/start", turnId: "t", source: "user" },
  { type: "turn/start", turnId: "t", messageId: 5, source: "user" },
  { type: "turn/start", turnId: "t", messageId: "m", source: "robot" },
  { type: "turn/start", turnId: "t", messageId: "m", source: "toString" },
  { type: "turn/end", turnId: "t", reason: "done" },
  { type: "turn/end", turnId: "t", reason: "end_turn", error: 3 },
  { type: "turn/end", turnId: "t", reason: "end_turn", error: null },
  { type: "turn/end", reason: "end_turn" },
  { type: "user/message", messageId: "m", content: "hi" },
  { type: "user/message", messageId: "m", content: [{ type: "text" }] },
  { type: "user/message", messageId: "m", content: [{ type: "text", text: 1 }] },
  { type: "user/message", messageId: "m", content: [null] },
  { type: "user/message", messageId: "m", content: [["text"]] },
  { type: "user/message", messageId: "m", content: [{ type: "text", text: "x", annotations: { priority: "high" } }] },
  { type: "user/message", messageId: "m", content: [{ type: "image", data: "x" }] },
  { type: "user/message", content: [{ type: "text", text: "x" }] },
  { type: "tool/call", toolCallId: 1, name: "n", input: {}, title: "t", kind: "k" },
  { type: "tool/call", toolCallId: "c", name: "n", title: "t", kind: "k" },
  { type: "tool/call", toolCallId: "c", name: "n", input: {}, title: 5, kind: "k" },
  { type: "tool/call", toolCallId: "c", name: "n", input: {}, title: "t" },
  { type: "tool/call", toolCallId: "c", name: "n", input: {}, title: "t", kind: "k", locations: [{ line: 1 }] },
  { type: "tool/call", toolCallId: "c", name: "n", input: {}, title: "t", kind: "k", locations: [{ path: "a", line: "1" }] },
  { type: "tool/call", toolCallId: "c", name: "n", input: {}, title: "t", kind: "k", locations: { path: "a" } },
  { type: "tool/result", toolCallId: "c", status: "done", output: "o", isError: false },
  { type: "tool/result", toolCallId: "c", status: "completed", output: 1, isError: false },
  { type: "tool/result", toolCallId: "c", status: "completed", output: "o", isError: "no" },
  { type: "tool/result", toolCallId: "c", status: "completed", output: "o", isError: false, content: "x" },
  { type: "tool/result", toolCallId: "c", status: "completed", output: "o", isError: false, content: [{ type: "content" }] },
  { type: "tool/result", toolCallId: "c", status: "completed", output: "o", isError: false, content: [{ type: "diff", path: "a" }] },
  {
    type: "tool/result",
    toolCallId: "c",
    status: "completed",
    output: "o",
    isError: false,
    content: [{ type: "diff", path: "a", oldText: 3, newText: "n" }],
  },
  { type: "tool/result", toolCallId: "c", status: "completed", output: "o", isError: false, content: [{ type: "picture" }] },
  { type: "tool/result", toolCallId: "c", status: "completed", output: "o", isError: false, content: [null] },
];

// Valid by the schema, but not the plain shape the fast path takes: the schema decides.
const schemaOnly: Raw[] = [
  { type: "user/message", messageId: "m", content: [{ type: "text", text: "x", annotations: { priority: 0.5 }, _meta: { a: 1 } }] },
  {
    type: "user/message",
    messageId: "m",
    content: [
      { type: "text", text: "x" },
      { type: "resource_link", uri: "file:///w/a", name: "a" },
    ],
  },
  { type: "user/message", messageId: "m", content: [{ type: "text", text: "x", _meta: null }] },
  { type: "tool/call", toolCallId: "c", name: "n", input: {}, title: "t", kind: "k", locations: [{ path: "a", column: 2 }] },
  {
    type: "tool/result",
    toolCallId: "c",
    status: "completed",
    output: "o",
    isError: false,
    content: [{ type: "terminal", terminalId: "term-1" }],
  },
  {
    type: "tool/result",
    toolCallId: "c",
    status: "completed",
    output: "o",
    isError: false,
    content: [{ type: "content", content: { type: "text", text: "x", annotations: { priority: 1 } }, _meta: { k: 1 } }],
  },
  {
    type: "tool/result",
    toolCallId: "c",
    status: "completed",
    output: "o",
    isError: false,
    content: [{ type: "diff", path: "a", newText: "n", extra: true }],
  },
  {
    type: "tool/result",
    toolCallId: "c",
    status: "completed",
    output: "o",
    isError: false,
    content: [{ type: "content", content: { type: "image", data: "AA==", mimeType: "image/png" } }],
  },
];

describe("session log: a line's fast path", () => {
  it("a valid turn/start, turn/end, user/message, text, tool/call or tool/result line gives what the schema gives, field for field and in its order", () => {
    for (const e of valid) {
      const l = line(e);
      const reference = viaSchema(l);
      assert.notEqual(reference, null, l);
      assert.notEqual(fastEntry(JSON.parse(l) as Raw, 1, at), undefined, `fast path taken: ${l}`);
      assert.deepStrictEqual(parseEntry(l), reference, l);
      assert.equal(JSON.stringify(parseEntry(l)), JSON.stringify(reference), l);
    }
  });

  it("a malformed line of those types is left to the schema, which refuses it", () => {
    for (const e of malformed) {
      const l = line(e);
      assert.equal(fastEntry(JSON.parse(l) as Raw, 1, at), undefined, l);
      assert.equal(viaSchema(l), null, l);
      assert.equal(parseEntry(l), null, l);
    }
  });

  it("a valid prompt with annotations, _meta or other blocks is the schema's to check, and keeps every field", () => {
    for (const e of schemaOnly) {
      const l = line(e);
      assert.equal(fastEntry(JSON.parse(l) as Raw, 1, at), undefined, l);
      const reference = viaSchema(l);
      assert.notEqual(reference, null, l);
      assert.deepStrictEqual(parseEntry(l), reference, l);
    }
  });

  it("a line without an integer seq or a string at is no entry", () => {
    assert.equal(parseEntry(JSON.stringify({ type: "turn/end", turnId: "t", reason: "end_turn", seq: 1.5, at })), null);
    assert.equal(parseEntry(JSON.stringify({ type: "turn/end", turnId: "t", reason: "end_turn", seq: 1 })), null);
    assert.equal(parseEntry("[1]"), null);
    assert.equal(parseEntry("{"), null);
  });
});

describe("session log: a malformed line of a fast-path type in a log", () => {
  const cases: [string, Raw][] = [
    ["turn/start", { type: "turn/start", turnId: "t", messageId: "m", source: "robot" }],
    ["turn/end", { type: "turn/end", turnId: "t", reason: "finished" }],
    ["user/message", { type: "user/message", messageId: "m", content: [{ type: "text", text: 42 }] }],
  ];
  for (const [type, bad] of cases) {
    it(`${type}: in the middle it makes the log corrupt; as the last line it is cut as torn`, () => {
      const good = line({ type: "session/title", title: "x" }, 1);
      const middle = [header, good, line(bad, 2), line({ type: "session/title", title: "y" }, 3)].join("\n") + "\n";
      assert.throws(() => parseLog("s", middle), CorruptSessionError);
      const last = [header, good, line(bad, 2)].join("\n") + "\n";
      const parsed = parseLog("s", last);
      assert.equal(parsed.torn, true);
      assert.equal(parsed.entries.length, 1);
      assert.equal(parsed.goodLength, Buffer.byteLength([header, good].join("\n") + "\n"));
    });
  }
});
