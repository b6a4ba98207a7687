// The cheap `session/update` check answers as the SDK's whole union does: the same value for a valid
// update, a failure for an invalid one, over generated updates of every kind and broken variants of
// them; and over a stream the updates are taken off in arrival order, before the answer that follows.
import assert from "node:assert/strict";
import { test } from "node:test";
import type * as acp from "@agentclientprotocol/sdk";
import { zSessionNotification, zSessionUpdate } from "../../../node_modules/@agentclientprotocol/sdk/dist/v1/schema/zod.gen.js";
import { knownUpdateKinds, parseSessionNotification, takeUpdates } from "../../../extension/agent/clientHandlers";
import { rng } from "../../support/random";

type Gen = () => number;
const pick = <T>(r: Gen, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
const maybe = (r: Gen, v: () => unknown): unknown => (r() < 0.5 ? v() : undefined);

function content(r: Gen): unknown {
  return pick(r, [
    () => ({ type: "text", text: `hello ${r()}` }),
    () => ({ type: "text", text: "x", annotations: { audience: ["user"], priority: 0.5 } }),
    () => ({ type: "image", data: "AAAA", mimeType: "image/png" }),
    () => ({ type: "resource_link", name: "a.ts", uri: "file:///w/a.ts" }),
    () => ({ type: "resource", resource: { uri: "file:///w/b.ts", text: "body" } }),
  ])();
}

function toolContent(r: Gen): unknown {
  return pick(r, [
    () => ({ type: "content", content: content(r) }),
    () => ({ type: "diff", path: "/w/a.ts", oldText: pick(r, [null, "old", undefined]), newText: "new" }),
    () => ({ type: "terminal", terminalId: "t1" }),
  ])();
}

function update(r: Gen, kind: string): Record<string, unknown> {
  const meta = maybe(r, () => ({ "manifold/steer": {} }));
  const base: Record<string, unknown> = { sessionUpdate: kind, ...(meta ? { _meta: meta } : {}) };
  switch (kind) {
    case "user_message_chunk":
    case "agent_message_chunk":
    case "agent_thought_chunk":
      return { ...base, content: content(r), ...(r() < 0.5 ? { messageId: `m${Math.floor(r() * 9)}` } : {}) };
    case "tool_call":
      return {
        ...base,
        toolCallId: `c${Math.floor(r() * 9)}`,
        title: "Read a.ts",
        kind: pick(r, ["read", "edit", "execute", "other", undefined]),
        status: pick(r, ["pending", "in_progress", "completed", "failed", undefined]),
        ...(r() < 0.5 ? { content: [toolContent(r), toolContent(r)] } : {}),
        ...(r() < 0.5 ? { locations: [{ path: "/w/a.ts", line: 3 }] } : {}),
        ...(r() < 0.5 ? { rawInput: { path: "a.ts" }, rawOutput: { lines: 3 } } : {}),
      };
    case "tool_call_update":
      return {
        ...base,
        toolCallId: `c${Math.floor(r() * 9)}`,
        ...(r() < 0.5 ? { status: pick(r, ["completed", "failed", null]) } : {}),
        ...(r() < 0.5 ? { content: pick(r, [null, [toolContent(r)]]) } : {}),
        ...(r() < 0.3 ? { title: null } : {}),
      };
    case "plan":
      return { ...base, entries: [{ content: "do it", priority: "high", status: pick(r, ["pending", "completed"]) }] };
    case "available_commands_update":
      return { ...base, availableCommands: [{ name: "compact", description: "Compact", ...(r() < 0.5 ? { input: { hint: "x" } } : {}) }] };
    case "current_mode_update":
      return { ...base, currentModeId: "ask" };
    case "config_option_update":
      return {
        ...base,
        configOptions: [{ id: "model", name: "Model", type: "select", currentValue: "a", options: [{ value: "a", name: "A" }] }],
      };
    case "session_info_update":
      return {
        ...base,
        ...(r() < 0.5 ? { title: pick(r, ["t", null]) } : {}),
        ...(r() < 0.5 ? { updatedAt: "2026-01-01T00:00:00Z" } : {}),
      };
    case "usage_update":
      return { ...base, used: Math.floor(r() * 1000), size: 200_000, ...(r() < 0.5 ? { cost: { amount: 0.1, currency: "USD" } } : {}) };
    case "notice":
      return { ...base, title: "Heads up", severity: pick(r, ["info", "warning", "error"]), ...(r() < 0.5 ? { description: "d" } : {}) };
    case "compaction_update":
      return { ...base, compactionId: "k1", status: pick(r, ["started", "completed", "failed"]) };
    case "compaction_summary_chunk":
      return { ...base, compactionId: "k1", content: content(r) };
    default:
      return base;
  }
}

/** Ways to break a valid update: a wrong type, a missing field, an unknown kind, garbage. */
function broken(r: Gen, u: Record<string, unknown>): unknown {
  return pick(r, [
    () => ({ ...u, sessionUpdate: "no_such_update" }),
    () => ({ ...u, sessionUpdate: 7 }),
    () => ({ ...u, content: { type: "text", text: 42 } }),
    () => ({ ...u, toolCallId: 5 }),
    () => ({ ...u, status: "weird" }),
    () => ({ ...u, entries: "no" }),
    () => ({ ...u, used: "many" }),
    () => {
      const { sessionUpdate: _k, ...rest } = u;
      return rest;
    },
    () => null,
    () => "update",
  ])();
}

function outcome(f: () => unknown): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: f() };
  } catch {
    return { ok: false };
  }
}

