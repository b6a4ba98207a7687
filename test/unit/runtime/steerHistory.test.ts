// History of steers, slash commands and images: a steer is user content where it landed (applied or not), `/compact`
// and `/clear` start the model's context over, `/init` reaches the model as its instruction, and a
// model that cannot see images gets placeholders. Pure.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseCommand } from "../../../agent-server/runtime/slashCommands";
import { base64Bytes, buildMessages, imagesAfter } from "../../../agent-server/runtime/history";
import type { LogEntry, SessionEvent } from "../../../agent-server/session/events";

function log(events: SessionEvent[]): LogEntry[] {
  return events.map((e, i) => ({ ...e, seq: i + 1, at: "2026-12-01T00:00:00.000Z" }) as LogEntry);
}

const turn = (turnId: string, text: string): SessionEvent[] => [
  { type: "turn/start", turnId, messageId: `u-${turnId}`, source: "user" },
  { type: "user/message", messageId: `u-${turnId}`, content: [{ type: "text", text }] },
];
const reply = (turnId: string, text: string): SessionEvent[] => [
  { type: "assistant/text", messageId: `a-${turnId}`, text },
  { type: "turn/end", turnId, reason: "end_turn" },
];
const text = (t: string) => ({ type: "text" as const, text: t });

describe("history: steers", () => {
  it("a steer after a tool result is a user message of its own, before the next step's reply", () => {
    const msgs = buildMessages(
      log([
        ...turn("t1", "fix it"),
        { type: "tool/call", toolCallId: "c1", name: "read_file", input: { path: "a" }, title: "Read a", kind: "read" },
        { type: "tool/result", toolCallId: "c1", status: "completed", output: "A", isError: false },
        { type: "user/steer", messageId: "s1", content: [text("use tabs")], applied: true },
        ...reply("t1", "done"),
      ]),
    );
    assert.deepEqual(
      msgs.map((m) => m.role),
      ["user", "assistant", "tool", "user", "assistant"],
    );
    assert.deepEqual(msgs[3], { role: "user", content: [text("use tabs")] });
  });

  it("a steer taken in before any reply joins the turn's user message; one recorded unapplied stays history", () => {
    const joined = buildMessages(
      log([...turn("t1", "go"), { type: "user/steer", messageId: "s1", content: [text("faster")], applied: true }, ...reply("t1", "ok")]),
    );
    assert.deepEqual(joined[0], { role: "user", content: [text("go"), text("faster")] });
    const cancelled = buildMessages(
      log([
        ...turn("t1", "go"),
        { type: "user/steer", messageId: "s1", content: [text("mind the docs")], applied: false },
        { type: "turn/end", turnId: "t1", reason: "aborted" },
        ...turn("t2", "again"),
      ]),
    );
    assert.deepEqual(cancelled[0], { role: "user", content: [text("go"), text("mind the docs")] });
    assert.match(JSON.stringify(cancelled[1]), /not answered/);
    assert.deepEqual(cancelled[2], { role: "user", content: [text("again")] });
  });
});

describe("history: commands", () => {
  it("/compact: only the summary, opening the next user message; the command and the old turns are gone", () => {
    const msgs = buildMessages(
      log([
        ...turn("t1", "one"),
        ...reply("t1", "first"),
        ...turn("t2", "/compact"),
        { type: "assistant/text", messageId: "a2", text: "SUM" },
        { type: "context/reset", command: "compact", summary: "SUM" },
        { type: "turn/end", turnId: "t2", reason: "end_turn" },
        ...turn("t3", "next"),
      ]),
    );
    assert.deepEqual(msgs, [
      {
        role: "user",
        content: [text("[Summary of the earlier conversation, written by you when the user ran /compact]\nSUM"), text("next")],
      },
    ]);
  });

  it("/clear: nothing before it; a failed /compact (no reset) sends neither the command nor a reset", () => {
    const cleared = buildMessages(
      log([
        ...turn("t1", "one"),
        ...reply("t1", "first"),
        ...turn("t2", "/clear"),
        { type: "context/reset", command: "clear" },
        { type: "turn/end", turnId: "t2", reason: "end_turn" },
        ...turn("t3", "next"),
      ]),
    );
    assert.deepEqual(cleared, [{ role: "user", content: [text("next")] }]);
    const failed = buildMessages(
      log([
        ...turn("t1", "one"),
        ...reply("t1", "first"),
        ...turn("t2", "/compact"),
        { type: "turn/end", turnId: "t2", reason: "error" },
        ...turn("t3", "next"),
      ]),
    );
    assert.deepEqual(
      failed.map((m) => m.role),
      ["user", "assistant", "user"],
    );
    assert.deepEqual(failed[2], { role: "user", content: [text("next")] });
  });

  it("/init reaches the model as its instruction; unknown or mid-text slashes are plain text", () => {
    const msgs = buildMessages(log([...turn("t1", "/init  be brief ")]));
    assert.match(JSON.stringify(msgs[0]), /Create or update the file AGENTS\.md/);
    assert.match(JSON.stringify(msgs[0]), /The user adds: be brief"/);
    assert.deepEqual(parseCommand([text("/compact")]), { name: "compact", args: "" });
    assert.deepEqual(parseCommand([text("  /init docs\nand tests")]), { name: "init", args: "docs\nand tests" });
    assert.equal(parseCommand([text("/usr/bin/env")]), null);
    assert.equal(parseCommand([text("/compactly")]), null);
    assert.equal(parseCommand([text("please /clear")]), null);
    assert.equal(parseCommand([{ type: "resource_link", uri: "file:///x", name: "x" }]), null);
  });
});

describe("history: images", () => {
  const png = "iVBORw0KGgo=";
  const events = log([
    { type: "turn/start", turnId: "t1", messageId: "u1", source: "user" },
    {
      type: "user/message",
      messageId: "u1",
      content: [
        text("see"),
        { type: "image", mimeType: "image/png", data: png },
        { type: "resource", resource: { uri: "file:///w/a.webp", mimeType: "image/webp", blob: png } },
      ],
    },
  ]);

  it("a vision model gets the images; a blind one gets placeholders naming them", () => {
    assert.deepEqual(buildMessages(events)[0], {
      role: "user",
      content: [text("see"), { type: "image", data: png, mimeType: "image/png" }, { type: "image", data: png, mimeType: "image/webp" }],
    });
    assert.deepEqual(buildMessages(events, { vision: false })[0], {
      role: "user",
      content: [
        text("see"),
        text("[image: image/png, 1 KiB — not shown: this model cannot see images]"),
        text("[image file:///w/a.webp: image/webp, 1 KiB — not shown: this model cannot see images]"),
      ],
    });
    assert.equal(imagesAfter(events, 0), 2);
    assert.equal(imagesAfter(events, 2), 0);
  });

  it("base64Bytes is the decoded size", () => {
    assert.equal(base64Bytes(Buffer.alloc(10).toString("base64")), 10);
    assert.equal(base64Bytes(Buffer.alloc(11).toString("base64")), 11);
    assert.equal(base64Bytes(Buffer.alloc(12).toString("base64")), 12);
    assert.equal(base64Bytes(""), 0);
  });
});
