// The log stores ACP content (prompt blocks, tool-call content) as the SDK's own types, checked when
// a log is read back from disk; every field it does not check is kept verbatim.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { entryToUpdates } from "../../../agent-server/acp/updates";
import { CorruptSessionError } from "../../../agent-server/session/errors";
import { parseLog } from "../../../agent-server/session/parse";

const at = "2026-11-30T00:00:00.000Z";
const header = JSON.stringify({ type: "header", version: 1, id: "s", cwd: "/w", createdAt: at });

// Lines exactly as the code before this change wrote them (the shape on disk is unchanged).
const prompt = [
  { type: "text", text: "look at this", annotations: { audience: ["user"], priority: 0.5 }, _meta: { "x/y": 1 } },
  { type: "resource_link", uri: "file:///w/a.ts", name: "a.ts", size: 12 },
  { type: "resource", resource: { uri: "file:///w/b.ts", text: "const b = 1;", mimeType: "text/x-typescript" } },
  { type: "resource", resource: { uri: "file:///w/c.png", blob: "iVBORw0KGgo=", mimeType: "image/png" } },
  { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
];
const card = [
  { type: "diff", path: "/w/a.ts", oldText: null, newText: "x" },
  { type: "content", content: { type: "text", text: "exit 0" } },
  { type: "terminal", terminalId: "t1" },
];
const oldLines = [
  header,
  JSON.stringify({ type: "turn/start", turnId: "t", messageId: "m", source: "user", seq: 1, at }),
  JSON.stringify({ type: "user/message", messageId: "m", content: prompt, seq: 2, at }),
  JSON.stringify({
    type: "tool/call",
    toolCallId: "c",
    name: "write_file",
    input: { path: "a.ts" },
    title: "Write a.ts",
    kind: "edit",
    seq: 3,
    at,
  }),
  JSON.stringify({ type: "tool/result", toolCallId: "c", status: "completed", output: "ok", isError: false, content: card, seq: 4, at }),
  JSON.stringify({ type: "turn/end", turnId: "t", reason: "end_turn", seq: 5, at }),
];

describe("session log: ACP content", () => {
  it("a log written by the earlier code loads, and its content comes back verbatim as ACP types", () => {
    const { entries } = parseLog("s", oldLines.join("\n") + "\n");
    const message = entries.find((e) => e.type === "user/message");
    const result = entries.find((e) => e.type === "tool/result");
    assert.deepEqual(message?.type === "user/message" && message.content, prompt);
    assert.deepEqual(result?.type === "tool/result" && result.content, card);
    // Replay hands the stored blocks on as they are.
    assert.deepEqual(
      entryToUpdates(message!).map((u) => (u.sessionUpdate === "user_message_chunk" ? u.content : null)),
      prompt,
    );
  });

  it("content that is not ACP is refused at parse, as a corrupt line", () => {
    const bad = [
      { type: "user/message", messageId: "m", content: [{ type: "text" }] },
      { type: "user/message", messageId: "m", content: [{ type: "image", data: "x" }] },
      { type: "tool/result", toolCallId: "c", status: "completed", output: "", isError: false, content: [{ type: "diff", path: "/w/a" }] },
      {
        type: "tool/result",
        toolCallId: "c",
        status: "completed",
        output: "",
        isError: false,
        content: [{ type: "content", content: { type: "nope" } }],
      },
    ];
    for (const event of bad) {
      const lines = [header, JSON.stringify({ ...event, seq: 1, at }), JSON.stringify({ type: "session/title", title: "t", seq: 2, at })];
      assert.throws(() => parseLog("s", lines.join("\n") + "\n"), CorruptSessionError, JSON.stringify(event));
    }
  });
});
