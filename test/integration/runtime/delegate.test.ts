// In-process subagents (delegate): own id with header.parent (I-8), permission routed to the parent's session.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { delegateTool } from "../../../agent-server/tools/delegate";
import type { PermissionAnswer } from "../../../agent-server/policy/types";
import { OPEN_FENCE } from "../../../agent-server/tools/fence";
import type { CallPermit } from "../../../agent-server/tools/types";
import { createHarness, type Harness } from "../../support/inProcess";
import { createFakeTools, finish, text, toolCall } from "../../support/scriptedModel";

const permit: CallPermit = { unconfined: false, writes: new Map(), fence: OPEN_FENCE };

describe("delegate (in-process subagent)", () => {
  let h: Harness;
  const childAnswers: PermissionAnswer[] = [];
  beforeEach(() => {
    childAnswers.length = 0;
    h = createHarness({
      tools: createFakeTools({
        delegate: (input, ctx) => {
          const bound = delegateTool.bind(input);
          if (!bound.ok) throw bound.error;
          return bound.call.run(ctx, permit);
        },
        read: async () => ({ output: "read done", isError: false }),
        risky: async (_i, ctx) => {
          childAnswers.push(await ctx.requestPermission({ title: "Run rm", reason: "test", grantKey: "rm" }));
          return { output: "risky done", isError: false };
        },
      }),
      profiles: [{ id: "lead", name: "Lead", tools: ["delegate", "read"], instructions: "Lead profile rules." }],
    });
  });
  afterEach(() => h.cleanup());

  it("I-8: the child has its own id, header.parent = parent, same cwd; its answer returns to the parent; permission asks go to the parent's session", async () => {
    const c = await h.connect();
    const parent = await c.newSession(h.ws[0]!);
    const created: Array<{ id: string; header: string; session: string; parent?: string; cwd: string; registered: boolean }> = [];
    h.live.bus.on((ev) => {
      if (ev.type !== "agent/created") return;
      const a = ev.agent;
      created.push({
        id: a.sessionId,
        header: a.session.header.id,
        session: a.session.id,
        parent: a.session.header.parent,
        cwd: a.cwd,
        registered: h.live.agents.get(a.sessionId) === a,
      });
    });
    c.onPermission(() => ({ outcome: { outcome: "selected", optionId: "allow_once" } }));
    h.model.fallback = (req) => {
      const last = req.messages[req.messages.length - 1];
      const first = JSON.stringify(req.messages[0]);
      const all = JSON.stringify(req.messages);
      if (first.includes("child task") && !all.includes("risky done")) return [toolCall("risky", {}), finish("tool-calls")];
      if (first.includes("child task")) return [text("child answer"), finish()];
      if (last?.role === "tool") return [text("parent saw it"), finish()];
      return [toolCall("delegate", { task: "child task" }), finish("tool-calls")];
    };
    assert.deepEqual(await c.prompt(parent, "please delegate"), { stopReason: "end_turn" });
    assert.equal(created.length, 1);
    const child = created[0]!;
    assert.notEqual(child.id, parent);
    assert.deepEqual(child, {
      id: child.id,
      header: child.id,
      session: child.id,
      parent,
      cwd: h.live.get(parent)!.cwd,
      registered: true,
    });
    assert.equal(h.live.agents.has(child.id), false); // disposed after the task
    // The permission request went to the parent's session, under the announced delegate call.
    assert.equal(c.permissionRequests.length, 1);
    const req = c.permissionRequests[0]!;
    assert.equal(req.sessionId, parent);
    const delegateCall = (c.updates.get(parent) ?? []).find((u) => u.sessionUpdate === "tool_call");
    assert.equal(req.toolCall.toolCallId, delegateCall?.sessionUpdate === "tool_call" ? delegateCall.toolCallId : "?");
    assert.equal(req.toolCall.title, "Subagent: Run rm");
    assert.deepEqual(childAnswers, ["allow_once"]);
    // The child's own stream never reaches the wire; the parent got the result.
    assert.equal(c.updates.get(child.id), undefined);
    const toolMsg = h.model.requests.find((r) => r.messages.at(-1)?.role === "tool" && JSON.stringify(r.messages).includes("child answer"));
    assert.ok(toolMsg, "the parent model saw the child's answer");
    assert.equal(c.textOf(parent), "parent saw it");
    // Children are not listed as sessions of their own.
    const listed = await h.store.list();
    assert.equal(listed.find((s) => s.sessionId === child.id)?.parent, parent);
  });

  it("a subagent cannot delegate further: its delegate call is refused and no grandchild session is created", async () => {
    const c = await h.connect();
    const parent = await c.newSession(h.ws[0]!);
    const created: string[] = [];
    h.live.bus.on((ev) => {
      if (ev.type === "agent/created") created.push(ev.agent.sessionId);
    });
    h.model.fallback = (req) => {
      const first = JSON.stringify(req.messages[0]);
      const last = req.messages[req.messages.length - 1];
      if (first.includes("child task") && last?.role === "tool") return [text(JSON.stringify(last.content)), finish()];
      if (first.includes("child task")) return [toolCall("delegate", { task: "grandchild task" }), finish("tool-calls")];
      if (last?.role === "tool") return [text("parent done"), finish()];
      return [toolCall("delegate", { task: "child task" }), finish("tool-calls")];
    };
    assert.deepEqual(await c.prompt(parent, "please delegate"), { stopReason: "end_turn" });
    assert.equal(created.length, 1, "only the child was created");
    const childAnswer = h.model.requests.find(
      (r) => JSON.stringify(r.messages[0]).includes("child task") && r.messages.at(-1)?.role === "tool",
    );
    assert.match(JSON.stringify(childAnswer?.messages.at(-1)), /A subagent cannot delegate further/);
  });

  it("I-7: a subagent of a profile session inherits the profile: its label in the id and header, its tool allow-list, its instructions", async () => {
    const c = await h.connect();
    const { sessionId: parent } = await c.agent.request(acp.methods.agent.session.new, {
      cwd: h.ws[0]!,
      mcpServers: [],
      _meta: { "manifold.dev/profile": "lead" },
    });
    const children: Array<{ id: string; profile?: string }> = [];
    h.live.bus.on((ev) => {
      if (ev.type === "agent/created" && ev.agent.sessionId !== parent)
        children.push({
          id: ev.agent.sessionId,
          ...(ev.agent.session.header.profile ? { profile: ev.agent.session.header.profile.id } : {}),
        });
    });
    h.model.fallback = (req) => {
      const first = JSON.stringify(req.messages[0]);
      const last = req.messages[req.messages.length - 1];
      if (first.includes("child task") && last?.role === "tool") return [text("child gave up"), finish()];
      if (first.includes("child task")) return [toolCall("risky", {}), finish("tool-calls")];
      if (last?.role === "tool") return [text("parent done"), finish()];
      return [toolCall("delegate", { task: "child task" }), finish("tool-calls")];
    };
    assert.deepEqual(await c.prompt(parent, "please delegate"), { stopReason: "end_turn" });
    assert.equal(children.length, 1);
    assert.match(children[0]!.id, /^lead-session-[0-9a-f-]{36}$/);
    assert.equal(children[0]!.profile, "lead");
    const childRequests = h.model.requests.filter((r) => JSON.stringify(r.messages[0]).includes("child task"));
    assert.ok(childRequests.length > 0);
    for (const r of childRequests) {
      assert.deepEqual(
        r.tools.map((t) => t.name),
        ["delegate", "read"],
      );
      assert.match(r.system, /Lead profile rules\./);
    }
    assert.deepEqual(childAnswers, [], "the child's call of a tool outside the list never ran");
    assert.equal(c.permissionRequests.length, 0);
  });
});
