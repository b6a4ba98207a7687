// User questions (`ask_user` → ACP `elicitation/create`, I-45/I-46) over the in-memory connection.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { QUESTION_CANCELLED } from "../../../agent-server/acp/questions";
import type { ModelStreamRequest } from "../../../agent-server/model/types";
import { askUserTool, DECLINED_OUTPUT, UNAVAILABLE_OUTPUT } from "../../../agent-server/tools/askUser";
import { createRunner } from "../../../agent-server/tools/runner";
import type { UserAnswer } from "../../../agent-server/runtime/capabilities";
import type { ToolRunner } from "../../../agent-server/tools/types";
import { createHarness, until, type ClientSide, type Harness } from "../../support/inProcess";
import { finish, text, toolCall } from "../../support/scriptedModel";

const FORM = { elicitation: { form: {} } } satisfies acp.ClientCapabilities;

type Received = { sessionId: string; resolved: UserAnswer } | { sessionId: string; rejected: { name: string; message: string } };

/** The real ask_user tool behind the real runner, with what `ctx.askUser` gave the tool recorded. */
function recordingRunner(received: Received[]): ToolRunner {
  const inner = createRunner({
    sandbox: { backend: "none", wrap: () => ({ file: "/bin/false", args: [] }) } as never,
    tools: [askUserTool],
  });
  return {
    ...inner,
    run(name, input, ctx) {
      const ask = ctx.askUser;
      if (!ask) return inner.run(name, input, ctx);
      return inner.run(name, input, {
        ...ctx,
        requestPermission: (p) => ctx.requestPermission(p),
        update: (p) => ctx.update(p),
        askUser: (q) =>
          ask(q).then(
            (resolved) => {
              received.push({ sessionId: ctx.sessionId, resolved });
              return resolved;
            },
            (err: unknown) => {
              const e = err instanceof Error ? err : new Error(String(err));
              received.push({ sessionId: ctx.sessionId, rejected: { name: e.name, message: e.message } });
              throw err;
            },
          ),
      });
    },
  };
}

const userText = (req: ModelStreamRequest): string => {
  const first = req.messages.find((m) => m.role === "user");
  return first?.role === "user" ? first.content.map((p) => (p.type === "text" ? p.text : "")).join("") : "";
};
const toolOutputs = (req: ModelStreamRequest): Array<{ output: string; isError: boolean }> =>
  req.messages.flatMap((m) => (m.role === "tool" ? m.content.map((p) => ({ output: p.output, isError: p.isError })) : []));
const announced = (c: ClientSide, sid: string): string[] =>
  (c.updates.get(sid) ?? []).flatMap((u) => (u.sessionUpdate === "tool_call" ? [u.toolCallId] : []));
const sessionOf = (req: acp.CreateElicitationRequest): string => ("sessionId" in req ? String(req.sessionId) : "");

/** A client handler that holds each question until the test answers it; records the handler's cancel signal. */
function holdQuestions(c: ClientSide): Map<string, { answer(r: acp.CreateElicitationResponse): void; req: acp.CreateElicitationRequest }> {
  const held = new Map<string, { answer(r: acp.CreateElicitationResponse): void; req: acp.CreateElicitationRequest }>();
  c.onElicitation(
    (req) =>
      new Promise<acp.CreateElicitationResponse>((resolve) => {
        held.set(sessionOf(req), { answer: resolve, req });
      }),
  );
  return held;
}

