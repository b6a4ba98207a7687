import assert from "node:assert/strict";
import { test } from "node:test";
import type { SessionConfigOption } from "@agentclientprotocol/sdk";
import { configValueMismatch, PERMISSION_NOTE_MAX, rejectWithNote } from "../../../extension/common/webviewProtocol";
import { parseWebviewMessage } from "../../../extension/common/webviewMessages";

test("the webview protocol guard accepts each well-formed message", () => {
  const good = [
    { type: "ready" },
    { type: "prompt/send", text: "hi", attachmentIds: ["att-1"] },
    { type: "turn/cancel" },
    { type: "permission/answer", requestId: "perm-1", optionId: "allow" },
    { type: "permission/dismiss", requestId: "perm-1" },
    { type: "config/set", configId: "mode", value: "agent" },
    { type: "config/set", configId: "fast", value: true },
    { type: "mode/set", modeId: "plan" },
    { type: "location/open", path: "/ws/a.ts", line: 3 },
    { type: "location/open", path: "/ws/a.ts" },
    { type: "diff/open", toolCallId: "t1", contentIndex: 0 },
    { type: "composer/mention" },
    { type: "composer/attachSelection" },
    { type: "composer/detach", attachmentId: "att-1" },
    { type: "session/action", action: "new" },
  ];
  assert.deepEqual(good.map(parseWebviewMessage), good);
});

test("the webview protocol guard rejects malformed messages", () => {
  const bad: unknown[] = [
    null,
    undefined,
    "ready",
    42,
    [],
    {},
    { type: "unknown" },
    { type: "ready", extra: 1 },
    { type: "prompt/send", text: 5, attachmentIds: [] },
    { type: "prompt/send", text: "x" },
    { type: "prompt/send", text: "x", attachmentIds: [1] },
    { type: "permission/answer", requestId: "p" },
    { type: "permission/answer", requestId: "", optionId: "allow" },
    { type: "permission/answer", requestId: "p", optionId: { $gt: "" } },
    { type: "config/set", configId: "mode", value: { x: 1 } },
    { type: "location/open", path: "/x", line: 0 },
    { type: "location/open", path: "/x", line: 1.5 },
    { type: "location/open", path: "" },
    { type: "diff/open", toolCallId: "t", contentIndex: -1 },
    { type: "session/action", action: "rm -rf" },
    { type: "__proto__" },
    { type: "permission/dismiss", requestId: "x".repeat(201) },
  ];
  assert.deepEqual(
    bad.map((m) => parseWebviewMessage(m)),
    bad.map(() => undefined),
  );
});

test("transcript/page names the webview's first entry and asks for 1 to 500 entries, nothing else", () => {
  const good = [
    { type: "transcript/page", beforeId: "e42", count: 100 },
    { type: "transcript/page", beforeId: "e1", count: 1 },
    { type: "transcript/page", beforeId: "e1", count: 500 },
  ];
  assert.deepEqual(good.map(parseWebviewMessage), good);
  const bad: unknown[] = [
    { type: "transcript/page" },
    { type: "transcript/page", beforeId: "e1" },
    { type: "transcript/page", count: 100 },
    { type: "transcript/page", beforeId: "", count: 100 },
    { type: "transcript/page", beforeId: "x".repeat(201), count: 100 },
    { type: "transcript/page", beforeId: "e1", count: 0 },
    { type: "transcript/page", beforeId: "e1", count: 501 },
    { type: "transcript/page", beforeId: "e1", count: 1.5 },
    { type: "transcript/page", beforeId: "e1", count: "100" },
    { type: "transcript/page", beforeId: 7, count: 100 },
    { type: "transcript/page", beforeId: "e1", count: 100, all: true },
  ];
  assert.deepEqual(
    bad.map((m) => parseWebviewMessage(m)),
    bad.map(() => undefined),
  );
});

test("permission/answer may carry a rejection note: trimmed, at most PERMISSION_NOTE_MAX characters, a string only", () => {
  const base = { type: "permission/answer", requestId: "perm-1", optionId: "reject" };
  assert.deepEqual(parseWebviewMessage({ ...base, note: "  use staging  \n" }), { ...base, note: "use staging" });
  // Whitespace only trims to "", which the broker treats as a plain reject.
  assert.deepEqual(parseWebviewMessage({ ...base, note: " \t " }), { ...base, note: "" });
  assert.deepEqual(parseWebviewMessage({ ...base, note: "x".repeat(PERMISSION_NOTE_MAX) }), {
    ...base,
    note: "x".repeat(PERMISSION_NOTE_MAX),
  });
  for (const note of ["x".repeat(PERMISSION_NOTE_MAX + 1), 42, null, ["a"]])
    assert.equal(parseWebviewMessage({ ...base, note }), undefined);
});

test("Reject with a note… answers the agent's reject_once option with the trimmed note, and only when there is one", () => {
  const options = [
    { optionId: "ok", kind: "allow_once" },
    { optionId: "never", kind: "reject_always" },
    { optionId: "no", kind: "reject_once" },
  ];
  const msg = rejectWithNote("perm-1", options, "  try ./out  ");
  assert.deepEqual(msg, { type: "permission/answer", requestId: "perm-1", optionId: "no", note: "try ./out" });
  // What the card builds is what the host accepts.
  assert.deepEqual(parseWebviewMessage(msg), msg);
  assert.equal(rejectWithNote("perm-1", options, "x".repeat(PERMISSION_NOTE_MAX + 9))?.note?.length, PERMISSION_NOTE_MAX);
  assert.equal(rejectWithNote("perm-1", options.slice(0, 2), "why"), undefined);
});

test("config/set: a boolean value fits a boolean option only, a string value a select option only", () => {
  const options: SessionConfigOption[] = [
    { id: "fast", name: "Fast", type: "boolean", currentValue: false },
    { id: "model", name: "Model", type: "select", currentValue: "a", options: [{ value: "a", name: "A" }] },
  ];
  assert.deepEqual(
    [
      configValueMismatch(options, "fast", true),
      configValueMismatch(options, "fast", false),
      configValueMismatch(options, "model", "a"),
      configValueMismatch(options, "fast", "true"),
      configValueMismatch(options, "model", true),
      configValueMismatch(options, "other", true),
    ],
    [
      undefined,
      undefined,
      undefined,
      'the config option "fast" takes a true/false value',
      'the config option "model" takes a choice value',
      'the agent offers no config option "other"',
    ],
  );
});