test("every kind of the SDK's union has its branch", () => {
  const sdkKinds = zSessionUpdate.options.map((b) => String(b.def.right.shape.sessionUpdate.value));
  assert.deepEqual(knownUpdateKinds().sort(), [...sdkKinds].sort());
  assert.equal(sdkKinds.length, 14);
});

test("the branch check equals the SDK's whole-union check over generated updates, valid and broken", () => {
  const r = rng(20261202);
  const kinds = knownUpdateKinds();
  let valid = 0;
  let invalid = 0;
  for (let i = 0; i < 3000; i++) {
    const u = update(r, pick(r, kinds));
    const upd = r() < 0.7 ? u : broken(r, u);
    const params: unknown = pick(r, [
      () => ({ sessionId: "s1", update: upd }),
      () => ({ sessionId: "s1", update: upd, _meta: { trace: "x" } }),
      () => ({ sessionId: "s1", update: upd, _meta: "not a record" }),
      () => ({ sessionId: 3, update: upd }),
      () => ({ update: upd }),
      () => ({ sessionId: "s1", update: upd, extra: true }),
    ])();
    const ours = outcome(() => parseSessionNotification(params));
    const sdk = outcome(() => zSessionNotification.parse(params));
    assert.deepStrictEqual(ours, sdk, JSON.stringify(params));
    if (sdk.ok) valid++;
    else invalid++;
  }
  // The generator reaches both sides.
  assert.ok(valid > 1000 && invalid > 500, `${valid} valid, ${invalid} invalid`);
});

test("over a stream, updates are taken off in arrival order before the answer; invalid ones are dropped and reported", async () => {
  const order: string[] = [];
  const invalid: string[] = [];
  const source = new ReadableStream<acp.AnyMessage>({
    start(c) {
      c.enqueue({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s1", update: update(rng(1), "agent_message_chunk") } });
      c.enqueue({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s1", update: { sessionUpdate: "plan" } } });
      c.enqueue({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s1", update: update(rng(2), "tool_call") } });
      c.enqueue({ jsonrpc: "2.0", id: 4, result: {} });
      c.enqueue({ jsonrpc: "2.0", method: "_manifold/mcp_status", params: { sessionId: "s1", servers: [] } });
      c.close();
    },
  });
  const out = takeUpdates(
    { readable: source, writable: new WritableStream() },
    (n) => order.push(`update ${n.update.sessionUpdate}`),
    (sessionId) => invalid.push(sessionId),
  );
  const reader = out.readable.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    order.push("id" in value ? `answer ${String(value.id)}` : `passed ${"method" in value ? value.method : "?"}`);
  }
  assert.deepEqual(order, ["update agent_message_chunk", "update tool_call", "answer 4", "passed _manifold/mcp_status"]);
  assert.deepEqual(invalid, ["s1"]);
});
