// Cancellation (I-34..40) over the in-memory connection.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createHarness, until, type Harness } from "../../support/inProcess";
import { createFakeTools, finish, gate, text, toolCall } from "../../support/scriptedModel";

describe("cancellation (in-process)", () => {
  let h: Harness;
  beforeEach(() => {
    h = createHarness({
      tools: createFakeTools({
        throwsAbort: async (_i, ctx) => {
          await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
          const e = new Error("This operation was aborted");
          e.name = "AbortError";
          throw e;
        },
      }),
    });
  });
  afterEach(() => h.cleanup());

  it("I-34: cancelling hanging A leaves B's stop reason, text and tool calls unchanged", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    const b = await c.newSession(h.ws[1]!);
    const g = gate();
    h.model.fallback = (req) =>
      JSON.stringify(req.messages).includes("[A]")
        ? [text("A "), { type: "hang" }]
        : [text("B1 "), { type: "wait", gate: g }, text("B2"), finish()];
    const pa = c.prompt(a, "[A]");
    const pb = c.prompt(b, "[B]");
    await h.model.waitForRequests(2);
    await c.cancel(a);
    assert.deepEqual(await pa, { stopReason: "cancelled" });
    g.open();
    assert.deepEqual(await pb, { stopReason: "end_turn" });
    assert.equal(c.textOf(b), "B1 B2");
    const endsB = h.live.get(b)!.session.entries.flatMap((e) => (e.type === "turn/end" ? [e.reason] : []));
    assert.deepEqual(endsB, ["end_turn"]);
  });

  it("I-35: cancel for an unknown id is a silent no-op", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    const before = c.order.length;
    await c.cancel("does-not-exist");
    h.model.enqueue([text("fine"), finish()]);
    assert.deepEqual(await c.prompt(a, "x"), { stopReason: "end_turn" });
    assert.deepEqual(
      c.order.slice(before).filter((o) => !o.startsWith(`update:${a}`)),
      [],
    );
  });

  it("I-36: cancel clears queued work, so a queued-but-unstarted message never runs", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    const agent = h.live.get(a)!;
    h.model.enqueue([text("running "), { type: "hang" }]);
    h.model.enqueue([text("LEAKED"), finish()]);
    const pa = c.prompt(a, "first");
    await h.model.waitForRequests(1);
    agent.enqueue({ messageId: "queued-task", content: [{ type: "text", text: "queued" }], source: "task" });
    await c.cancel(a);
    assert.deepEqual(await pa, { stopReason: "cancelled" });
    await until(() => !agent.inTurn, "idle");
    assert.equal(h.model.requests.length, 1);
    assert.ok(!c.textOf(a).includes("LEAKED"));
    assert.equal(agent.session.entries.filter((e) => e.type === "turn/start").length, 1);
  });

  it("I-37: after cancel the prompt resolves cancelled even when the tool throws an abort error", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    h.model.enqueue([toolCall("throwsAbort", {}), finish("tool-calls")]);
    const pa = c.prompt(a, "x");
    await until(() => (c.updates.get(a) ?? []).some((u) => u.sessionUpdate === "tool_call"), "tool call");
    await c.cancel(a);
    assert.deepEqual(await pa, { stopReason: "cancelled" });
  });

  it("I-39: cancel during admission (before the turn starts) queues no late user message", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    const agent = h.live.get(a)!;
    const g = gate();
    h.model.enqueue([{ type: "wait", gate: g }, text("task"), finish()]);
    agent.enqueue({ messageId: "busy", content: [{ type: "text", text: "bg" }], source: "task" });
    await h.model.waitForRequests(1);
    const pa = c.prompt(a, "late");
    await c.cancel(a);
    g.open();
    assert.deepEqual(await pa, { stopReason: "cancelled" });
    await until(() => !agent.inTurn, "idle");
    const users = agent.session.entries.flatMap((e) => (e.type === "user/message" ? [e.messageId] : []));
    assert.deepEqual(users, ["busy"]);
    assert.equal(agent.session.entries.filter((e) => e.type === "turn/start").length, 1);
  });

  it("I-40: a cancelled turn is persisted `aborted`, a turn ended by teardown `disposed`", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    const b = await c.newSession(h.ws[1]!);
    h.model.fallback = () => [text("…"), { type: "hang" }];
    const pa = c.prompt(a, "x");
    const pb = c.prompt(b, "y");
    await h.model.waitForRequests(2);
    await c.cancel(a);
    assert.deepEqual(await pa, { stopReason: "cancelled" });
    const logB = h.live.get(b)!.session;
    const logA = h.live.get(a)!.session;
    await c.bridge.teardown();
    assert.deepEqual(await pb, { stopReason: "cancelled" });
    const reasons = (entries: typeof logA.entries) => entries.flatMap((e) => (e.type === "turn/end" ? [e.reason] : []));
    assert.deepEqual(reasons(logA.entries), ["aborted"]);
    assert.deepEqual(reasons(logB.entries), ["disposed"]);
    // and durably so
    const reread = await h.store.open(b);
    assert.deepEqual(reasons(reread.entries), ["disposed"]);
    await reread.close();
  });

  it("session/close during a prompt cancels that prompt and frees the session", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    h.model.enqueue([{ type: "hang" }]);
    const pa = c.prompt(a, "x");
    await h.model.waitForRequests(1);
    await c.agent.request(acp.methods.agent.session.close, { sessionId: a });
    assert.deepEqual(await pa, { stopReason: "cancelled" });
    assert.equal(h.live.get(a), undefined);
    assert.equal(c.bridge.records.has(a), false);
    // it can be loaded again
    await c.agent.request(acp.methods.agent.session.load, { sessionId: a, cwd: h.ws[0]!, mcpServers: [] });
    assert.ok(c.bridge.records.has(a));
  });
});
