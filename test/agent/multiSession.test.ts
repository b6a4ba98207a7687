// Agent tier: many sessions in one process, SIGTERM teardown.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { startFakeModelServer, type FakeModelServer } from "../support/fakeModelServer";
import { modelEnv, spawnAgent, tempDir } from "../support/agentProcess";

describe("many sessions in one agent-server (spawned)", () => {
  let server: FakeModelServer;
  const cleanups: Array<() => void> = [];
  before(async () => {
    server = await startFakeModelServer();
  });
  after(async () => {
    for (const c of cleanups) c();
    await server.close();
  });

  it("I-1: 20 sessions prompting concurrently: zero cross-talk, zero lost updates", async () => {
    const agent = spawnAgent({ env: modelEnv(server.url) });
    cleanups.push(() => agent.cleanup());
    await agent.initialize();
    const n = 20;
    const chunksPer = 25;
    const sessions: string[] = [];
    for (let i = 0; i < n; i++) {
      const ws = tempDir();
      cleanups.push(ws.cleanup);
      sessions.push((await agent.newSession(ws.path)).sessionId);
    }
    const expected = sessions.map((_, i) => Array.from({ length: chunksPer }, (_, k) => `s${i}c${k};`));
    sessions.forEach((_, i) => server.route(`[S${i}]`, { text: expected[i]! }));
    const results = await Promise.all(sessions.map((id, i) => agent.prompt(id, `[S${i}] go`)));
    assert.deepEqual(
      results.map((r) => r.stopReason),
      sessions.map(() => "end_turn"),
    );
    sessions.forEach((id, i) => {
      const chunks = agent
        .updatesOf(id)
        .flatMap((u) => (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? [u.content.text] : []));
      assert.equal(chunks.join(""), expected[i]!.join(""), `session ${i}`);
    });
    await agent.close();
  });

  it("I-80/I-79: SIGTERM mid-turn drains: prompts answered cancelled, turn/end{disposed} on disk, exit 0", async () => {
    const data = tempDir("manifold-data-");
    const ws = tempDir();
    cleanups.push(data.cleanup, ws.cleanup);
    const agent = spawnAgent({ env: modelEnv(server.url), dataDir: data.path });
    cleanups.push(() => agent.cleanup());
    await agent.initialize();
    const { sessionId } = await agent.newSession(ws.path);
    server.route("[term]", { hang: true });
    const before = server.requests.length;
    const p = agent.prompt(sessionId, "[term] wait");
    await server.waitForRequests(before + 1);
    agent.child.kill("SIGTERM");
    assert.deepEqual(await p, { stopReason: "cancelled" });
    const { code } = await agent.exited;
    assert.equal(code, 0);
    const files = readFileSync(`${data.path}/${sessionId}.jsonl`, "utf8").trim().split("\n");
    const last = JSON.parse(files[files.length - 1]!) as { type: string; reason?: string };
    assert.deepEqual([last.type, last.reason], ["turn/end", "disposed"]);
  });
});
