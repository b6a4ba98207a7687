// The reducer finds a tool card through an index shared along the chain of states, not by
// scanning the transcript. Whatever the order of updates, cuts, clears and branches (two states folded
// from one), every card is found where it is, an absent call is not found, and no call gets two cards.
import assert from "node:assert/strict";
import { test } from "node:test";
import { emptyTranscript, reduceTranscript, type TranscriptEvent, type TranscriptState } from "../../../extension/common/transcript";
import { findTool } from "../../../extension/common/toolIndex";

/** A small deterministic generator (no Math.random: a failure must replay). */
function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

function randomEvent(r: () => number): TranscriptEvent {
  const id = `t${Math.floor(r() * 12)}`;
  const k = r();
  if (k < 0.3) return { type: "acp", update: { sessionUpdate: "tool_call", toolCallId: id, title: id, status: "pending" } };
  if (k < 0.6) return { type: "acp", update: { sessionUpdate: "tool_call_update", toolCallId: id, status: "completed" } };
  if (k < 0.75) return { type: "acp", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x" } } };
  if (k < 0.85) return { type: "user/prompt", text: "p", attachments: [] };
  if (k < 0.9) return { type: "turn/ended", stopReason: "cancelled" };
  if (k < 0.95) return { type: "transcript/truncate", keepPrompts: Math.floor(r() * 3) };
  return { type: "session/bound", sessionId: "s", clearHistory: r() < 0.5 };
}

function check(s: TranscriptState): void {
  const seen = new Set<string>();
  s.entries.forEach((e, i) => {
    if (e.kind !== "tool") return;
    assert.ok(!seen.has(e.toolCallId), `two cards for ${e.toolCallId}`);
    seen.add(e.toolCallId);
    assert.equal(findTool(s.entries, e.toolCallId), i);
  });
  for (let t = 0; t < 12; t++) if (!seen.has(`t${t}`)) assert.equal(findTool(s.entries, `t${t}`), -1);
}

test("every tool card is found where it is, across updates, cuts, clears and branches", () => {
  for (let seed = 1; seed <= 40; seed++) {
    const r = rng(seed);
    let s = emptyTranscript("alpha", "Manifold");
    const branches: TranscriptState[] = [];
    for (let i = 0; i < 300; i++) {
      // Now and then fold a side branch from the current state, then go on from the main one.
      if (r() < 0.05) branches.push(s);
      const from = r() < 0.1 && branches.length > 0 ? (branches[Math.floor(r() * branches.length)] as TranscriptState) : s;
      s = reduceTranscript(from, randomEvent(r));
      check(s);
    }
    for (const b of branches) check(b);
  }
});
