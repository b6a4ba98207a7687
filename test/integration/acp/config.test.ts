// Per-session configuration (I-48..54) over the in-memory connection.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createHarness, until, type ClientSide, type Harness } from "../../support/inProcess";
import { createFakeTools, finish, gate, text, toolCall } from "../../support/scriptedModel";

const isCode = (code: number) => (err: unknown) => err instanceof acp.RequestError && err.code === code;

function values(opts: acp.SessionConfigOption[] | null | undefined): Record<string, unknown> {
  return Object.fromEntries((opts ?? []).map((o) => [o.id, o.currentValue]));
}

function set(c: ClientSide, sessionId: string, configId: string, value: unknown) {
  return c.agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId, value } as acp.SetSessionConfigOptionRequest);
}

describe("per-session config (in-process)", () => {
  let h: Harness;
  const seen: Array<{ sessionId: string; mode: string; approval: string }> = [];
  beforeEach(() => {
    seen.length = 0;
    h = createHarness({
      tools: createFakeTools({
        probe: (_i, ctx) => {
          seen.push({ sessionId: ctx.sessionId, mode: ctx.sandbox.mode, approval: ctx.sandbox.approval });
          return { output: "ok", isError: false };
        },
      }),
    });
  });
  afterEach(() => h.cleanup());

  it("new sessions advertise mode, model, sandbox, approval with categories, and legacy modes", async () => {
    const c = await h.connect();
    const res = await c.agent.request(acp.methods.agent.session.new, { cwd: h.ws[0]!, mcpServers: [] });
    assert.deepEqual(values(res.configOptions), { mode: "agent", model: "test:one", sandbox: "workspace-write", approval: "on-request" });
    assert.deepEqual(
      res.configOptions?.map((o) => o.category),
      ["mode", "model", "_manifold_sandbox", "_manifold_approval"],
    );
    assert.equal(res.modes?.currentModeId, "agent");
    assert.deepEqual(
      res.modes?.availableModes.map((m) => m.id),
      ["read-only", "agent", "full-access"],
    );
  });

  it("I-48: switching A to read-only changes neither B's advertised values nor B's tool policy", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    const b = await c.newSession(h.ws[1]!);
    const resA = await set(c, a, "mode", "read-only");
    assert.deepEqual(values(resA.configOptions), { mode: "read-only", model: "test:one", sandbox: "read-only", approval: "on-request" });
    const resB = await set(c, b, "model", "test:one");
    assert.deepEqual(values(resB.configOptions), { mode: "agent", model: "test:one", sandbox: "workspace-write", approval: "on-request" });
    h.model.fallback = (req) =>
      req.messages[req.messages.length - 1]?.role === "tool" ? [text("k"), finish()] : [toolCall("probe", {}), finish("tool-calls")];
    await Promise.all([c.prompt(a, "a"), c.prompt(b, "b")]);
    assert.deepEqual(seen.map((s) => [s.sessionId === a ? "A" : "B", s.mode]).sort(), [
      ["A", "read-only"],
      ["B", "workspace-write"],
    ]);
  });

  it("I-49: an idle switch is pending (echoed), then anchored inside the next user turn before request assembly, never on an injection turn", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    const agent = h.live.get(a)!;
    const res = await set(c, a, "model", "test:two");
    assert.equal(values(res.configOptions).model, "test:two");
    assert.equal(agent.session.entries.length, 0);
    // An injected (task) turn does not anchor it.
    agent.enqueue({ messageId: "task", content: [{ type: "text", text: "bg" }], source: "task" });
    await until(() => agent.session.entries.some((e) => e.type === "turn/end"), "task turn");
    assert.equal(
      agent.session.entries.some((e) => e.type === "config/set"),
      false,
    );
    assert.equal(h.model.requests[0]?.modelId, "test:one");
    await c.prompt(a, "go");
    const types = agent.session.entries.map((e) => e.type);
    const start = types.lastIndexOf("turn/start");
    const cfg = types.indexOf("config/set");
    assert.ok(start < cfg && cfg < types.lastIndexOf("user/message"), types.join(","));
    assert.equal(h.model.requests[1]?.modelId, "test:two");
  });

  it("I-50: a switch during an open turn is appended immediately, inside that turn", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    const agent = h.live.get(a)!;
    const g = gate();
    h.model.enqueue([text("x"), { type: "wait", gate: g }, finish()]);
    const p = c.prompt(a, "go");
    await h.model.waitForRequests(1);
    await set(c, a, "approval", "untrusted");
    const types = agent.session.entries.map((e) => e.type);
    assert.equal(types[types.length - 1], "config/set");
    assert.equal(types.includes("turn/end"), false);
    g.open();
    await p;
    assert.equal(agent.settings.approval, "untrusted");
  });

  it("I-51: idle switches are last-write-wins and a flip-flop back records nothing", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    await set(c, a, "sandbox", "read-only");
    await set(c, a, "sandbox", "danger-full-access");
    const back = await set(c, a, "sandbox", "workspace-write");
    assert.equal(values(back.configOptions).sandbox, "workspace-write");
    assert.equal(c.bridge.records.get(a)?.pendingConfig.size, 0);
    await c.prompt(a, "go");
    assert.equal(
      h.live.get(a)!.session.entries.some((e) => e.type === "config/set"),
      false,
    );
  });

  it("I-52: a pending switch never anchored does not survive a restart", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    await c.prompt(a, "one");
    await set(c, a, "mode", "full-access");
    await c.bridge.teardown();
    const c2 = await h.connect();
    const res = await c2.agent.request(acp.methods.agent.session.load, { sessionId: a, cwd: h.ws[0]!, mcpServers: [] });
    assert.deepEqual(values(res.configOptions), { mode: "agent", model: "test:one", sandbox: "workspace-write", approval: "on-request" });
  });

  it("I-52: an anchored switch survives a restart (the durable fold)", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    await set(c, a, "mode", "read-only");
    await c.prompt(a, "anchor it");
    await c.bridge.teardown();
    const c2 = await h.connect();
    const res = await c2.agent.request(acp.methods.agent.session.load, { sessionId: a, cwd: h.ws[0]!, mcpServers: [] });
    assert.equal(values(res.configOptions).mode, "read-only");
  });

  it("I-53: unknown ids, unadvertised values and wrong types are rejected without changing state", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    const rec = c.bridge.records.get(a)!;
    const before = JSON.stringify([rec.agent.settings, [...rec.pendingConfig]]);
    await assert.rejects(set(c, a, "colour", "blue"), isCode(-32602));
    await assert.rejects(set(c, a, "mode", "yolo"), isCode(-32602));
    await assert.rejects(set(c, a, "model", "not-configured"), isCode(-32602));
    await assert.rejects(
      c.agent.request(acp.methods.agent.session.setConfigOption, { sessionId: a, configId: "sandbox", type: "boolean", value: true }),
      isCode(-32602),
    );
    await assert.rejects(c.agent.request(acp.methods.agent.session.setMode, { sessionId: a, modeId: "nope" }), isCode(-32602));
    assert.equal(JSON.stringify([rec.agent.settings, [...rec.pendingConfig]]), before);
  });

  it("legacy session/set_mode switches the mode preset", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    await c.agent.request(acp.methods.agent.session.setMode, { sessionId: a, modeId: "full-access" });
    const res = await set(c, a, "model", "test:one");
    assert.deepEqual(values(res.configOptions), {
      mode: "full-access",
      model: "test:one",
      sandbox: "danger-full-access",
      approval: "never",
    });
  });

  it("I-54: a model switch during a step applies from the next step; no request mixes models", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    const g = gate();
    h.model.enqueue([text("step1 "), { type: "wait", gate: g }, toolCall("probe", {}), finish("tool-calls")]);
    h.model.enqueue([text("step2"), finish()]);
    const p = c.prompt(a, "go");
    await h.model.waitForRequests(1);
    await set(c, a, "model", "test:two");
    g.open();
    await p;
    assert.deepEqual(
      h.model.requests.map((r) => r.modelId),
      ["test:one", "test:two"],
    );
  });
});
