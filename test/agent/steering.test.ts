// Agent tier: steering (`_session/steering`) against the built agent-server and the fake model server.
// A steer lands in its own session's running turn at the next model step (I-104), is shown in the
// transcript as a marked user_message_chunk, is in the model's next request, and replays on load.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { startFakeModelServer, type FakeModelServer, type FakeRequest } from "../support/fakeModelServer";
import { modelEnv, spawnAgent, tempDir, type AgentProcess } from "../support/agentProcess";

const STEERING = "_session/steering";

interface SteerAnswer {
  outcome: string;
  reason?: string;
  _meta?: { "manifold/steer"?: { messageId: string } };
}

function steer(agent: AgentProcess, sessionId: string, text: string, idle = true): Promise<SteerAnswer> {
  const params = {
    sessionId,
    prompt: [{ type: "text", text }],
    ...(idle ? { _meta: { steering: { idleBehavior: "promptRequired" } } } : {}),
  };
  return agent.agent.request(STEERING, params) as Promise<SteerAnswer>;
}

/** The steer chunks of a session's transcript: [text, applied]. */
function steerChunks(agent: AgentProcess, sessionId: string): Array<[string, unknown]> {
  return agent.updatesOf(sessionId).flatMap((u) => {
    const meta = (u._meta as Record<string, { applied?: unknown }> | null | undefined)?.["manifold/steer"];
    return u.sessionUpdate === "user_message_chunk" && meta && u.content.type === "text"
      ? [[u.content.text, meta.applied] as [string, unknown]]
      : [];
  });
}

/** The last message of a request (OpenAI wire shape), its role and text. */
function lastMessage(req: FakeRequest): { role: unknown; text: string } {
  const m = req.messages[req.messages.length - 1] as { role?: unknown; content?: unknown };
  const text =
    typeof m.content === "string"
      ? m.content
      : Array.isArray(m.content)
        ? (m.content as Array<{ text?: string }>).map((p) => p.text ?? "").join("")
        : "";
  return { role: m.role, text };
}

const bodyHas = (req: FakeRequest, s: string): boolean => JSON.stringify(req.body).includes(s);

