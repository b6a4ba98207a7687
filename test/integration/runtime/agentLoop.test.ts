// The agent loop: turn checkpoints (I-86), step cap, usage, tool results fed back.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { createHarness, until, type Harness } from "../../support/inProcess";
import { createFakeTools, finish, text, toolCall } from "../../support/scriptedModel";

describe("agent loop", () => {
  let h: Harness;
  afterEach(() => h.cleanup());

  it("I-86: a turn is flushed and synced at its checkpoint before the next queued item is claimed", async () => {
    h = createHarness();
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    const agent = h.live.get(a)!;
    const order: string[] = [];
    const realCheckpoint = agent.session.checkpoint.bind(agent.session);
    agent.session.checkpoint = async () => {
      order.push(`checkpoint-start@${agent.session.lastSeq}`);
      await realCheckpoint();
      order.push("checkpoint-done");
    };
    h.live.bus.on((ev) => {
      if (ev.type === "agent/event" && ev.event.kind === "entry" && ev.event.entry.type === "turn/start") order.push("turn/start");
    });
    agent.enqueue({ messageId: "t1", content: [{ type: "text", text: "one" }], source: "task" });
    agent.enqueue({ messageId: "t2", content: [{ type: "text", text: "two" }], source: "task" });
    await until(() => order.filter((o) => o === "checkpoint-done").length === 2, "two checkpoints");
    assert.deepEqual(
      order.map((o) => o.replace(/@\d+/, "")),
      ["turn/start", "checkpoint-start", "checkpoint-done", "turn/start", "checkpoint-start", "checkpoint-done"],
    );
    // What the first checkpoint covered is on disk.
    const reread = await h.store.open(a);
    assert.equal(reread.entries.filter((e) => e.type === "turn/end").length, 2);
    await reread.close();
  });

  it("tool results are fed back to the model and the loop runs until it stops; usage is reported", async () => {
    h = createHarness({ tools: createFakeTools({ echo: (input) => ({ output: `echo:${JSON.stringify(input)}`, isError: false }) }) });
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    h.model.enqueue([text("calling "), toolCall("echo", { v: 1 }), finish("tool-calls")], [text("got it"), finish()]);
    assert.deepEqual(await c.prompt(a, "go"), { stopReason: "end_turn" });
    const second = h.model.requests[1]!;
    const toolMsg = second.messages[second.messages.length - 1];
    assert.equal(toolMsg?.role, "tool");
    assert.deepEqual(toolMsg?.role === "tool" ? toolMsg.content.map((p) => [p.toolName, p.output, p.isError]) : null, [
      ["echo", 'echo:{"v":1}', false],
    ]);
    const kinds = (c.updates.get(a) ?? []).map((u) => u.sessionUpdate);
    assert.deepEqual(kinds, [
      "available_commands_update",
      "session_info_update",
      "agent_message_chunk",
      "usage_update",
      "tool_call",
      "tool_call_update",
      "tool_call_update",
      "agent_message_chunk",
      "usage_update",
    ]);
    const usage = (c.updates.get(a) ?? []).find((u) => u.sessionUpdate === "usage_update");
    assert.deepEqual(usage, { sessionUpdate: "usage_update", used: 15, size: 1000 });
  });

  it("the step cap ends the turn with max_turn_requests", async () => {
    h = createHarness({ maxSteps: 3, tools: createFakeTools({ again: () => ({ output: "again", isError: false }) }) });
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    h.model.fallback = [toolCall("again", {}), finish("tool-calls")];
    const res = await c.agent.request(acp.methods.agent.session.prompt, { sessionId: a, prompt: [{ type: "text", text: "loop" }] });
    assert.deepEqual(res, { stopReason: "max_turn_requests" });
    assert.equal(h.model.requests.length, 3);
  });

  it("max_tokens and refusal finish reasons map to their stop reasons", async () => {
    h = createHarness();
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    h.model.enqueue([text("cut"), finish("length")]);
    assert.deepEqual(await c.prompt(a, "x"), { stopReason: "max_tokens" });
    h.model.enqueue([{ type: "finish", reason: "content-filter" }]);
    assert.deepEqual(await c.prompt(a, "y"), { stopReason: "refusal" });
  });
});

describe("background task notices", () => {
  let h: Harness;
  afterEach(() => h.cleanup());

  it("I-60: a completion notice reaches only the exact instance that started the task, inside its next user turn", async () => {
    let n = 0;
    h = createHarness({
      tasks: {
        start: async () => ({ taskId: `task-${++n}` }),
        output: async () => ({ output: "", running: false, exitCode: 0 }),
        kill: async () => ({ output: "", exitCode: 0 }),
        list: () => [],
      },
      tools: createFakeTools({
        bg: async (_i, ctx) => {
          const { taskId } = await ctx.tasks.start("sleep 1", { cwd: ctx.sandbox.root, unconfined: false });
          return { output: `started ${taskId}`, isError: false };
        },
      }),
    });
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    h.model.enqueue([toolCall("bg", {}), finish("tool-calls")], [text("started"), finish()]);
    await c.prompt(a, "start it");
    const first = h.live.get(a)!;
    assert.equal(first.noticeTaskExit("task-999", "not mine"), false);
    // A resumed instance of the same session does not receive the old instance's notice.
    await c.agent.request(acp.methods.agent.session.close, { sessionId: a });
    await c.agent.request(acp.methods.agent.session.load, { sessionId: a, cwd: h.ws[0]!, mcpServers: [] });
    const second = h.live.get(a)!;
    assert.notEqual(second, first);
    assert.equal(second.noticeTaskExit("task-1", "old instance's task"), false);
    assert.equal(first.noticeTaskExit("task-1", "old"), false); // disposed
    // A task the live instance started: delivered at its next user turn, before the user message.
    h.model.enqueue([toolCall("bg", {}), finish("tool-calls")], [text("again"), finish()]);
    await c.prompt(a, "start another");
    assert.equal(second.noticeTaskExit("task-2", "Background task task-2 finished with exit code 0."), true);
    h.model.enqueue([text("noted"), finish()]);
    await c.prompt(a, "what happened?");
    const types = second.session.entries.map((e) => e.type);
    const lastStart = types.lastIndexOf("turn/start");
    assert.deepEqual(types.slice(lastStart, lastStart + 3), ["turn/start", "task/notice", "user/message"]);
    const lastReq = h.model.requests[h.model.requests.length - 1]!;
    assert.deepEqual(lastReq.messages[lastReq.messages.length - 1], {
      role: "user",
      content: [
        { type: "text", text: "[Background task notice] Background task task-2 finished with exit code 0." },
        { type: "text", text: "what happened?" },
      ],
    });
  });
});
