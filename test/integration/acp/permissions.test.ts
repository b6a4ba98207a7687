// Permission routing (I-41..45) over the in-memory connection.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import {
  answerOf,
  OPTION_ALLOW_ONCE,
  OPTION_REJECT,
  PERMISSION_NOTE_MAX,
  PERMISSION_NOTE_META,
} from "../../../agent-server/acp/permissions";
import type { PermissionAnswer } from "../../../agent-server/policy/types";
import { createHarness, until, type Harness } from "../../support/inProcess";
import { createFakeTools, finish, gate, text, toolCall } from "../../support/scriptedModel";

describe("permissions (in-process)", () => {
  let h: Harness;
  const answers: Array<{ sessionId: string; answer: PermissionAnswer }> = [];
  const sideEffects: string[] = [];
  beforeEach(() => {
    answers.length = 0;
    sideEffects.length = 0;
    h = createHarness({
      tools: createFakeTools({
        write: async (_input, ctx) => {
          const answer = await ctx.requestPermission({ title: "Write x", reason: "outside the workspace", grantKey: "write:/x" });
          answers.push({ sessionId: ctx.sessionId, answer });
          if (answer === "allow_once" || answer === "allow_session") {
            sideEffects.push(ctx.sessionId);
            return { output: "written", isError: false };
          }
          return { output: "denied", isError: true };
        },
      }),
    });
    h.model.fallback = (req) =>
      req.messages[req.messages.length - 1]?.role === "tool" ? [text("done"), finish()] : [toolCall("write", {}), finish("tool-calls")];
  });
  afterEach(() => h.cleanup());

  it("I-41: the request goes to the owning session only, naming a tool call announced there first", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    const b = await c.newSession(h.ws[1]!);
    c.onPermission((req) => ({ outcome: { outcome: "selected", optionId: req.sessionId === a ? "allow_once" : "reject_once" } }));
    await Promise.all([c.prompt(a, "a"), c.prompt(b, "b")]);
    assert.equal(c.permissionRequests.length, 2);
    for (const req of c.permissionRequests) {
      const announcedHere = (c.updates.get(req.sessionId) ?? [])
        .filter((u) => u.sessionUpdate === "tool_call")
        .map((u) => (u.sessionUpdate === "tool_call" ? u.toolCallId : ""));
      assert.ok(announcedHere.includes(req.toolCall.toolCallId), "announced in the same session");
      const idx = c.order.indexOf(`permission:${req.sessionId}`);
      assert.ok(c.order.indexOf(`update:${req.sessionId}:tool_call`) < idx, "announced before the request");
      assert.deepEqual(req.options, [
        { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
        { optionId: "allow_always", name: "Allow for this session", kind: "allow_always" },
        { optionId: "reject_once", name: "Reject", kind: "reject_once" },
      ]);
    }
    assert.deepEqual(
      answers.map((x) => [x.sessionId, x.answer]).sort(),
      [
        [a, "allow_once"],
        [b, "reject"],
      ].sort(),
    );
    assert.deepEqual(sideEffects, [a]);
  });

  it("I-42: a request for a never-announced tool call is sent to no client and fails closed", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    const agent = h.live.get(a)!;
    const answer = await h.live.hooks.requestPermission(
      agent,
      "call_never_announced",
      { title: "x", reason: "y", grantKey: "z" },
      new AbortController().signal,
    );
    assert.equal(answer, "reject");
    assert.equal(c.permissionRequests.length, 0);
  });

  it("I-43: unknown optionId, malformed answer and transport failure are never a grant", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    const responders: Array<(r: acp.RequestPermissionRequest) => acp.RequestPermissionResponse | Promise<acp.RequestPermissionResponse>> = [
      () => ({ outcome: { outcome: "selected", optionId: "allow_everything" } }),
      () => ({ outcome: { outcome: "bogus" } }) as unknown as acp.RequestPermissionResponse,
      () => ({}) as unknown as acp.RequestPermissionResponse,
      () => {
        throw new Error("client exploded");
      },
    ];
    for (const r of responders) {
      c.onPermission(r);
      await c.prompt(a, "try");
    }
    assert.equal(answers.length, 4);
    for (const x of answers) assert.ok(x.answer === "reject" || x.answer === "cancelled", JSON.stringify(x.answer));
    assert.deepEqual(sideEffects, []);
  });

  it("I-44: a request pending at cancel resolves cancelled; a late allow is ignored and nothing runs", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    const g = gate();
    c.onPermission(async () => {
      await g.promise;
      return { outcome: { outcome: "selected", optionId: "allow_once" } };
    });
    const p = c.prompt(a, "x");
    await until(() => c.permissionRequests.length === 1, "permission request");
    await c.cancel(a);
    assert.deepEqual(await p, { stopReason: "cancelled" });
    g.open();
    await until(() => answers.length === 1, "tool answer");
    assert.deepEqual(answers[0]?.answer, "cancelled");
    assert.deepEqual(sideEffects, []);
    assert.equal(c.permissionRequests.length, 1);
  });

  it("I-44: a permission asked after the turn was cancelled is answered cancelled without a request", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    const agent = h.live.get(a)!;
    const ctl = new AbortController();
    ctl.abort();
    const answer = await c.bridge.requestPermission(agent, "any", { title: "x", reason: "y", grantKey: "z" }, ctl.signal);
    assert.ok(answer === "cancelled" || answer === "reject");
    assert.equal(c.permissionRequests.length, 0);
  });

  it("I-45: pending permission requests are resolved cancelled at teardown", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    c.onPermission(() => new Promise<acp.RequestPermissionResponse>(() => undefined)); // never answers
    const p = c.prompt(a, "x");
    await until(() => c.permissionRequests.length === 1, "permission request");
    await c.bridge.teardown();
    assert.deepEqual(await p, { stopReason: "cancelled" });
    await until(() => answers.length === 1, "tool answer");
    assert.equal(answers[0]?.answer, "cancelled");
    assert.deepEqual(sideEffects, []);
  });

  it("Allow for this session is reported to the tool layer as allow_session (the runner stores the grant)", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    c.onPermission(() => ({ outcome: { outcome: "selected", optionId: "allow_always" } }));
    await c.prompt(a, "x");
    assert.deepEqual(
      answers.map((x) => x.answer),
      ["allow_session"],
    );
  });
});

