// Delegation to another agent the client runs (`_manifold/delegate`): offered per session by the
// client, asked per agent in the parent's panel, sent under a parent-minted id, cancelled with the
// parent's turn, and nothing in the child's answer reaches another session.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { z } from "zod";
import { DELEGATE_AGENTS_META, DELEGATE_METHOD } from "../../../agent-server/acp/remoteDelegate";
import { createToolRunner, delegateTool } from "../../../agent-server/tools";
import { createNoSandbox } from "../../../sandbox/none";
import { createHarness, until, type ClientSide, type Harness } from "../../support/inProcess";
import { finish, gate, text, toolCall } from "../../support/scriptedModel";

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}";
const DelegateParams = z.object({
  sessionId: z.string(),
  delegateId: z.string(),
  toolCallId: z.string(),
  agent: z.string(),
  task: z.string(),
});
type DelegateParams = z.infer<typeof DelegateParams>;
type Served = { params: DelegateParams; signal: AbortSignal };

const OFFER = [
  { id: "opencode", name: "opencode", description: "the pinned opencode" },
  { id: "builtin-2", name: "Manifold (second process)" },
];

describe("delegation to another agent (_manifold/delegate)", () => {
  let h: Harness;
  let served: Served[];
  let answer: (p: DelegateParams, signal: AbortSignal) => Promise<unknown> | unknown;

  beforeEach(() => {
    h = createHarness({ tools: createToolRunner({ sandbox: createNoSandbox({}), extraTools: [delegateTool] }) });
    served = [];
    answer = (p) => ({ stopReason: "end_turn", text: `done by ${p.agent}: ${p.task}` });
  });
  afterEach(() => h.cleanup());

  const connect = (): Promise<ClientSide> =>
    h.connect({
      extend: (app) =>
        app.onRequest(DELEGATE_METHOD, DelegateParams, ({ params, signal }) => {
          served.push({ params, signal });
          return answer(params, signal) as Record<string, unknown>;
        }),
    });

  async function offered(c: ClientSide, cwd: string, delegateAgents: unknown = OFFER, approval?: string): Promise<string> {
    const { sessionId } = await c.agent.request(acp.methods.agent.session.new, {
      cwd,
      mcpServers: [],
      _meta: { [DELEGATE_AGENTS_META]: delegateAgents },
    });
    if (approval) await c.agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: "sandbox", value: approval });
    await until(() => (c.updates.get(sessionId) ?? []).some((u) => u.sessionUpdate === "available_commands_update"));
    return sessionId;
  }

  /** The model delegates `task` to `agent` once, then reports what the tool said. */
  function modelDelegates(agent: string, task = "fix the login"): void {
    h.model.fallback = (req) => {
      const last = req.messages[req.messages.length - 1];
      if (last?.role === "tool") return [text(`parent saw: ${JSON.stringify(last.content)}`), finish()];
      return [toolCall("delegate", { task, agent }), finish("tool-calls")];
    };
  }

  const delegateCard = (c: ClientSide, sid: string): string => {
    const u = (c.updates.get(sid) ?? []).find((x) => x.sessionUpdate === "tool_call");
    return u?.sessionUpdate === "tool_call" ? u.toolCallId : "(none)";
  };

  it("the agent advertises delegation at initialize", async () => {
    const c = await connect();
    const init = await c.agent.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
    assert.deepEqual(init.agentCapabilities?._meta?.["manifold.dev/delegate"], {
      method: DELEGATE_METHOD,
      agentsMeta: DELEGATE_AGENTS_META,
    });
  });

  it("a malformed offer is refused before any session exists", async () => {
    const c = await connect();
    const bad = [
      [
        { id: "a", name: "A" },
        { id: "a", name: "again" },
      ],
      [{ id: "../x", name: "X" }],
      "opencode",
      [{ id: "a" }],
    ];
    for (const offer of bad) {
      await assert.rejects(
        c.agent.request(acp.methods.agent.session.new, { cwd: h.ws[0]!, mcpServers: [], _meta: { [DELEGATE_AGENTS_META]: offer } }),
        (err: unknown) => err instanceof acp.RequestError && err.code === -32602,
      );
    }
    assert.equal(h.live.agents.size, 0);
  });

  it("I-121: a delegation asks in the parent's panel under its card, then runs under a parent-minted id; 'Allow for this session' covers that agent only", async () => {
    const c = await connect();
    const parent = await offered(c, h.ws[0]!);
    c.onPermission((req) => ({
      outcome: { outcome: "selected", optionId: req.options.some((o) => o.optionId === "allow_always") ? "allow_always" : "allow_once" },
    }));
    modelDelegates("opencode");
    assert.deepEqual(await c.prompt(parent, "go"), { stopReason: "end_turn" });
    assert.equal(c.permissionRequests.length, 1);
    const ask = c.permissionRequests[0]!;
    assert.equal(ask.sessionId, parent);
    assert.equal(ask.toolCall.toolCallId, delegateCard(c, parent));
    assert.equal(served.length, 1);
    const p = served[0]!.params;
    assert.equal(p.sessionId, parent);
    assert.match(p.delegateId, new RegExp(`^${parent}-sub-${UUID}$`));
    assert.equal(p.toolCallId, delegateCard(c, parent));
    assert.deepEqual([p.agent, p.task], ["opencode", "fix the login"]);
    assert.match(c.textOf(parent), /done by opencode: fix the login/); // the child's answer went back to the model

    // The same agent again: no ask (granted for this session). Another agent: asked again.
    c.updates.set(parent, []);
    assert.deepEqual(await c.prompt(parent, "again"), { stopReason: "end_turn" });
    assert.equal(c.permissionRequests.length, 1);
    assert.equal(served.length, 2);
    assert.notEqual(served[1]!.params.delegateId, p.delegateId);
    modelDelegates("builtin-2");
    assert.deepEqual(await c.prompt(parent, "other"), { stopReason: "end_turn" });
    assert.equal(c.permissionRequests.length, 2);
    assert.equal(served[2]!.params.agent, "builtin-2");
  });

  it("I-121: a rejected delegation starts nothing, and an agent the client did not offer is never asked for", async () => {
    const c = await connect();
    const parent = await offered(c, h.ws[0]!, [{ id: "opencode", name: "opencode" }]);
    c.onPermission(() => ({ outcome: { outcome: "selected", optionId: "reject_once" } }));
    modelDelegates("opencode");
    await c.prompt(parent, "go");
    assert.equal(served.length, 0);
    modelDelegates("claude");
    c.updates.set(parent, []);
    await c.prompt(parent, "go");
    assert.equal(c.permissionRequests.length, 1, "no ask for an agent that is not offered");
    assert.equal(served.length, 0);
    assert.match(c.textOf(parent), /No agent \\"claude\\" is offered to this session \(offered: opencode\)/);
  });

  it("from a read-only session each delegation asks, with no 'Allow for this session'", async () => {
    const c = await connect();
    const parent = await offered(c, h.ws[0]!, OFFER, "read-only");
    c.onPermission(() => ({ outcome: { outcome: "selected", optionId: "allow_once" } }));
    modelDelegates("opencode");
    await c.prompt(parent, "go");
    assert.equal(c.permissionRequests.length, 1);
    assert.deepEqual(
      c.permissionRequests[0]!.options.map((o) => o.optionId),
      ["allow_once", "reject_once"],
    );
    assert.equal(served.length, 1);
  });

  it("I-14: a child's answer naming another live session's id changes nothing there", async () => {
    const c = await connect();
    const other = await offered(c, h.ws[1]!);
    const parent = await offered(c, h.ws[0]!);
    const otherAgent = h.live.get(other);
    const ids = [...h.live.agents.keys()].sort();
    c.onPermission(() => ({ outcome: { outcome: "selected", optionId: "allow_once" } }));
    answer = () => ({ stopReason: "end_turn", text: "child text", sessionId: other, delegateId: other });
    const before = (c.updates.get(other) ?? []).length;
    modelDelegates("opencode");
    await c.prompt(parent, "go");
    assert.match(c.textOf(parent), /child text/);
    assert.equal(h.live.get(other), otherAgent);
    assert.deepEqual([...h.live.agents.keys()].sort(), ids);
    assert.equal((c.updates.get(other) ?? []).length, before, "nothing reached the other session");
  });

  it("I-121: cancelling the parent's turn cancels the client's delegate request ($/cancel_request), and the turn ends cancelled", async () => {
    const c = await connect();
    const parent = await offered(c, h.ws[0]!);
    c.onPermission(() => ({ outcome: { outcome: "selected", optionId: "allow_once" } }));
    const started = gate();
    answer = (_p, signal) =>
      new Promise((_resolve, reject) => {
        started.open();
        signal.addEventListener("abort", () => reject(new Error("cancelled by the agent")), { once: true });
      });
    modelDelegates("opencode");
    const turn = c.prompt(parent, "go");
    await started.promise;
    await c.cancel(parent);
    assert.deepEqual(await turn, { stopReason: "cancelled" });
    await until(() => served[0]!.signal.aborted, "the delegate request's signal");
  });

  it("I-121: two parents delegating at once each get only their own child's answer", async () => {
    const c = await connect();
    const a = await offered(c, h.ws[0]!);
    const b = await offered(c, h.ws[1]!);
    c.onPermission(() => ({ outcome: { outcome: "selected", optionId: "allow_once" } }));
    const both = gate();
    answer = async (p) => {
      if (served.length === 2) both.open();
      await both.promise;
      return { stopReason: "end_turn", text: `child of ${p.sessionId}` };
    };
    h.model.fallback = (req) => {
      const last = req.messages[req.messages.length - 1];
      if (last?.role === "tool") return [text(`saw ${JSON.stringify(last.content)}`), finish()];
      return [toolCall("delegate", { task: "t", agent: "opencode" }), finish("tool-calls")];
    };
    await Promise.all([c.prompt(a, "go"), c.prompt(b, "go")]);
    assert.deepEqual(served.map((s) => s.params.sessionId).sort(), [a, b].sort());
    for (const s of served) assert.ok(s.params.delegateId.startsWith(`${s.params.sessionId}-sub-`));
    assert.match(c.textOf(a), new RegExp(`child of ${a}`));
    assert.doesNotMatch(c.textOf(a), new RegExp(`child of ${b}`));
    assert.match(c.textOf(b), new RegExp(`child of ${b}`));
    assert.doesNotMatch(c.textOf(b), new RegExp(`child of ${a}`));
  });

  it("the model is told which agents it may delegate to, only in the session they are offered to", async () => {
    const c = await connect();
    const withOffer = await offered(c, h.ws[0]!);
    const without = await c.newSession(h.ws[1]!);
    await c.prompt(withOffer, "hi");
    await c.prompt(without, "hi");
    const systems = h.model.requests.map((r) => r.system);
    assert.match(systems[0]!, /`opencode`: opencode \(the pinned opencode\)/);
    assert.match(systems[0]!, /`builtin-2`: Manifold \(second process\)/);
    assert.doesNotMatch(systems[1]!, /opencode/);
  });
});
