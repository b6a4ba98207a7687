// The floor: the smallest ACP agent on the same SDK (no model, no store). Benchmarks run it beside
// Manifold so that SDK and Node costs can be told from Manifold's own. Bundled by bench/lib/agents.ts.
import { randomUUID } from "node:crypto";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

console.log = console.error;
const sessions = new Set<string>();
const stream = acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>);
const conn = acp
  .agent({ name: "sdk-minimal" })
  .onRequest(acp.methods.agent.initialize, () => ({
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: { loadSession: false },
    agentInfo: { name: "sdk-minimal", version: "0.0.0" },
  }))
  .onRequest(acp.methods.agent.session.new, () => {
    const sessionId = randomUUID();
    sessions.add(sessionId);
    return { sessionId };
  })
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
    // `updates=<n>` in the prompt: n chunks stamped `t=<hrtime ns>`, as fast as the SDK takes them
    // (the ACP transport's own ceiling in the streaming benchmark). Otherwise one "ok".
    const text = params.prompt.map((b) => (b.type === "text" ? b.text : "")).join("");
    const n = Number(/updates=(\d+)/.exec(text)?.[1] ?? 0);
    for (let i = 0; i < Math.max(1, n); i++) {
      await client.notify(acp.methods.client.session.update, {
        sessionId: params.sessionId,
        update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: n ? `t=${process.hrtime.bigint()} ` : "ok" } },
      });
    }
    return { stopReason: "end_turn" as const };
  })
  .connect(stream);
void conn.closed.then(() => process.exit(0));