describe("a rejection's note (answerOf)", () => {
  const ask = { title: "Write x", reason: "outside the workspace", grantKey: "write:/x" };
  const reject = { outcome: "selected", optionId: OPTION_REJECT };
  it("I-43: a reject with a string note in _meta carries it trimmed and cut to PERMISSION_NOTE_MAX; any other note is a plain reject", () => {
    assert.deepEqual(answerOf({ outcome: reject, _meta: { [PERMISSION_NOTE_META]: "  use ./out  " } }, ask), {
      kind: "reject",
      note: "use ./out",
    });
    const long = answerOf({ outcome: reject, _meta: { [PERMISSION_NOTE_META]: "   " + "y".repeat(PERMISSION_NOTE_MAX + 50) } }, ask);
    assert.deepEqual(long, { kind: "reject", note: "y".repeat(PERMISSION_NOTE_MAX) });
    for (const note of ["", "   ", 7, null, { text: "x" }])
      assert.equal(answerOf({ outcome: reject, _meta: { [PERMISSION_NOTE_META]: note } }, ask), "reject");
    assert.equal(answerOf({ outcome: reject, _meta: "not an object" }, ask), "reject");
  });
  it("I-43: a note never turns an allow, an unknown option or a cancel into anything else", () => {
    const _meta = { [PERMISSION_NOTE_META]: "why" };
    assert.equal(answerOf({ outcome: { outcome: "selected", optionId: OPTION_ALLOW_ONCE }, _meta }, ask), "allow_once");
    assert.equal(answerOf({ outcome: { outcome: "cancelled" }, _meta }, ask), "cancelled");
    assert.deepEqual(answerOf({ outcome: { outcome: "selected", optionId: "nonsense" }, _meta }, ask), { kind: "reject", note: "why" });
  });
});
