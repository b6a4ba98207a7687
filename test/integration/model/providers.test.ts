// Both providers over real HTTP against the fake model server: streamed text, reasoning,
// reassembled tool-call arguments, usage, finish reasons, auth header style and message shape.
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import type { ChatMessage, ModelEvent } from "../../../agent-server/model/types";
import { startFakeModelServer, type FakeModelServer } from "../../support/fakeModelServer";
import { clientFor, collect, SECRET_KEY, userSays } from "../../support/modelClient";

const ARGS = { path: "docs/ünïcödé 文件.md", offset: 3, nested: { list: [1, "two", null], emoji: "🙂" } };

describe("model providers against the fake server", () => {
  let server: FakeModelServer;
  before(async () => {
    server = await startFakeModelServer();
  });
  after(() => server.close());
  beforeEach(() => server.reset());

  for (const provider of ["openai-compatible", "anthropic"] as const) {
    it(`${provider}: streams text, reasoning and a tool call with split arguments reassembled exactly`, async () => {
      server.enqueue({
        reasoning: ["Let me ", "think."],
        text: ["I will ", "read ", "the file."],
        toolCalls: [{ name: "read_file", args: ARGS, id: "call-1" }],
        usage: { input: 42, output: 17 },
      });
      const events = await collect(clientFor(server, provider));
      const expected: ModelEvent[] = [
        { type: "reasoning-delta", text: "Let me " },
        { type: "reasoning-delta", text: "think." },
        { type: "text-delta", text: "I will " },
        { type: "text-delta", text: "read " },
        { type: "text-delta", text: "the file." },
        { type: "tool-call", toolCallId: "call-1", toolName: "read_file", input: ARGS },
        { type: "finish", reason: "tool-calls", usage: { inputTokens: 42, outputTokens: 17, totalTokens: 59 } },
      ];
      assert.deepEqual(events, expected);
    });

    it(`${provider}: two tool calls in one step keep their own arguments`, async () => {
      server.enqueue({
        toolCalls: [
          { name: "read_file", args: { path: "a.txt" }, id: "c1" },
          { name: "read_file", args: { path: "b/ç.txt" }, id: "c2" },
        ],
        usage: { input: 1, output: 1 },
      });
      const events = await collect(clientFor(server, provider));
      assert.deepEqual(
        events.filter((e) => e.type === "tool-call"),
        [
          { type: "tool-call", toolCallId: "c1", toolName: "read_file", input: { path: "a.txt" } },
          { type: "tool-call", toolCallId: "c2", toolName: "read_file", input: { path: "b/ç.txt" } },
        ],
      );
    });

    it(`${provider}: plain text ends with reason stop`, async () => {
      server.enqueue({ text: "Done.", usage: { input: 5, output: 1 } });
      const events = await collect(clientFor(server, provider));
      assert.deepEqual(events, [
        { type: "text-delta", text: "Done." },
        { type: "finish", reason: "stop", usage: { inputTokens: 5, outputTokens: 1, totalTokens: 6 } },
      ]);
    });
  }

  it("openai-compatible: sends Bearer auth, the model, the system prompt, tools and the converted history", async () => {
    server.enqueue({ text: "ok" });
    const history: ChatMessage[] = [
      userSays("read a.txt"),
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "hidden" },
          { type: "text", text: "Reading." },
          { type: "tool-call", toolCallId: "c1", toolName: "read_file", input: { path: "a.txt" } },
        ],
      },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "read_file", output: "hello", isError: false }] },
    ];
    await collect(clientFor(server, "openai-compatible"), history);
    const [req] = server.requests;
    assert.ok(req);
    assert.equal(req.protocol, "openai");
    assert.equal(req.headers.authorization, `Bearer ${SECRET_KEY}`);
    assert.equal(req.model, "fake-model");
    assert.equal(req.body.stream, true);
    assert.equal(req.lastUserText, "read a.txt");
    assert.equal(req.afterToolResult, true);
    assert.deepEqual(req.toolNames, ["read_file"]);
    assert.deepEqual(req.messages, [
      { role: "system", content: "You are a test." },
      { role: "user", content: "read a.txt" },
      {
        role: "assistant",
        content: "Reading.",
        tool_calls: [{ id: "c1", type: "function", function: { name: "read_file", arguments: '{"path":"a.txt"}' } }],
      },
      { role: "tool", tool_call_id: "c1", content: "hello" },
    ]);
  });

  it("anthropic: sends x-api-key (not Bearer), the system prompt and tool results as user blocks", async () => {
    server.enqueue({ text: "ok" });
    const history: ChatMessage[] = [
      userSays("read a.txt"),
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "t1", toolName: "read_file", input: { path: "a.txt" } }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "t1", toolName: "read_file", output: "no such file", isError: true }] },
    ];
    await collect(clientFor(server, "anthropic"), history);
    const [req] = server.requests;
    assert.ok(req);
    assert.equal(req.protocol, "anthropic");
    assert.equal(req.headers["x-api-key"], SECRET_KEY);
    assert.equal(req.headers.authorization, undefined);
    assert.equal(typeof req.headers["anthropic-version"], "string");
    assert.deepEqual(req.body.system, [{ type: "text", text: "You are a test." }]);
    assert.equal(req.afterToolResult, true);
    assert.equal(req.lastUserText, "read a.txt");
    const last = req.messages[req.messages.length - 1];
    assert.deepEqual(last, {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "t1", content: "no such file", is_error: true }],
    });
  });

  it("sends no tools field when the step offers no tools", async () => {
    server.enqueue({ text: "ok" });
    await collect(clientFor(server, "openai-compatible"), undefined, { tools: [] });
    assert.equal(server.requests[0]?.body.tools, undefined);
  });

  it("routes concurrent requests by a marker in the last user text, across tool-result steps", async () => {
    server.route("[A]", { toolCalls: [{ name: "read_file", args: { path: "a" }, id: "a1" }] }, { text: "A done" });
    server.route("[B]", { text: "B done" });
    server.script((req) => ({ text: `echo:${req.lastUserText}` }));
    const a = clientFor(server, "openai-compatible");
    const [stepA, stepB, other] = await Promise.all([
      collect(a, [userSays("[A] go")]),
      collect(a, [userSays("[B] go")]),
      collect(a, [userSays("plain")]),
    ]);
    assert.deepEqual(stepA?.[0], { type: "tool-call", toolCallId: "a1", toolName: "read_file", input: { path: "a" } });
    assert.deepEqual(stepB?.[0], { type: "text-delta", text: "B done" });
    assert.deepEqual(other?.[0], { type: "text-delta", text: "echo:plain" });
    const next = await collect(a, [
      userSays("[A] go"),
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "a1", toolName: "read_file", input: { path: "a" } }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "a1", toolName: "read_file", output: "x", isError: false }] },
    ]);
    assert.deepEqual(next[0], { type: "text-delta", text: "A done" });
  });
});
