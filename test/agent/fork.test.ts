// Agent tier: session/fork cut before a prompt (edit and resend): the model never sees the abandoned turns.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startFakeModelServer, type FakeModelServer } from "../support/fakeModelServer";
import { modelEnv, spawnAgent, tempDir } from "../support/agentProcess";

describe("session/fork with manifold.dev/keepPrompts (spawned)", () => {
  let server: FakeModelServer;
  const cleanups: Array<() => void> = [];
  before(async () => {
    server = await startFakeModelServer();
  });
  after(async () => {
    for (const c of cleanups) c();
    await server.close();
  });

  it("advertises the fork, and a fork cut before prompt 2 never sends the abandoned turn to the model", async () => {
    const agent = spawnAgent({ env: modelEnv(server.url) });
    cleanups.push(() => agent.cleanup());
    const init = await agent.initialize();
    assert.deepEqual((init.agentCapabilities?._meta as Record<string, unknown> | undefined)?.["session/fork"], {
      "manifold.dev/keepPrompts": true,
    });
    const ws = tempDir();
    cleanups.push(ws.cleanup);
    const { sessionId } = await agent.newSession(ws.path);
    server.enqueue({ text: "first answer" }, { text: "abandoned answer" });
    await agent.prompt(sessionId, "first prompt");
    await agent.prompt(sessionId, "ABANDONED prompt");
    const forked = await agent.agent.request<{ sessionId: string }>("session/fork", {
      sessionId,
      cwd: ws.path,
      mcpServers: [],
      _meta: { "manifold.dev/keepPrompts": 1 },
    });
    assert.notEqual(forked.sessionId, sessionId);
    server.enqueue({ text: "edited answer" });
    const before = server.requests.length;
    assert.equal((await agent.prompt(forked.sessionId, "EDITED prompt")).stopReason, "end_turn");
    const req = server.requests[before]!;
    const sent = JSON.stringify(req.messages);
    assert.match(sent, /first prompt/);
    assert.match(sent, /first answer/);
    assert.match(sent, /EDITED prompt/);
    assert.doesNotMatch(sent, /ABANDONED|abandoned answer/, "the abandoned turn is not in the model request");
    // The source session keeps its whole history.
    server.enqueue({ text: "still there" });
    const n = server.requests.length;
    await agent.prompt(sessionId, "again");
    assert.match(JSON.stringify(server.requests[n]!.messages), /ABANDONED prompt/);
    await assert.rejects(
      agent.agent.request("session/fork", { sessionId, cwd: ws.path, _meta: { "manifold.dev/keepPrompts": -1 } }),
      /keepPrompts/,
    );
    await agent.close();
  });
});
