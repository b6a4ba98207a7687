// The host keeps only a long transcript's latest entries live and the older ones compressed.
// Whatever arrives — updates to old tool cards, old permissions and questions settled, cancels, edits
// that cut into the archive, resets — the whole transcript must be exactly what the plain reducer makes,
// while the live part stays bounded.
import assert from "node:assert/strict";
import { test } from "node:test";
import { emptyTranscript, reduceTranscript, type TranscriptEvent, type TranscriptState } from "../../../extension/common/transcript";
import { HostTranscript, type HostTranscriptLimits } from "../../../extension/sessions/hostTranscript";
import { rng } from "../../support/random";

/** A long, varied session: every kind of event, many of them aimed at entries made long before. */
function script(seed: number, n: number): TranscriptEvent[] {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T | undefined => xs[Math.floor(r() * xs.length)];
  const tools: string[] = [];
  const requests: string[] = [];
  const questions: string[] = [];
  let prompts = 0;
  const out: TranscriptEvent[] = [];
  for (let i = 0; i < n; i++) {
    const x = r();
    if (x < 0.12) {
      out.push({ type: "user/prompt", text: `prompt ${i}`, attachments: [] }, { type: "turn/started" });
      prompts++;
    } else if (x < 0.3)
      out.push({ type: "acp", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `a${i} ` } } });
    else if (x < 0.36)
      out.push({ type: "acp", update: { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: `t${i} ` } } });
    else if (x < 0.5) {
      const id = `tool-${i}`;
      tools.push(id);
      out.push({ type: "acp", update: { sessionUpdate: "tool_call", toolCallId: id, title: `Tool ${i}`, status: "in_progress" } });
    } else if (x < 0.62) {
      const id = pick(tools);
      if (id)
        out.push({
          type: "acp",
          update: { sessionUpdate: "tool_call_update", toolCallId: id, status: r() < 0.5 ? "completed" : "failed" },
        });
    } else if (x < 0.67) {
      const id = `req-${i}`;
      requests.push(id);
      out.push({ type: "permission/requested", requestId: id, toolCallId: pick(tools) ?? "none", title: `Run ${i}`, options: [] });
    } else if (x < 0.71) {
      const id = pick(requests);
      if (id) out.push({ type: "permission/resolved", requestId: id, outcome: { state: "cancelled" } });
    } else if (x < 0.74) {
      const id = `q-${i}`;
      questions.push(id);
      out.push({ type: "question/requested", questionId: id, message: `Which? ${i}`, form: { fields: [] } });
    } else if (x < 0.77) {
      const id = pick(questions);
      if (id) out.push({ type: "question/resolved", questionId: id, outcome: { state: "declined" } });
    } else if (x < 0.85) out.push({ type: "turn/ended", stopReason: r() < 0.8 ? "end_turn" : "cancelled" });
    else if (x < 0.88) out.push({ type: "tools/cancelUnfinished" });
    else if (x < 0.9) out.push({ type: "notice", severity: "info", text: `notice ${i}` });
    else if (x < 0.91 && prompts > 2) {
      const keepPrompts = Math.floor(r() * prompts);
      out.push({ type: "transcript/truncate", keepPrompts });
      prompts = Math.min(prompts, keepPrompts);
    } else if (x < 0.912) {
      out.push({ type: "reset", folderName: "alpha", agentName: "Manifold" });
      prompts = 0;
    } else
      out.push({
        type: "acp",
        update: { sessionUpdate: "user_message_chunk", content: { type: "text", text: `steer ${i}` }, _meta: { "manifold/steer": {} } },
      });
  }
  return out;
}

const limits: HostTranscriptLimits = { keep: 20, page: 9 };

async function compare(h: HostTranscript, plain: TranscriptState, where: string): Promise<void> {
  assert.deepEqual(await h.entries(), plain.entries, where);
  assert.deepEqual({ ...h.state, entries: [] }, { ...plain, entries: [] }, where);
  assert.equal(h.length, plain.entries.length, where);
  assert.equal(h.prompts, plain.entries.filter((e) => e.kind === "user" && !e.steered).length, where);
}

for (const seed of [1, 2, 3, 4, 5, 6]) {
  test(`seed ${seed}: the whole transcript equals the plain reducer's after every event; the live part stays bounded`, async () => {
    const h = new HostTranscript(emptyTranscript("alpha", "Manifold"), limits);
    let plain = emptyTranscript("alpha", "Manifold");
    let archivedAtSomePoint = false;
    for (const [i, ev] of script(seed, 1000).entries()) {
      h.apply(ev);
      plain = reduceTranscript(plain, ev);
      assert.ok(h.state.entries.length < limits.keep + limits.page, "live entries bounded");
      archivedAtSomePoint ||= h.archived > 0;
      // Compressed pages too: let them compress now and then before comparing.
      if (i % 97 === 0) await h.compressed();
      await compare(h, plain, `seed ${seed}, after event ${i} (${ev.type})`);
    }
    await compare(h, plain, `seed ${seed}, at the end`);
    assert.ok(archivedAtSomePoint, "the script made the host archive entries");
  });
}

test("an update to an archived tool card changes that card, not a new one; the generation moves", async () => {
  const h = new HostTranscript(emptyTranscript("alpha", "Manifold"), limits);
  h.apply({ type: "acp", update: { sessionUpdate: "tool_call", toolCallId: "old", title: "Old", status: "in_progress" } });
  for (let i = 0; i < 100; i++) h.apply({ type: "notice", severity: "info", text: `n${i}` });
  await h.compressed();
  assert.ok(h.archived > 0);
  assert.ok(h.archivedBytes > 0, "archived pages are compressed");
  const generation = h.generation;
  h.apply({ type: "acp", update: { sessionUpdate: "tool_call_update", toolCallId: "old", status: "completed" } });
  const tools = (await h.entries()).filter((e) => e.kind === "tool");
  assert.deepEqual(
    tools.map((t) => (t.kind === "tool" ? [t.toolCallId, t.status] : [])),
    [["old", "completed"]],
  );
  assert.notEqual(h.generation, generation, "a panel's page computed before does not fit any more");
});

test("archived pages cost a fraction of their entries: repetitive tool output compresses", async () => {
  const h = new HostTranscript(emptyTranscript("alpha", "Manifold"));
  const output = Array.from({ length: 60 }, (_, i) => `${i}  const value = compute(input, options);\n`).join("");
  let raw = 0;
  for (let i = 0; i < 2000; i++) {
    const ev: TranscriptEvent = {
      type: "acp",
      update: {
        sessionUpdate: "tool_call",
        toolCallId: `t${i}`,
        title: `Read file${i}.ts`,
        status: "completed",
        content: [{ type: "content", content: { type: "text", text: output } }],
      },
    };
    raw += JSON.stringify(ev.update).length;
    h.apply(ev);
  }
  await h.compressed();
  assert.ok(h.state.entries.length < 600, `live entries: ${h.state.entries.length}`);
  assert.ok(h.archived >= 1400);
  assert.ok(h.archivedBytes < raw / 5, `archive ${h.archivedBytes} B for ${raw} B of entries`);
});
