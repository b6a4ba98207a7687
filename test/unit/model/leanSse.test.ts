// The lean OpenAI-compatible streaming path: which chunks skip the AI SDK, the byte filter, the event queue.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { deltaFilter, plainDelta, type Delta } from "../../../agent-server/model/providers/leanSse";
import { EventQueue } from "../../../agent-server/model/providers/eventQueue";

const chunk = (delta: unknown, extra: Record<string, unknown> = {}, finish: unknown = null): string =>
  JSON.stringify({ id: "c", object: "chat.completion.chunk", model: "m", choices: [{ index: 0, delta, finish_reason: finish }], ...extra });

async function run(parts: Uint8Array[]): Promise<{ deltas: Delta[]; passed: string; beats: number }> {
  const deltas: Delta[] = [];
  let beats = 0;
  const filter = deltaFilter(
    (d) => deltas.push(d),
    () => beats++,
  );
  const source = new ReadableStream<Uint8Array>({
    start(c) {
      for (const p of parts) c.enqueue(p);
      c.close();
    },
  });
  const passed = await new Response(source.pipeThrough(filter)).text();
  return { deltas, passed, beats };
}

/** Splits the UTF-8 bytes of `text` every `n` bytes (mid-event, mid-character). */
function split(text: string, n: number): Uint8Array[] {
  const bytes = new TextEncoder().encode(text);
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += n) out.push(bytes.slice(i, i + n));
  return out;
}

describe("lean SSE path", () => {
  it("plainDelta takes only a chunk that is one plain text or reasoning delta", () => {
    assert.deepEqual(plainDelta(chunk({ content: "hé" })), { type: "text-delta", text: "hé" });
    assert.deepEqual(plainDelta(chunk({ reasoning_content: "hm" })), { type: "reasoning-delta", text: "hm" });
    assert.deepEqual(plainDelta(chunk({ reasoning: "hm" })), { type: "reasoning-delta", text: "hm" });
    assert.deepEqual(plainDelta(chunk({ content: "x", tool_calls: null }, { usage: null })), { type: "text-delta", text: "x" });
    // Everything else is the SDK's: finish, usage, tool calls, roles, errors, several fields, odd types, not JSON.
    for (const data of [
      chunk({ content: "x" }, {}, "stop"),
      chunk({ content: "x" }, { usage: { prompt_tokens: 1 } }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: "{" } }] }),
      chunk({ role: "assistant", content: "" }),
      chunk({ content: "x", reasoning_content: "y" }),
      chunk({ content: [{ type: "text", text: "x" }] }),
      chunk({ content: "x", extra_content: { google: {} } }),
      chunk({ refusal: "no" }),
      JSON.stringify({ error: { message: "boom" } }),
      JSON.stringify({ choices: [] }),
      JSON.stringify({ choices: [{ delta: { content: "a" } }, { delta: { content: "b" } }] }),
      "[DONE]",
      "{not json",
    ]) {
      assert.equal(plainDelta(data), null, data);
    }
  });

  it("the filter takes the plain deltas out, in order, and passes every other byte through unchanged, however the body is cut", async () => {
    const first = `data: ${chunk({ role: "assistant", content: "" })}\n\n`;
    const deltas = [
      `data: ${chunk({ reasoning_content: "thinking… " })}\n\n`,
      `data: ${chunk({ content: "héllo " })}\n\n`,
      `data:${chunk({ content: "wörld" })}\n\n`,
    ];
    const others = [
      `: keep-alive\n\n`,
      `data: ${chunk({ tool_calls: [{ index: 0, id: "c1", function: { name: "f", arguments: "" } }] })}\n\n`,
      `event: odd\ndata: ${chunk({ content: "not plain: has an event name" })}\n\n`,
      `data: ${chunk({}, {}, "stop")}\n\n`,
      `data: [DONE]\n\n`,
    ];
    const body = first + deltas[0] + others[0] + deltas[1] + others[1] + deltas[2] + others[2] + others[3] + others[4];
    for (const n of [1, 3, 7, 64, body.length]) {
      const out = await run(split(body, n));
      assert.deepEqual(out.deltas, [
        { type: "reasoning-delta", text: "thinking… " },
        { type: "text-delta", text: "héllo " },
        { type: "text-delta", text: "wörld" },
      ]);
      assert.equal(out.passed, first + others.join(""), `cut every ${n} bytes`);
      assert.ok(out.beats > 0);
    }
  });

  it("the first event always reaches the SDK, an unfinished last event is passed through, and a CR body passes whole", async () => {
    const plain = `data: ${chunk({ content: "a" })}\n\n`;
    const a = await run(split(plain + plain + `data: ${chunk({ content: "b" })}`, 5));
    assert.deepEqual(
      a.deltas.map((d) => d.text),
      ["a"],
    );
    assert.equal(a.passed, plain + `data: ${chunk({ content: "b" })}`);
    const crlf = plain.replace(/\n/g, "\r\n").repeat(3);
    const b = await run(split(crlf, 16));
    assert.deepEqual(b.deltas, []);
    assert.equal(b.passed, crlf);
  });

  it("the event queue keeps arrival order and delivers an end or a failure only after what came before", async () => {
    const q = new EventQueue();
    const got: string[] = [];
    const reader = (async () => {
      for (let ev = await q.next(); ev !== null; ev = await q.next()) got.push(ev.type === "text-delta" ? ev.text : ev.type);
    })();
    q.push({ type: "text-delta", text: "a" });
    q.push({ type: "text-delta", text: "b" });
    q.push({ type: "finish", reason: "stop" });
    q.end();
    q.push({ type: "text-delta", text: "late" });
    await reader;
    assert.deepEqual(got, ["a", "b", "finish"]);

    const f = new EventQueue();
    f.push({ type: "text-delta", text: "before" });
    f.fail(new Error("broken"));
    assert.deepEqual(await f.next(), { type: "text-delta", text: "before" });
    await assert.rejects(f.next(), /broken/);
  });
});
