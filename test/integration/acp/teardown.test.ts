// Teardown and reload (I-77..85) over the in-memory connection.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { TeardownError } from "../../../agent-server/acp/bridge";
import { PromptSlot } from "../../../agent-server/acp/record";
import { Agent } from "../../../agent-server/runtime/agent";
import { createHarness, until, type Harness } from "../../support/inProcess";
import { finish, gate, text } from "../../support/scriptedModel";

describe("teardown (in-process)", () => {
  let h: Harness;
  beforeEach(() => {
    h = createHarness({ workspaces: 3 });
  });
  afterEach(() => h.cleanup());

  it("I-77: after teardown begins, new, load, prompt and set_config fail with internal error and drive nothing", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    const requestsBefore = h.model.requests.length;
    const t = c.bridge.teardown(); // `closed` is set synchronously
    assert.equal(c.bridge.closed, true);
    await t;
    const internal = (e: unknown) => e instanceof acp.RequestError && e.code === -32603;
    await assert.rejects(c.newSession(h.ws[0]!), internal);
    await assert.rejects(c.agent.request(acp.methods.agent.session.load, { sessionId: a, cwd: h.ws[0]!, mcpServers: [] }), internal);
    await assert.rejects(c.prompt(a, "x"), internal);
    await assert.rejects(
      c.agent.request(acp.methods.agent.session.setConfigOption, { sessionId: a, configId: "mode", value: "agent" }),
      internal,
    );
    assert.equal(h.live.agents.size, 0);
    assert.equal(h.model.requests.length, requestsBefore);
  });

  it("I-78: teardown resolves every in-flight prompt cancelled exactly once", async () => {
    const counts = new Map<string, number>();
    const original = PromptSlot.prototype.settle;
    PromptSlot.prototype.settle = function (this: PromptSlot, r) {
      const ok = original.call(this, r);
      if (ok) counts.set(this.messageId, (counts.get(this.messageId) ?? 0) + 1);
      return ok;
    };
    try {
      const c = await h.connect();
      const ids = [await c.newSession(h.ws[0]!), await c.newSession(h.ws[1]!), await c.newSession(h.ws[2]!)];
      h.model.fallback = () => [text("…"), { type: "hang" }];
      const prompts = ids.map((id) => c.prompt(id, "x"));
      await h.model.waitForRequests(3);
      await c.bridge.teardown();
      assert.deepEqual(
        await Promise.all(prompts),
        ids.map(() => ({ stopReason: "cancelled" })),
      );
      await new Promise((r) => setImmediate(r));
      assert.deepEqual([...counts.values()], [1, 1, 1]);
    } finally {
      PromptSlot.prototype.settle = original;
    }
  });

  it("I-79: teardown disposes every handle: registries empty, final turn/end{disposed} on disk", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    const b = await c.newSession(h.ws[1]!);
    h.model.fallback = () => [{ type: "hang" }];
    const pa = c.prompt(a, "x");
    const pb = c.prompt(b, "y");
    await h.model.waitForRequests(2);
    await c.bridge.teardown();
    await Promise.all([pa, pb]);
    assert.equal(h.live.agents.size, 0);
    assert.equal(h.live.sessions.size, 0);
    assert.equal(c.bridge.records.size, 0);
    for (const id of [a, b]) {
      const log = await h.store.open(id);
      const last = log.entries[log.entries.length - 1];
      assert.equal(last?.type === "turn/end" ? last.reason : last?.type, "disposed");
      await log.close();
    }
  });

  it("I-80: teardown is memoized: EOF and SIGTERM together dispose each handle once and both wait for the drain", async () => {
    const c = await h.connect();
    await c.newSession(h.ws[0]!);
    await c.newSession(h.ws[1]!);
    const calls = new Map<Agent, number>();
    const original = Agent.prototype.shutdown;
    Agent.prototype.shutdown = function (this: Agent) {
      calls.set(this, (calls.get(this) ?? 0) + 1);
      return original.call(this);
    };
    try {
      const drained: boolean[] = [];
      const eof = c.bridge.teardown().then(() => drained.push(h.live.agents.size === 0));
      const sigterm = c.bridge.teardown().then(() => drained.push(h.live.agents.size === 0));
      c.conn.close(); // the connection closing triggers it a third time
      await Promise.all([eof, sigterm]);
      assert.deepEqual(drained, [true, true]);
      assert.deepEqual([...calls.values()], [1, 1]);
    } finally {
      Agent.prototype.shutdown = original;
    }
  });

  it("I-81: one failing dispose does not stop the others; the error names every failed session", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    const b = await c.newSession(h.ws[1]!);
    const d = await c.newSession(h.ws[2]!);
    for (const id of [a, d]) {
      const agent = h.live.get(id)!;
      const original = agent.shutdown.bind(agent);
      agent.shutdown = async () => {
        await original();
        throw new Error(`disk on fire for ${id}`);
      };
    }
    const err = await c.bridge.teardown().then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(err instanceof TeardownError);
    assert.deepEqual(err.failures.map((f) => f.sessionId).sort(), [a, d].sort());
    assert.match(err.message, new RegExp(a));
    assert.match(err.message, new RegExp(d));
    assert.equal(h.live.agents.has(b), false);
    assert.equal(h.live.agents.size, 0);
  });

  it("I-83: no session/update is written after teardown completes", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    const g = gate();
    h.model.enqueue([text("before"), { type: "wait", gate: g }, text("after"), finish()]);
    const p = c.prompt(a, "x");
    await h.model.waitForRequests(1);
    await c.bridge.teardown();
    const seen = c.order.length;
    g.open();
    await p;
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    assert.equal(c.order.length, seen);
  });

  it("I-84: closing one of two connections leaves no orphan and does not touch the other's sessions", async () => {
    const c1 = await h.connect();
    const c2 = await h.connect();
    const a = await c1.newSession(h.ws[0]!);
    const b = await c2.newSession(h.ws[1]!);
    const g = gate();
    h.model.fallback = (req) =>
      JSON.stringify(req.messages).includes("[A]")
        ? [text("A"), { type: "hang" }]
        : [text("B1 "), { type: "wait", gate: g }, text("B2"), finish()];
    const pa = c1.prompt(a, "[A]").catch(() => "closed");
    const pb = c2.prompt(b, "[B]");
    await h.model.waitForRequests(2);
    c1.conn.close();
    await c1.bridge.teardown();
    await pa;
    assert.equal(h.live.agents.has(a), false);
    assert.equal(h.live.agents.has(b), true);
    g.open();
    assert.deepEqual(await pb, { stopReason: "end_turn" });
    assert.equal(c2.textOf(b), "B1 B2");
    assert.deepEqual([...h.live.agents.keys()], [b]);
  });

  it("I-85: disposing one session's handle mid-turn leaves its sibling streaming", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    const b = await c.newSession(h.ws[1]!);
    const g = gate();
    h.model.fallback = (req) =>
      JSON.stringify(req.messages).includes("[A]")
        ? [text("A"), { type: "hang" }]
        : [text("B1 "), { type: "wait", gate: g }, text("B2"), finish()];
    const pa = c.prompt(a, "[A]");
    const pb = c.prompt(b, "[B]");
    await h.model.waitForRequests(2);
    await c.agent.request(acp.methods.agent.session.close, { sessionId: a });
    assert.deepEqual(await pa, { stopReason: "cancelled" });
    g.open();
    assert.deepEqual(await pb, { stopReason: "end_turn" });
    assert.equal(c.textOf(b), "B1 B2");
    await until(() => !h.live.agents.has(a), "a gone");
  });
});
