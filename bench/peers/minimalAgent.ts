// The floor: the smallest ACP agent on the same SDK (no model, no store). Benchmarks run it beside
// Manifold so that SDK and Node costs can be told from Manifold's own. Bundled by bench/lib/agents.ts.
import { randomUUID } from "node:crypto";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

console.log = console.error;
const sessions = new Set<string>();
/** `_bench/replay` primes a session id with the updates its next `session/load` sends (the replay floor). */
const REPLAY_METHOD = "_bench/replay";
const replays = new Map<string, unknown[]>();

interface ReplayParams {
  sessionId: string;
  updates: unknown[];
}

function parseReplayParams(raw: unknown): ReplayParams {
  const p = raw as Partial<ReplayParams> | null;
  if (!p || typeof p.sessionId !== "string" || !Array.isArray(p.updates))
    throw acp.RequestError.invalidParams(undefined, "sessionId, updates");
  return { sessionId: p.sessionId, updates: p.updates };
}

const stream = acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>);
const conn = acp
  .agent({ name: "sdk-minimal" })
  .onRequest(acp.methods.agent.initialize, () => ({
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: { loadSession: true },
    agentInfo: { name: "sdk-minimal", version: "0.0.0" },
  }))
  .onRequest(acp.methods.agent.session.new, () => {
    const sessionId = randomUUID();
    sessions.add(sessionId);
    return { sessionId };
  })
  .onRequest(REPLAY_METHOD, { parse: parseReplayParams }, ({ params }) => {
    replays.set(params.sessionId, params.updates);
    return {};
  })
  .onRequest(acp.methods.agent.session.load, async ({ params, client }) => {
    // The replay floor: the primed updates (the `update` objects another agent's replay carried, as
    // its client received them), sent through the SDK in order and written before the response,
    // the way Manifold's bridge sends a replay (no await between notifications, the last one awaited).
    const updates = (replays.get(params.sessionId) ?? []) as acp.SessionUpdate[];
    replays.delete(params.sessionId);
    let last: Promise<void> = Promise.resolve();
    for (const update of updates) last = client.notify(acp.methods.client.session.update, { sessionId: params.sessionId, update });
    await last;
    return {};
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
