// Agent tier: real tools through the runtime's ToolContext, permission routing to the owning session.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startFakeModelServer, type FakeModelServer } from "../support/fakeModelServer";
import { modelEnv, spawnAgent, tempDir, type AgentProcess } from "../support/agentProcess";

describe("tools through the agent loop (spawned)", () => {
  let server: FakeModelServer;
  let agent: AgentProcess;
  const wsA = tempDir();
  const wsB = tempDir();
  const outside = tempDir("manifold-outside-");
  before(async () => {
    server = await startFakeModelServer();
    agent = spawnAgent({ env: modelEnv(server.url) });
    await agent.initialize();
  });
  after(async () => {
    await agent.close();
    agent.cleanup();
    await server.close();
    for (const d of [wsA, wsB, outside]) d.cleanup();
  });

  it("I-65: relative writes of two sessions land in their own workspaces; tool cards stream in each session", async () => {
    const a = await agent.newSession(wsA.path);
    const b = await agent.newSession(wsB.path);
    server.route("[wa]", { toolCalls: [{ name: "write_file", args: { path: "x.txt", content: "from A" } }] }, { text: "A wrote" });
    server.route("[wb]", { toolCalls: [{ name: "write_file", args: { path: "x.txt", content: "from B" } }] }, { text: "B wrote" });
    const res = await Promise.all([agent.prompt(a.sessionId, "[wa]"), agent.prompt(b.sessionId, "[wb]")]);
    assert.deepEqual(
      res.map((r) => r.stopReason),
      ["end_turn", "end_turn"],
    );
    assert.equal(readFileSync(join(wsA.path, "x.txt"), "utf8"), "from A");
    assert.equal(readFileSync(join(wsB.path, "x.txt"), "utf8"), "from B");
    for (const id of [a.sessionId, b.sessionId]) {
      const kinds = agent.updatesOf(id).map((u) => u.sessionUpdate);
      assert.ok(kinds.includes("tool_call") && kinds.includes("tool_call_update"), kinds.join(","));
    }
  });

  it("I-41: a write outside the workspace asks the owning session, naming the announced call; Reject leaves no file", async () => {
    const a = await agent.newSession(wsA.path);
    const b = await agent.newSession(wsB.path);
    const target = join(outside.path, "escape.txt");
    agent.onPermission(() => ({ outcome: { outcome: "selected", optionId: "reject_once" } }));
    const before = agent.permissionRequests.length;
    server.route("[esc]", { toolCalls: [{ name: "write_file", args: { path: target, content: "nope" } }] }, { text: "ok" });
    assert.equal((await agent.prompt(a.sessionId, "[esc]")).stopReason, "end_turn");
    const reqs = agent.permissionRequests.slice(before);
    assert.equal(reqs.length, 1);
    assert.equal(reqs[0]!.sessionId, a.sessionId);
    const announced = agent.updatesOf(a.sessionId).flatMap((u) => (u.sessionUpdate === "tool_call" ? [u.toolCallId] : []));
    assert.ok(announced.includes(reqs[0]!.toolCall.toolCallId));
    assert.equal(existsSync(target), false);
    assert.deepEqual(
      agent.updatesOf(b.sessionId).filter((u) => u.sessionUpdate !== "available_commands_update"),
      [],
      "B saw nothing of A's turn",
    );
  });
  it("I-41: a rejection with a note in _meta reaches the model: the tool result says the user rejected the call and quotes the note", async () => {
    const a = await agent.newSession(wsA.path);
    const target = join(outside.path, "noted.txt");
    agent.onPermission(() => ({
      outcome: { outcome: "selected", optionId: "reject_once" },
      _meta: { "manifold.dev/note": "  Write it under ./out instead.  " },
    }));
    const before = server.requests.length;
    server.route("[note]", { toolCalls: [{ name: "write_file", args: { path: target, content: "nope" } }] }, { text: "ok" });
    assert.equal((await agent.prompt(a.sessionId, "[note]")).stopReason, "end_turn");
    assert.equal(existsSync(target), false);
    const next = server.requests.slice(before).find((r) => r.afterToolResult);
    assert.ok(next, "the model was asked again after the tool result");
    const sent = JSON.stringify(next.messages);
    assert.ok(sent.includes("The user rejected this tool call with a note: Write it under ./out instead."), sent);
  });
});
