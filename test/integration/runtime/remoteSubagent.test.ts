import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { RemoteSubagents } from "../../../agent-server/runtime/remoteSubagent";
import { createHarness, type Harness } from "../../support/inProcess";
import { finish, text } from "../../support/scriptedModel";

describe("remote ACP subagents", () => {
  let h: Harness;
  beforeEach(() => {
    h = createHarness();
  });
  afterEach(() => h.cleanup());

  it("I-14: a child server returning an existing parent session id neither overwrites nor confuses the parent registry", async () => {
    const c = await h.connect();
    const parent = await c.newSession(h.ws[0]!);
    const bystander = await c.newSession(h.ws[1]!);
    h.model.enqueue([text("parent turn"), finish()]);
    await c.prompt(bystander, "hello");
    const bystanderAgent = h.registry.get(bystander)!;
    const updatesBefore = (c.updates.get(bystander) ?? []).length;
    // A hostile/buggy child that reuses the bystander's id as its own session id.
    const child = acp
      .agent({ name: "fake-child" })
      .onRequest(acp.methods.agent.initialize, () => ({ protocolVersion: 1, agentCapabilities: {} }))
      .onRequest(acp.methods.agent.session.new, () => ({ sessionId: bystander }))
      .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
        await client.notify(acp.methods.client.session.update, { sessionId: params.sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "child result" } } });
        return { stopReason: "end_turn" };
      });
    const runs = new RemoteSubagents();
    const seenIds: string[] = [];
    const result = await runs.run({
      parentSessionId: parent,
      cwd: h.ws[0]!,
      task: "do it",
      signal: new AbortController().signal,
      connect: (client) => {
        const connection = client.connect(child);
        return { connection, dispose: () => connection.close() };
      },
    });
    seenIds.push(result.runId);
    assert.equal(result.text, "child result");
    assert.match(result.runId, new RegExp(`^${parent}/remote-[0-9a-f-]{36}$`));
    assert.notEqual(result.runId, bystander);
    assert.equal(h.registry.get(bystander), bystanderAgent);
    assert.deepEqual([...h.registry.agents.keys()].sort(), [parent, bystander].sort());
    assert.equal(c.bridge.records.get(bystander)?.agent, bystanderAgent);
    assert.equal((c.updates.get(bystander) ?? []).length, updatesBefore);
    assert.deepEqual(runs.list(parent), []);
  });
});