describe("user questions (in-process)", () => {
  let h: Harness;
  const received: Received[] = [];
  beforeEach(() => {
    received.length = 0;
    h = createHarness({ tools: recordingRunner(received) });
    // Ask once per turn; after the tool result, finish. The question names the prompt so sessions differ.
    h.model.fallback = (req) =>
      req.messages[req.messages.length - 1]?.role === "tool"
        ? [text("done"), finish()]
        : [toolCall("ask_user", { question: `Which color for ${userText(req)}?`, choices: ["red", "blue"] }), finish("tool-calls")];
  });
  afterEach(() => h.cleanup());

  it("I-46: cancelling A during a pending question gives A's tool an aborted error; B's question is untouched and answered afterwards", async () => {
    const c = await h.connect({ clientCapabilities: FORM });
    const a = await c.newSession(h.ws[0]!);
    const b = await c.newSession(h.ws[1]!);
    const held = holdQuestions(c);
    const pa = c.prompt(a, "a");
    let bSettled = false;
    const pb = c.prompt(b, "b").finally(() => {
      bSettled = true;
    });
    await until(() => held.has(a) && held.has(b), "both questions pending");
    await c.cancel(a);
    assert.deepEqual(await pa, { stopReason: "cancelled" });
    await until(() => received.some((r) => r.sessionId === a), "A's tool saw the outcome");
    assert.deepEqual(received, [{ sessionId: a, rejected: { name: "AbortError", message: QUESTION_CANCELLED } }]);
    // B is untouched: nothing delivered to its tool, its prompt still open, no new frame anywhere.
    assert.equal(bSettled, false);
    assert.equal(c.elicitations.length, 2);
    held.get(b)!.answer({ action: "accept", content: { answer: "blue" } });
    assert.deepEqual(await pb, { stopReason: "end_turn" });
    assert.deepEqual(received, [
      { sessionId: a, rejected: { name: "AbortError", message: QUESTION_CANCELLED } },
      { sessionId: b, resolved: { outcome: "answered", answer: "blue" } },
    ]);
    const last = h.model.requests.filter((r) => userText(r) === "b").at(-1)!;
    assert.deepEqual(toolOutputs(last), [{ output: "blue", isError: false }]);
    // A late answer to A's cancelled question changes nothing.
    held.get(a)!.answer({ action: "accept", content: { answer: "red" } });
    await new Promise((r) => setImmediate(r));
    assert.equal(c.elicitations.length, 2);
    assert.equal(received.length, 2);
  });

  it("I-46: the question goes to the owning session only, naming a tool call announced there first", async () => {
    const c = await h.connect({ clientCapabilities: FORM });
    const a = await c.newSession(h.ws[0]!);
    const b = await c.newSession(h.ws[1]!);
    c.onElicitation((req) => ({ action: "accept", content: { answer: sessionOf(req) === a ? "red" : "blue" } }));
    await Promise.all([c.prompt(a, "a"), c.prompt(b, "b")]);
    assert.equal(c.elicitations.length, 2);
    for (const [sid, prompt] of [
      [a, "a"],
      [b, "b"],
    ] as const) {
      const req = c.elicitations.find((r) => sessionOf(r) === sid)!;
      const ids = announced(c, sid);
      assert.equal(ids.length, 1);
      assert.deepEqual(req, {
        sessionId: sid,
        toolCallId: ids[0],
        mode: "form",
        message: `Which color for ${prompt}?`,
        requestedSchema: {
          type: "object",
          properties: { answer: { type: "string", title: "Answer", enum: ["red", "blue"] } },
          required: ["answer"],
        },
      });
      assert.ok(c.order.indexOf(`update:${sid}:tool_call`) < c.order.indexOf(`elicitation:${sid}`), "announced before the question");
    }
    assert.deepEqual(
      received.map((r) => [r.sessionId, "resolved" in r ? r.resolved : null]).sort(),
      [
        [a, { outcome: "answered", answer: "red" }],
        [b, { outcome: "answered", answer: "blue" }],
      ].sort(),
    );
  });

  it("I-46: a client without form elicitation is never offered ask_user and never sees a question; other connections keep theirs", async () => {
    const plain = await h.connect({ clientCapabilities: { elicitation: {} } }); // empty elicitation advertises no mode
    const rich = await h.connect({ clientCapabilities: FORM });
    const p = await plain.newSession(h.ws[0]!);
    const r = await rich.newSession(h.ws[1]!);
    rich.onElicitation(() => ({ action: "accept", content: { answer: "red" } }));
    plain.onElicitation(() => ({ action: "accept", content: { answer: "red" } }));
    await plain.prompt(p, "plain");
    await rich.prompt(r, "rich");
    const toolsOf = (prompt: string): string[][] =>
      h.model.requests.filter((q) => userText(q) === prompt).map((q) => q.tools.map((t) => t.name));
    // The model calls ask_user anyway (it was not offered): it fails closed, no frame.
    assert.deepEqual(toolsOf("plain"), [[], []]);
    assert.deepEqual(toolsOf("rich"), [["ask_user"], ["ask_user"]]);
    assert.deepEqual(plain.elicitations, []);
    assert.equal(rich.elicitations.length, 1);
    const plainLast = h.model.requests.filter((q) => userText(q) === "plain").at(-1)!;
    assert.deepEqual(toolOutputs(plainLast), [{ output: UNAVAILABLE_OUTPUT, isError: true }]);
    assert.deepEqual(received, [{ sessionId: r, resolved: { outcome: "answered", answer: "red" } }]);
  });

  it("I-46: a question from an agent no record owns, or for an unannounced tool call, sends no frame and fails closed", async () => {
    const c = await h.connect({ clientCapabilities: FORM });
    const a = await c.newSession(h.ws[0]!);
    const agent = h.live.get(a)!;
    const signal = new AbortController().signal;
    assert.deepEqual(await h.live.hooks.askUser!(agent, "call_never_announced", { question: "q?" }, signal), {
      outcome: "unavailable",
    });
    const rec = c.bridge.records.get(a)!;
    c.bridge.records.delete(a); // the agent is no longer owned by this connection's record
    try {
      assert.equal(c.bridge.canAskUser(agent), false);
      assert.equal(c.bridge.askUser(agent, "call_any", { question: "q?" }, signal), undefined);
      assert.deepEqual(await h.live.hooks.askUser!(agent, "call_any", { question: "q?" }, signal), { outcome: "unavailable" });
    } finally {
      c.bridge.records.set(a, rec);
    }
    assert.deepEqual(c.elicitations, []);
  });

  it("decline, cancel by the user, a malformed reply and an answer outside the choices all read as declined", async () => {
    const c = await h.connect({ clientCapabilities: FORM });
    const a = await c.newSession(h.ws[0]!);
    const replies: acp.CreateElicitationResponse[] = [
      { action: "decline" },
      { action: "cancel" },
      { action: "accept" },
      { action: "accept", content: { answer: "green" } },
      { action: "accept", content: { answer: 3 } },
    ];
    for (const reply of replies) {
      c.onElicitation(() => reply);
      assert.deepEqual(await c.prompt(a, "x"), { stopReason: "end_turn" });
      assert.deepEqual(toolOutputs(h.model.requests.at(-1)!).at(-1), { output: DECLINED_OUTPUT, isError: false });
    }
    assert.deepEqual(
      received.map((r) => ("resolved" in r ? r.resolved : r.rejected)),
      replies.map(() => ({ outcome: "declined" })),
    );
  });

  it("I-45: a pending question is cancelled at teardown (the asker gets an AbortError, nothing stays pending)", async () => {
    const c = await h.connect({ clientCapabilities: FORM });
    const a = await c.newSession(h.ws[0]!);
    holdQuestions(c);
    const p = c.prompt(a, "x");
    await until(() => c.elicitations.length === 1, "question pending");
    await c.bridge.teardown();
    assert.deepEqual(await p, { stopReason: "cancelled" });
    await until(() => received.length === 1, "the tool saw the outcome");
    assert.deepEqual(received, [{ sessionId: a, rejected: { name: "AbortError", message: QUESTION_CANCELLED } }]);
  });
});
