// Agent tier: the `update_plan` tool → ACP `plan` updates (each replaces the previous), no permission,
// logged and replayed on load.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { startFakeModelServer } from "../support/fakeModelServer";
import { modelEnv, spawnAgent, tempDir, type AgentProcess } from "../support/agentProcess";

const plans = (agent: AgentProcess, sessionId: string): unknown[] =>
  agent.updatesOf(sessionId).flatMap((u) => (u.sessionUpdate === "plan" ? [u.entries] : []));

describe("update_plan (spawned)", () => {
  it("emits plan updates that replace each other, asks no permission, tells the model, and replays on load; a bad plan is an error for the model", async () => {
    const server = await startFakeModelServer();
    const data = tempDir("manifold-plan-data-");
    const ws = tempDir();
    const procs: AgentProcess[] = [];
    try {
      const p1 = spawnAgent({ env: modelEnv(server.url), dataDir: data.path });
      procs.push(p1);
      await p1.initialize();
      // untrusted approval asks for almost everything: the plan tool still runs without asking.
      const { sessionId } = await p1.newSession(ws.path);
      await p1.agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: "approval", value: "untrusted" });
      server.enqueue(
        {
          toolCalls: [
            {
              name: "update_plan",
              args: {
                plan: [
                  { step: "Read the code", status: "in_progress" },
                  { step: "Fix the bug", status: "pending" },
                ],
                explanation: "starting",
              },
            },
          ],
        },
        {
          toolCalls: [
            {
              name: "update_plan",
              args: {
                plan: [
                  { step: "Read the code", status: "completed" },
                  { step: "Fix the bug", status: "in_progress" },
                ],
              },
            },
          ],
        },
        {
          toolCalls: [
            {
              name: "update_plan",
              args: {
                plan: [
                  { step: "a", status: "in_progress" },
                  { step: "b", status: "in_progress" },
                ],
              },
            },
          ],
        },
        { text: "done" },
      );
      assert.deepEqual(await p1.prompt(sessionId, "plan it"), { stopReason: "end_turn" });
      assert.equal(p1.permissionRequests.length, 0);
      const expected = [
        [
          { content: "Read the code", priority: "medium", status: "in_progress" },
          { content: "Fix the bug", priority: "medium", status: "pending" },
        ],
        [
          { content: "Read the code", priority: "medium", status: "completed" },
          { content: "Fix the bug", priority: "medium", status: "in_progress" },
        ],
      ];
      assert.deepEqual(plans(p1, sessionId), expected, "the invalid third plan sent nothing");
      assert.match(JSON.stringify(server.requests[1]!.messages), /Plan updated\./);
      assert.match(JSON.stringify(server.requests[3]!.messages), /at most one step may be in_progress/);
      const card = p1.updatesOf(sessionId).find((u) => u.sessionUpdate === "tool_call");
      assert.deepEqual(card && card.sessionUpdate === "tool_call" ? [card.title, card.kind] : [], ["Plan: 0/2 done", "think"]);
      await p1.close();

      const p2 = spawnAgent({ env: modelEnv(server.url), dataDir: data.path });
      procs.push(p2);
      await p2.initialize();
      await p2.agent.request(acp.methods.agent.session.load, { sessionId, cwd: ws.path, mcpServers: [] });
      assert.deepEqual(plans(p2, sessionId), expected);
      await p2.close();
    } finally {
      for (const p of procs) p.cleanup();
      await server.close();
      data.cleanup();
      ws.cleanup();
    }
  });
});
