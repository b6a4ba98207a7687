// An answer never overtakes its own updates: when `AcpClient.prompt` (or `loadSession`) resolves,
// every `session/update` the agent sent before answering has been applied by the session's owner.
// The SDK hands a notification to its handler several microtasks after it arrives but resolves a
// response at once, so without the wait a turn's last text chunk landed after the turn had ended
// (seen with a real gemini-cli: "Hel" shown, "lo there" applied after the prompt returned).
import assert from "node:assert/strict";
import { test } from "node:test";
import * as acp from "@agentclientprotocol/sdk";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { AcpClient } from "../../../extension/agent/acpClient";

const CHUNKS = Array.from({ length: 20 }, (_, i) => `c${i} `);

/**
 * A scripted agent at the message level: a request's updates and its answer are enqueued back to
 * back, the way they arrive when they share one read of the agent's stdout.
 */
async function scriptedClient(): Promise<{ client: AcpClient; applied: string[] }> {
  let incoming!: ReadableStreamDefaultController<acp.AnyMessage>;
  const readable = new ReadableStream<acp.AnyMessage>({ start: (c) => void (incoming = c) });
  const updatesThenAnswer = (id: number, sessionId: string, result: Record<string, unknown>): void => {
    for (const text of CHUNKS)
      incoming.enqueue({
        jsonrpc: "2.0",
        method: "session/update",
        params: { sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } },
      });
    incoming.enqueue({ jsonrpc: "2.0", id, result });
  };
  const answer = (m: { id?: number; method?: string; params?: { sessionId?: string } }): void => {
    const id = m.id ?? 0;
    const sessionId = m.params?.sessionId ?? "";
    if (m.method === "initialize")
      incoming.enqueue({ jsonrpc: "2.0", id, result: { protocolVersion: 1, agentCapabilities: { loadSession: true } } });
    else if (m.method === "session/new") incoming.enqueue({ jsonrpc: "2.0", id, result: { sessionId: "s1" } });
    else if (m.method === "session/prompt") updatesThenAnswer(id, sessionId, { stopReason: "end_turn" });
    else if (m.method === "session/load") updatesThenAnswer(id, sessionId, {});
  };
  const writable = new WritableStream<acp.AnyMessage>({ write: (m) => answer(m as Parameters<typeof answer>[0]) });
  const client = new AcpClient({ readable, writable });
  await client.initialize();
  const applied: string[] = [];
  const owner = {
    services: undefined as never,
    applyUpdate: (u: SessionUpdate) => {
      if (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text") applied.push(u.content.text);
    },
  };
  client.router.register("s1", owner);
  return { client, applied };
}

test("a prompt's answer resolves only after every update sent before it was applied, in order", async () => {
  const { client, applied } = await scriptedClient();
  for (let turn = 0; turn < 5; turn++) {
    applied.length = 0;
    const stop = await client.prompt("s1", [{ type: "text", text: "go" }]);
    assert.deepEqual({ stop, applied: applied.join("") }, { stop: "end_turn", applied: CHUNKS.join("") }, `turn ${turn}`);
  }
  client.close();
});

test("session/load resolves only after the whole replay was applied", async () => {
  const { client, applied } = await scriptedClient();
  await client.loadSession("s1", "/tmp");
  assert.equal(applied.join(""), CHUNKS.join(""));
  client.close();
});
