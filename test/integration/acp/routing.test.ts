// Routing, ownership and the prompt lifecycle over the SDK's in-memory connection (I-1..5, I-26..33).
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { Agent } from "../../../agent-server/runtime/agent";
import { LOG_FORMAT_VERSION } from "../../../agent-server/session/events";
import { SessionLog } from "../../../agent-server/session/log";
import { createHarness, until, type Harness } from "../../support/inProcess";
import { createFakeTools, finish, gate, text, toolCall, type Gate } from "../../support/scriptedModel";
import type { PermissionAnswer } from "../../../agent-server/policy/types";
import { ModelError } from "../../../agent-server/model/types";

const isCode = (code: number) => (err: unknown) => err instanceof acp.RequestError && err.code === code;

function entriesOf(h: Harness, id: string): string[] {
  return (h.live.get(id)?.session.entries ?? []).map((e) => e.type);
}

describe("ACP routing and prompts (in-process)", () => {
  let h: Harness;
  const answers: PermissionAnswer[] = [];
  let toolGate: Gate | null = null;
  beforeEach(() => {
    answers.length = 0;
    toolGate = null;
    h = createHarness({
      tools: createFakeTools({
        ask: async (_input, ctx) => {
          answers.push(await ctx.requestPermission({ title: "Run it", reason: "test", grantKey: "bash:x" }));
          return { output: "asked", isError: false };
        },
        slow: async () => {
          if (toolGate) await toolGate.promise;
          return { output: "slow done", isError: false };
        },
      }),
    });
  });
  afterEach(() => h.cleanup());

  it("I-1: concurrent prompts of two sessions stream only their own text", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    const b = await c.newSession(h.ws[1]!);
    h.model.fallback = (req) => {
      const last = JSON.stringify(req.messages[req.messages.length - 1]);
      const who = last.includes("[A]") ? "alpha" : "bravo";
      return [text(`${who}-1 `), text(`${who}-2 `), text(`${who}-3`), finish()];
    };
    await Promise.all([c.prompt(a, "[A]"), c.prompt(b, "[B]")]);
    assert.equal(c.textOf(a), "alpha-1 alpha-2 alpha-3");
    assert.equal(c.textOf(b), "bravo-1 bravo-2 bravo-3");
  });

  it("I-2: an impostor agent with a live record's id gets no updates, settlements or permission requests", async () => {
    const c = await h.connect();
    const id = await c.newSession(h.ws[0]!);
    const real = h.live.get(id)!;
    const sink = { write: () => undefined, sync: async () => undefined, close: async () => undefined };
    const log = new SessionLog({ type: "header", version: LOG_FORMAT_VERSION, id, cwd: real.cwd, createdAt: "x" }, [], sink);
    const impostor = new Agent({ log, root: real.root, tmpDir: real.tmpDir, services: h.services, hooks: h.live.hooks });
    h.model.enqueue([toolCall("ask", {}), finish("tool-calls")], [text("impostor text"), finish()]);
    const before = (c.updates.get(id) ?? []).length;
    impostor.enqueue({ messageId: "imp", content: [{ type: "text", text: "hi" }], source: "user" });
    await until(() => log.entries.some((e) => e.type === "turn/end"), "impostor turn end");
    assert.deepEqual(answers, ["reject"]);
    assert.equal((c.updates.get(id) ?? []).length, before);
    assert.equal(c.permissionRequests.length, 0);
    assert.equal(c.bridge.records.get(id)?.agent, real);
    await impostor.shutdown();
  });

  it("I-3: an agent created directly through the LiveAgents (not through ACP) produces no wire traffic", async () => {
    const c = await h.connect();
    const direct = await h.live.create({ cwd: h.ws[0]! });
    h.model.enqueue([toolCall("ask", {}), finish("tool-calls")], [text("direct"), finish()]);
    const framesBefore = c.order.length;
    direct.enqueue({ messageId: "d1", content: [{ type: "text", text: "x" }], source: "user" });
    await until(() => direct.session.entries.some((e) => e.type === "turn/end"), "direct turn end");
    assert.equal(c.order.length, framesBefore);
    assert.deepEqual(answers, ["reject"]);
    await h.live.dispose(direct);
  });

  it("I-4: bus listener count does not grow with sessions", async () => {
    const c = await h.connect();
    await c.newSession(h.ws[0]!);
    const one = h.live.bus.listenerCount;
    for (let i = 0; i < 49; i++) await c.newSession(h.ws[i % 2]!);
    assert.equal(c.bridge.records.size, 50);
    assert.equal(h.live.bus.listenerCount, one);
  });

  it("I-5: requests naming an unknown session fail and change no other session", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    await c.prompt(a, "hello");
    const snapshot = (): unknown =>
      [...c.bridge.records.values()].map((r) => [
        r.sessionId,
        r.agent.settings,
        [...r.pendingConfig],
        r.slots.size,
        r.agent.session.lastSeq,
      ]);
    const before = snapshot();
    await assert.rejects(c.prompt("nope", "x"), isCode(-32002));
    await assert.rejects(
      c.agent.request(acp.methods.agent.session.setConfigOption, { sessionId: "nope", configId: "mode", value: "read-only" }),
      isCode(-32002),
    );
    await assert.rejects(
      c.agent.request(acp.methods.agent.session.load, { sessionId: "nope", cwd: h.ws[0]!, mcpServers: [] }),
      isCode(-32002),
    );
    // A load of the live id in another folder fails as invalid params (an idle load in its own folder re-syncs, I-16).
    await assert.rejects(c.agent.request(acp.methods.agent.session.load, { sessionId: a, cwd: h.ws[1]!, mcpServers: [] }), isCode(-32602));
    assert.deepEqual(snapshot(), before);
  });

  it("I-26: a second prompt while one runs is rejected at once; the first and other sessions are untouched", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    const b = await c.newSession(h.ws[1]!);
    const g = gate();
    h.model.enqueue([text("A1 "), { type: "wait", gate: g }, text("A2"), finish()]);
    h.model.enqueue([text("B done"), finish()]);
    const pa = c.prompt(a, "first");
    await h.model.waitForRequests(1);
    const pb = c.prompt(b, "other");
    await assert.rejects(c.prompt(a, "second"), isCode(-32600));
    assert.deepEqual(await pb, { stopReason: "end_turn" });
    g.open();
    assert.deepEqual(await pa, { stopReason: "end_turn" });
    assert.equal(c.textOf(a), "A1 A2");
    assert.equal(c.textOf(b), "B done");
    assert.equal(entriesOf(h, a).filter((t) => t === "user/message").length, 1);
  });

  it("I-27: two prompt frames sent together: exactly one passes the in-flight check", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    const results = await Promise.allSettled([c.prompt(a, "one"), c.prompt(a, "two")]);
    assert.deepEqual(
      results.map((r) => r.status),
      ["fulfilled", "rejected"],
    );
    assert.equal(entriesOf(h, a).filter((t) => t === "turn/start").length, 1);
  });

  it("I-28: a prompt settles only from its own turn, not from an injected turn claimed before it", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    const agent = h.live.get(a)!;
    const g = gate();
    h.model.enqueue([text("task says hi"), { type: "wait", gate: g }, finish()]);
    h.model.enqueue([text("mine"), finish()]);
    agent.enqueue({ messageId: "task-1", content: [{ type: "text", text: "background task finished" }], source: "task" });
    await h.model.waitForRequests(1);
    let settled = false;
    const p = c.prompt(a, "my prompt").then((r) => {
      settled = true;
      c.order.push("response");
      return r;
    });
    g.open();
    await until(() => agent.session.entries.filter((e) => e.type === "turn/end").length >= 1, "task turn end");
    assert.equal(settled, false);
    assert.deepEqual(await p, { stopReason: "end_turn" });
    assert.equal(c.textOf(a), "task says himine");
    assert.ok(c.order.lastIndexOf(`update:${a}:agent_message_chunk`) < c.order.indexOf("response"));
  });

  it("I-29/I-38: cancel then an immediate new prompt: the old turn's end never settles the new prompt", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    h.model.enqueue([text("A-partial "), { type: "hang" }]);
    h.model.enqueue([text("B-own-text"), finish()]);
    const pa = c.prompt(a, "A");
    await h.model.waitForRequests(1);
    // Delay the abort path: B must be admitted before A's turn/end is appended.
    const agent = h.live.get(a)!;
    const slotA = c.bridge.records.get(a)!.active!;
    const realAbort = agent.abortTurn.bind(agent);
    const abortGate = gate();
    agent.abortTurn = () => {
      void abortGate.promise.then(realAbort);
    };
    await c.cancel(a);
    const pb = c.prompt(a, "B");
    await until(() => {
      const active = c.bridge.records.get(a)?.active;
      return !!active && active !== slotA;
    }, "B admitted");
    abortGate.open();
    assert.deepEqual(await pa, { stopReason: "cancelled" });
    assert.deepEqual(await pb, { stopReason: "end_turn" });
    assert.equal(c.textOf(a), "A-partial B-own-text");
    const ends = h.live.get(a)!.session.entries.flatMap((e) => (e.type === "turn/end" ? [e.reason] : []));
    assert.deepEqual(ends, ["aborted", "end_turn"]);
  });

  it("I-38: an idle cancel followed by a prompt runs the prompt", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    await c.cancel(a);
    h.model.enqueue([text("runs"), finish()]);
    assert.deepEqual(await c.prompt(a, "go"), { stopReason: "end_turn" });
    assert.equal(c.textOf(a), "runs");
  });

  it("I-30: a model failure rejects the prompt with internal error, explains in that session only, and the session stays usable", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    const b = await c.newSession(h.ws[1]!);
    h.model.enqueue([
      text("start "),
      { type: "fail", error: new ModelError("rate-limit", "The model provider is rate limiting requests (429).") },
    ]);
    await assert.rejects(
      c.prompt(a, "x"),
      (err: unknown) => err instanceof acp.RequestError && err.code === -32603 && /rate limiting/.test(err.message),
    );
    const explain = (c.updates.get(a) ?? []).find((u) => u.sessionUpdate === "agent_message_chunk" && u._meta);
    assert.ok(
      explain &&
        explain.sessionUpdate === "agent_message_chunk" &&
        explain.content.type === "text" &&
        /rate limiting/.test(explain.content.text),
    );
    assert.deepEqual(
      (c.updates.get(b) ?? []).map((u) => u.sessionUpdate),
      ["available_commands_update"],
      "B got only its own command list",
    );
    h.model.enqueue([text("fine"), finish()]);
    assert.deepEqual(await c.prompt(a, "again"), { stopReason: "end_turn" });
  });

  it("I-31: empty, whitespace-only, unsupported and oversized prompts are rejected before anything is queued", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    const bad: acp.ContentBlock[][] = [
      [],
      [{ type: "text", text: "   \n\t " }],
      [{ type: "audio", data: "AAAA", mimeType: "audio/wav" }],
      [{ type: "text", text: "x".repeat(1024 * 1024 + 1) }],
    ];
    for (const prompt of bad) {
      await assert.rejects(c.agent.request(acp.methods.agent.session.prompt, { sessionId: a, prompt }), isCode(-32602));
    }
    assert.deepEqual(entriesOf(h, a), []);
    assert.equal(h.model.requests.length, 0);
  });

  it("prompts accept text, resource links, embedded resources and images", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    h.model.enqueue([text("seen"), finish()]);
    const res = await c.agent.request(acp.methods.agent.session.prompt, {
      sessionId: a,
      prompt: [
        { type: "text", text: "look" },
        { type: "resource_link", uri: "file:///w/a.txt", name: "a.txt" },
        { type: "resource", resource: { uri: "file:///w/b.txt", text: "B CONTENT" } },
        { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
      ],
    });
    assert.equal(res.stopReason, "end_turn");
    assert.deepEqual(h.model.requests[0]!.messages, [
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "text", text: "[Attached file: file:///w/a.txt (a.txt)]" },
          { type: "text", text: '<file uri="file:///w/b.txt">\nB CONTENT\n</file>' },
          { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
        ],
      },
    ]);
  });

  it("I-32: failing update writes cannot block settlement", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    const client = (c.bridge as unknown as { client: { notify: (...args: unknown[]) => Promise<void> } }).client;
    let calls = 0;
    client.notify = () => {
      calls++;
      if (calls % 2 === 0) return Promise.reject(new Error("transport broke"));
      throw new Error("presenter broke");
    };
    h.model.enqueue([text("a"), text("b"), finish()]);
    assert.deepEqual(await c.prompt(a, "x"), { stopReason: "end_turn" });
    assert.ok(calls >= 2);
  });

  it("I-33: every update of a prompt's turn, including tool updates after cancel, precedes its response", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    toolGate = gate();
    h.model.enqueue([text("working "), toolCall("slow", {}), finish("tool-calls")]);
    const p = c.prompt(a, "go").then((r) => {
      c.order.push("response");
      return r;
    });
    await until(() => (c.updates.get(a) ?? []).some((u) => u.sessionUpdate === "tool_call"), "tool call announced");
    await c.cancel(a);
    assert.deepEqual(await p, { stopReason: "cancelled" });
    const respAt = c.order.indexOf("response");
    const lastUpdate = c.order.lastIndexOf(`update:${a}:tool_call_update`);
    assert.ok(lastUpdate !== -1 && lastUpdate < respAt, c.order.join("\n"));
    const fin = (c.updates.get(a) ?? []).filter((u) => u.sessionUpdate === "tool_call_update" && u.status === "failed");
    assert.equal(fin.length, 1);
    toolGate.open();
  });
});
