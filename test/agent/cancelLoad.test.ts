// Agent tier: cancel, load after restart, SIGKILL mid-turn recovery.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startFakeModelServer, type FakeModelServer } from "../support/fakeModelServer";
import { modelEnv, spawnAgent, tempDir, type AgentProcess } from "../support/agentProcess";

function chunks(updates: acp.SessionUpdate[], kind: "agent_message_chunk" | "user_message_chunk"): string {
  return updates.flatMap((u) => (u.sessionUpdate === kind && u.content.type === "text" ? [u.content.text] : [])).join("");
}

describe("cancel and load (spawned)", () => {
  let server: FakeModelServer;
  const ws = tempDir();
  const data = tempDir("manifold-data-");
  const procs: AgentProcess[] = [];
  const start = async (): Promise<AgentProcess> => {
    const p = spawnAgent({ env: modelEnv(server.url), dataDir: data.path });
    procs.push(p);
    await p.initialize();
    return p;
  };

  before(async () => {
    server = await startFakeModelServer();
  });
  after(async () => {
    for (const p of procs) p.cleanup();
    await server.close();
    ws.cleanup();
    data.cleanup();
  });

  it("I-34/I-37: session/cancel of a hanging turn answers cancelled; the session serves the next prompt", async () => {
    const p = await start();
    const { sessionId } = await p.newSession(ws.path);
    server.enqueue({ text: "before " }, { hang: true });
    server.enqueue({ text: "after cancel" });
    // First prompt finishes normally, then a hanging one gets cancelled.
    assert.equal((await p.prompt(sessionId, "one")).stopReason, "end_turn");
    const hanging = p.prompt(sessionId, "two");
    await server.waitForHang(1);
    await p.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    assert.deepEqual(await hanging, { stopReason: "cancelled" });
    await server.waitForAborts(1);
    assert.deepEqual(await p.prompt(sessionId, "three"), { stopReason: "end_turn" });
    assert.equal(p.textOf(sessionId), "before after cancel");
    await p.close();
  });

  it("I-25/I-86: after a restart, session/load replays the whole history before responding", async () => {
    const p1 = await start();
    const { sessionId } = await p1.newSession(ws.path);
    server.enqueue({ text: ["first ", "answer"] }, { text: "second answer" });
    await p1.prompt(sessionId, "question one");
    await p1.prompt(sessionId, "question two");
    await p1.kill("SIGKILL"); // right after end_turn: the turns must be durable
    const p2 = await start();
    const res = await p2.agent.request(acp.methods.agent.session.load, { sessionId, cwd: ws.path, mcpServers: [] });
    const replayed = p2.updatesOf(sessionId);
    assert.equal(chunks(replayed, "user_message_chunk"), "question onequestion two");
    assert.equal(chunks(replayed, "agent_message_chunk"), "first answersecond answer");
    assert.deepEqual(
      res.configOptions?.map((o) => [o.id, o.currentValue]),
      [
        ["mode", "agent"],
        ["model", "openai-compatible:fake-model"],
        ["sandbox", "workspace-write"],
        ["approval", "on-request"],
      ],
    );
    // The loaded session keeps the conversation: the model sees both earlier turns.
    server.enqueue({ text: "third" });
    await p2.prompt(sessionId, "question three");
    const last = server.requests[server.requests.length - 1]!;
    assert.equal(JSON.stringify(last.messages).includes("first answer"), true);
    await p2.close();
  });

  it("I-87/I-95: SIGKILL mid-turn, restart, load shows every completed turn and the interrupted one marked", async () => {
    // Its own fake server, so hang counts are this test's alone.
    const own = await startFakeModelServer();
    const startOwn = async (): Promise<AgentProcess> => {
      const p = spawnAgent({ env: modelEnv(own.url), dataDir: data.path });
      procs.push(p);
      await p.initialize();
      return p;
    };
    const p1 = await startOwn();
    const { sessionId } = await p1.newSession(ws.path);
    own.enqueue({ text: "done one" }, { hang: true });
    await p1.prompt(sessionId, "turn one");
    const pending = p1.prompt(sessionId, "turn two").catch(() => "rejected");
    await own.waitForHang(1);
    await p1.kill("SIGKILL");
    assert.equal(await pending, "rejected");
    const p2 = await startOwn();
    await p2.agent.request(acp.methods.agent.session.load, { sessionId, cwd: ws.path, mcpServers: [] });
    const replayed = p2.updatesOf(sessionId);
    assert.equal(chunks(replayed, "user_message_chunk"), "turn oneturn two", readFileSync(join(data.path, `${sessionId}.jsonl`), "utf8"));
    const text = chunks(replayed, "agent_message_chunk");
    assert.ok(text.startsWith("done one"), text);
    const marker = replayed.find(
      (u) =>
        u.sessionUpdate === "agent_message_chunk" && (u._meta as Record<string, unknown> | undefined)?.["manifold/turnEnd"] !== undefined,
    );
    assert.deepEqual(marker?._meta, { "manifold/turnEnd": { reason: "interrupted" } });
    // Still usable afterwards.
    own.enqueue({ text: "recovered" });
    assert.equal((await p2.prompt(sessionId, "turn three")).stopReason, "end_turn");
    await p2.close();
    await own.close();
  });
});