describe("steering (spawned)", () => {
  let server: FakeModelServer;
  let agent: AgentProcess;
  const wsA = tempDir();
  const wsB = tempDir();

  before(async () => {
    server = await startFakeModelServer();
    agent = spawnAgent({ env: modelEnv(server.url) });
  });
  beforeEach(() => server.reset());
  after(async () => {
    await agent.close();
    agent.cleanup();
    await server.close();
    wsA.cleanup();
    wsB.cleanup();
  });

  it("initialize advertises steering in its top-level _meta", async () => {
    const res = await agent.initialize();
    assert.deepEqual(res._meta, { steering: { supported: true } });
  });

  it("a steer lands in the running turn: the transcript marks it, the next request carries it, the prompt's one response ends the turn", async () => {
    const { sessionId } = await agent.newSession(wsA.path);
    // The first step ends without tool calls while the steer waits: the turn runs one more step for it.
    server.route("[S1]", { hang: true, then: { text: "first answer" } }, { text: "after the steer" });
    const prompt = agent.prompt(sessionId, "[S1] start");
    await server.waitForHang(1);
    const answer = await steer(agent, sessionId, "[S1] also check the tests");
    assert.equal(answer.outcome, "injected");
    const messageId = answer._meta?.["manifold/steer"]?.messageId;
    assert.equal(typeof messageId, "string");
    server.release();
    assert.deepEqual(await prompt, { stopReason: "end_turn" });
    assert.equal(server.requests.length, 2);
    assert.deepEqual(lastMessage(server.requests[1]!), { role: "user", text: "[S1] also check the tests" });
    assert.ok(!bodyHas(server.requests[0]!, "also check the tests"));
    assert.equal(agent.textOf(sessionId), "first answerafter the steer");
    // In the transcript: after the first answer, before the second, marked as a steer with its id.
    const updates = agent.updatesOf(sessionId);
    const at = updates.findIndex((u) => u.sessionUpdate === "user_message_chunk");
    assert.deepEqual(updates[at], {
      sessionUpdate: "user_message_chunk",
      content: { type: "text", text: "[S1] also check the tests" },
      messageId,
      _meta: { "manifold/steer": { messageId, applied: true } },
    });
    const textAt = (t: string): number =>
      updates.findIndex((u) => u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" && u.content.text === t);
    assert.ok(textAt("first answer") < at && at < textAt("after the steer"), "the steer sits between the two steps");
  });

  it("a steer while the turn waits on a permission is queued for the next step, not taken as the answer", async () => {
    const { sessionId } = await agent.newSession(wsA.path);
    server.route("[S2]", { toolCalls: [{ name: "write_file", args: { path: "../steer-outside.txt", content: "x" } }] }, { text: "done" });
    let answer: SteerAnswer | undefined;
    agent.onPermission(async () => {
      answer = await steer(agent, sessionId, "[S2] never mind, skip that");
      return { outcome: { outcome: "selected", optionId: "reject_once" } };
    });
    try {
      assert.deepEqual(await agent.prompt(sessionId, "[S2] write outside"), { stopReason: "end_turn" });
    } finally {
      agent.onPermission(() => ({ outcome: { outcome: "cancelled" } }));
    }
    assert.equal(answer?.outcome, "injected");
    assert.equal(agent.permissionRequests.length, 1);
    const second = server.requests[1]!;
    assert.deepEqual(lastMessage(second), { role: "user", text: "[S2] never mind, skip that" });
    assert.equal(
      (second.messages[second.messages.length - 2] as { role?: string }).role,
      "tool",
      "the tool result comes first, then the steer",
    );
    assert.match(JSON.stringify(second.messages[second.messages.length - 2]), /declined/);
  });

  it("I-104: after the turn ended a steer answers promptRequired (with or without idleBehavior); the client's following prompt runs it", async () => {
    const { sessionId } = await agent.newSession(wsA.path);
    server.route("[S3]", { text: "ok" }, { text: "took the late one" });
    assert.deepEqual(await agent.prompt(sessionId, "[S3] first"), { stopReason: "end_turn" });
    assert.deepEqual(await steer(agent, sessionId, "[S3] late"), { outcome: "promptRequired", reason: "noRunningTurn" });
    assert.deepEqual(await steer(agent, sessionId, "[S3] late", false), { outcome: "promptRequired", reason: "noRunningTurn" });
    assert.deepEqual(steerChunks(agent, sessionId), [], "a refused steer leaves no trace");
    assert.deepEqual(await agent.prompt(sessionId, "[S3] late"), { stopReason: "end_turn" });
    assert.deepEqual(lastMessage(server.requests[1]!), { role: "user", text: "[S3] late" });
  });

  it("I-104: with A and B both running, a steer of A reaches A's requests and transcript only; again just after A ends it is promptRequired while B still takes its own", async () => {
    const a = (await agent.newSession(wsA.path)).sessionId;
    const b = (await agent.newSession(wsB.path)).sessionId;
    server.route("[A]", { hang: true, then: { text: "a1" } }, { text: "a2" });
    // B: a tool call first, then a step that hangs until A has ended, then one more for B's steer.
    server.route(
      "[B]",
      { hang: true, then: { toolCalls: [{ name: "list_files", args: { path: "." } }] } },
      { hang: true, then: { text: "b2" } },
      { text: "b3" },
    );
    const pa = agent.prompt(a, "[A] go");
    const pb = agent.prompt(b, "[B] go");
    await server.waitForHang(2);
    assert.equal((await steer(agent, a, "[A] steer-for-A-only")).outcome, "injected");
    server.release();
    assert.deepEqual(await pa, { stopReason: "end_turn" });
    await server.waitForHang(3); // B's second step is open
    assert.deepEqual(await steer(agent, a, "[A] too-late-for-A"), { outcome: "promptRequired", reason: "noRunningTurn" });
    assert.equal((await steer(agent, b, "[B] steer-for-B-only")).outcome, "injected");
    server.release();
    assert.deepEqual(await pb, { stopReason: "end_turn" });

    for (const req of server.requests) {
      const isA = bodyHas(req, "[A] go");
      assert.ok(isA !== bodyHas(req, "[B] go"), "each request belongs to one session");
      assert.ok(!bodyHas(req, isA ? "steer-for-B-only" : "steer-for-A-only"), "no steer crosses sessions");
      assert.ok(!bodyHas(req, "too-late-for-A"), "a refused steer reaches no model");
    }
    assert.equal(server.requests.filter((r) => bodyHas(r, "steer-for-A-only")).length, 1);
    assert.equal(server.requests.filter((r) => bodyHas(r, "steer-for-B-only")).length, 1);
    assert.deepEqual(steerChunks(agent, a), [["[A] steer-for-A-only", true]]);
    assert.deepEqual(steerChunks(agent, b), [["[B] steer-for-B-only", true]]);
  });

  it("a steer accepted into a turn that is then cancelled is recorded, marked not acted on, and stays in the history", async () => {
    const { sessionId } = await agent.newSession(wsA.path);
    server.route("[C]", { hang: true });
    const prompt = agent.prompt(sessionId, "[C] slow");
    await server.waitForHang(1);
    assert.equal((await steer(agent, sessionId, "[C] and mind the docs")).outcome, "injected");
    await agent.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    assert.deepEqual(await prompt, { stopReason: "cancelled" });
    assert.deepEqual(steerChunks(agent, sessionId), [["[C] and mind the docs", false]]);
    assert.match(agent.textOf(sessionId), /arrived as the turn stopped, so the model did not act on it/);
    server.route("[C]", { text: "next" });
    assert.deepEqual(await agent.prompt(sessionId, "[C] again"), { stopReason: "end_turn" });
    assert.ok(bodyHas(server.requests[1]!, "[C] and mind the docs"), "the next request's history has it");
  });

  it("a steer with unsupported content or for an unknown session is refused", async () => {
    const { sessionId } = await agent.newSession(wsA.path);
    await assert.rejects(
      agent.agent.request(STEERING, { sessionId, prompt: [{ type: "image", mimeType: "image/bmp", data: "AAAA" }] }),
      (e: unknown) => e instanceof acp.RequestError && e.code === -32602 && /image\/bmp/.test(e.message + JSON.stringify(e.data)),
    );
    await assert.rejects(
      agent.agent.request(STEERING, { sessionId, prompt: [{ type: "text", text: "  " }] }),
      (e: unknown) => e instanceof acp.RequestError && e.code === -32602,
    );
    await assert.rejects(
      agent.agent.request(STEERING, { sessionId: "no-such-session", prompt: [{ type: "text", text: "x" }] }),
      (e: unknown) => e instanceof acp.RequestError,
    );
  });
});

describe("steering across a restart (spawned)", () => {
  it("session/load replays the steer where it landed, and the next request still carries it", async () => {
    const server = await startFakeModelServer();
    const data = tempDir("manifold-steer-data-");
    const ws = tempDir();
    const procs: AgentProcess[] = [];
    try {
      const p1 = spawnAgent({ env: modelEnv(server.url), dataDir: data.path });
      procs.push(p1);
      await p1.initialize();
      const { sessionId } = await p1.newSession(ws.path);
      server.route("[L]", { hang: true, then: { text: "one" } }, { text: "two" });
      const prompt = p1.prompt(sessionId, "[L] start");
      await server.waitForHang(1);
      assert.equal((await steer(p1, sessionId, "[L] steer me")).outcome, "injected");
      server.release();
      await prompt;
      await p1.close();

      const p2 = spawnAgent({ env: modelEnv(server.url), dataDir: data.path });
      procs.push(p2);
      await p2.initialize();
      await p2.agent.request(acp.methods.agent.session.load, { sessionId, cwd: ws.path, mcpServers: [] });
      const replayed = p2
        .updatesOf(sessionId)
        .filter((u) => u.sessionUpdate === "user_message_chunk" || u.sessionUpdate === "agent_message_chunk");
      assert.deepEqual(
        replayed.map((u) => [
          u.sessionUpdate,
          u.content.type === "text" ? u.content.text : "",
          (u._meta as Record<string, unknown> | null | undefined)?.["manifold/steer"] !== undefined,
        ]),
        [
          ["user_message_chunk", "[L] start", false],
          ["agent_message_chunk", "one", false],
          ["user_message_chunk", "[L] steer me", true],
          ["agent_message_chunk", "two", false],
        ],
      );
      server.route("[L]", { text: "three" });
      await p2.prompt(sessionId, "[L] more");
      const last = server.requests[server.requests.length - 1]!;
      assert.deepEqual(
        last.messages.map((m) => (m as { role: string }).role),
        ["system", "user", "assistant", "user", "assistant", "user"],
      );
      await p2.close();
    } finally {
      for (const p of procs) p.cleanup();
      await server.close();
      data.cleanup();
      ws.cleanup();
    }
  });
});
