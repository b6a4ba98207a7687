// Agent tier: the built agent-server over stdio against the fake model server.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startFakeModelServer, type FakeModelServer } from "../support/fakeModelServer";
import { modelEnv, spawnAgent, tempDir, type AgentProcess } from "../support/agentProcess";

describe("agent-server basics (spawned)", () => {
  let server: FakeModelServer;
  let agent: AgentProcess;
  const wsA = tempDir();
  const wsB = tempDir();

  before(async () => {
    server = await startFakeModelServer();
    agent = spawnAgent({ env: modelEnv(server.url) });
  });
  after(async () => {
    await agent.close();
    agent.cleanup();
    await server.close();
    wsA.cleanup();
    wsB.cleanup();
  });

  it("initialize advertises exactly the supported capabilities", async () => {
    const res = await agent.initialize();
    assert.equal(res.protocolVersion, 1);
    assert.deepEqual(res.agentCapabilities, {
      loadSession: true,
      promptCapabilities: { image: true, audio: false, embeddedContext: true },
      mcpCapabilities: { http: true, sse: false }, // stdio is the baseline; streamable HTTP too
      sessionCapabilities: { list: {}, resume: {}, close: {}, delete: {} },
      // _manifold/mcp_status and _manifold/mcp_restart; session/fork (unstable) with Manifold's cut before a prompt (fork.ts); exact session ids.
      _meta: {
        manifold: { mcpStatus: true, mcpRestart: true, mcpConfine: true },
        "session/fork": { "manifold.dev/keepPrompts": true },
        "manifold.dev/exactSessionIds": true,
        "manifold.dev/historyPages": true,
        "manifold.dev/delegate": { method: "_manifold/delegate", agentsMeta: "manifold.dev/delegateAgents" },
      },
    });
    assert.equal(res.agentInfo?.name, "manifold-agent");
  });

  it("new session + prompt streams the model's text and ends the turn", async () => {
    const { sessionId, configOptions } = await agent.newSession(wsA.path);
    assert.match(sessionId, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.deepEqual(
      configOptions?.map((o) => o.id),
      ["mode", "model", "sandbox", "approval"],
    );
    server.enqueue({ text: ["Hel", "lo ", "world"] });
    const res = await agent.prompt(sessionId, "say hello");
    assert.deepEqual(res, { stopReason: "end_turn" });
    assert.equal(agent.textOf(sessionId), "Hello world");
    const info = agent.updatesOf(sessionId).find((u) => u.sessionUpdate === "session_info_update");
    assert.equal(info?.sessionUpdate === "session_info_update" ? info.title : undefined, "say hello");
  });

  it("I-1: two sessions with different cwds prompted concurrently stream only their own text", async () => {
    const a = await agent.newSession(wsA.path);
    const b = await agent.newSession(wsB.path);
    server.route("[A]", { text: ["alpha-", "one ", "alpha-two"] });
    server.route("[B]", { text: ["bravo-", "one ", "bravo-two"] });
    const [ra, rb] = await Promise.all([agent.prompt(a.sessionId, "[A] go"), agent.prompt(b.sessionId, "[B] go")]);
    assert.deepEqual([ra.stopReason, rb.stopReason], ["end_turn", "end_turn"]);
    assert.equal(agent.textOf(a.sessionId), "alpha-one alpha-two");
    assert.equal(agent.textOf(b.sessionId), "bravo-one bravo-two");
  });

  it("I-63: a relative, missing or non-directory cwd is refused with invalid params", async () => {
    for (const cwd of ["relative/dir", "/definitely/not/here", `${wsA.path}/nope`]) {
      await assert.rejects(agent.newSession(cwd), (err: unknown) => err instanceof acp.RequestError && err.code === -32602, cwd);
    }
  });

  it("I-30: a model HTTP failure rejects that prompt with internal error and a message; the other session never notices", async () => {
    const a = await agent.newSession(wsA.path);
    const b = await agent.newSession(wsB.path);
    server.route("[fail]", { httpError: { status: 401, body: { error: { message: "invalid api key" } } } });
    server.route("[fine]", { text: "B is fine" });
    const [ra, rb] = await Promise.allSettled([agent.prompt(a.sessionId, "[fail] x"), agent.prompt(b.sessionId, "[fine] y")]);
    assert.equal(ra.status, "rejected");
    const err = (ra as PromiseRejectedResult).reason as unknown;
    assert.ok(err instanceof acp.RequestError && err.code === -32603, String(err));
    assert.match(agent.textOf(a.sessionId), /turn stopped with an error/);
    assert.deepEqual(rb.status === "fulfilled" ? rb.value : rb.reason, { stopReason: "end_turn" });
    assert.equal(agent.textOf(b.sessionId), "B is fine");
    server.route("[again]", { text: "recovered" });
    assert.deepEqual(await agent.prompt(a.sessionId, "[again]"), { stopReason: "end_turn" });
    assert.ok(!agent.stderr().includes("sk-test-not-a-real-key"));
  });

  it("a non-JSON line gets a parse error and the process keeps serving", async () => {
    agent.child.stdin!.write("this is not json\n");
    const s = await agent.newSession(wsA.path);
    assert.ok(
      agent.frames.some(
        (f) =>
          typeof f === "object" &&
          f !== null &&
          (f as { id?: unknown }).id === null &&
          (f as { error?: { code?: number } }).error?.code === -32700,
      ),
      "a -32700 response with id null",
    );
    server.enqueue({ text: "still here" });
    assert.deepEqual(await agent.prompt(s.sessionId, "ping"), { stopReason: "end_turn" });
    assert.equal(agent.textOf(s.sessionId), "still here");
  });
});

describe("agent-server with a bad model configuration (spawned)", () => {
  it("keeps serving: initialize answers, session/new fails with the configuration error", async () => {
    const agent = spawnAgent({ env: { MANIFOLD_MODEL_PROVIDER: "no-such-provider" } });
    const ws = tempDir();
    try {
      await agent.initialize();
      await assert.rejects(
        agent.newSession(ws.path),
        (e: unknown) => e instanceof acp.RequestError && e.code === -32603 && /provider/i.test(JSON.stringify(e)),
      );
      await agent.close();
    } finally {
      agent.cleanup();
      ws.cleanup();
    }
  });
});
