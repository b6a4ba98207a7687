// I-123: a tail-first replay made from what a TailKeeper kept of a log, fed entry by entry as the log
// is read, is exactly the replay made from all of its entries: the same updates (the state carried
// from older turns included) and the same cursor, for logs of every shape and every tail asked.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { replayOf } from "../../../agent-server/acp/historyPages";
import { entriesSource, firstPrompt, TailKeeper } from "../../../agent-server/acp/replaySource";
import type { LogEntry } from "../../../agent-server/session/events";
import { REPLAY_TAIL_META } from "../../../base/historyPages";
import { rng } from "../../support/random";

const at = "2026-12-01T00:00:00.000Z";

/** A log of `turns` turns (user ones, and now and then a task's), with plans, titles and usage scattered through. */
function log(seed: number, turns: number): LogEntry[] {
  const rnd = rng(seed);
  const out: LogEntry[] = [];
  const add = (e: Record<string, unknown>): void => void out.push({ ...e, seq: out.length + 1, at } as LogEntry);
  for (let t = 0; t < turns; t++) {
    const turnId = `t${t}`;
    const source = rnd() < 0.15 ? "task" : "user";
    add({ type: "turn/start", turnId, messageId: source === "user" ? `u${t}` : null, source });
    if (source === "user") add({ type: "user/message", messageId: `u${t}`, content: [{ type: "text", text: `question ${t}` }] });
    const steps = Math.floor(rnd() * 6);
    for (let s = 0; s < steps; s++) {
      const r = rnd();
      if (r < 0.4) add({ type: "assistant/text", messageId: `a${t}`, text: `part ${s} ` });
      else if (r < 0.55) {
        add({ type: "tool/call", toolCallId: `c${t}-${s}`, name: "read_file", input: { path: "a" }, title: "Read a", kind: "read" });
        add({ type: "tool/result", toolCallId: `c${t}-${s}`, status: "completed", output: "alpha", isError: false });
      } else if (r < 0.7) add({ type: "plan", entries: [{ content: `step ${t}.${s}`, priority: "medium", status: "pending" }] });
      else if (r < 0.8) add({ type: "session/title", title: `title ${t}.${s}` });
      else add({ type: "usage", used: t * 100 + s, size: 100_000 });
    }
    add({ type: "turn/end", turnId, reason: "end_turn" });
  }
  return out;
}

function kept(entries: readonly LogEntry[], events: number): TailKeeper {
  const keeper = new TailKeeper(events);
  for (const e of entries) keeper.add(e);
  return keeper;
}

describe("I-123: the replay of a kept tail is the replay of the whole log", () => {
  it("every log shape and tail size: the same updates and the same cursor", () => {
    let cut = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const entries = log(seed, 1 + (seed % 40) * 7);
      for (const events of [1, 2, 5, 17, 100, 1_000, 50_000]) {
        const meta = { [REPLAY_TAIL_META]: { events } };
        const want = replayOf(entriesSource(entries), meta);
        const got = replayOf(kept(entries, events), meta);
        assert.deepEqual(got, want, `seed ${seed}, ${entries.length} entries, tail of ${events}`);
        if (want.answerMeta) cut++;
      }
    }
    assert.ok(cut > 100, `most cases cut the log (${cut})`);
  });

  it("tails that end exactly at a prompt's start, or one entry past it, in a log long enough to drop entries", () => {
    const entries = log(11, 1_500);
    const { starts } = entriesSource(entries);
    for (const j of [1, 2, 10, 200, 700, starts.length - 2, starts.length - 1]) {
      for (const events of [entries.length - (starts[j] as number), entries.length - (starts[j] as number) + 1]) {
        const meta = { [REPLAY_TAIL_META]: { events } };
        assert.deepEqual(replayOf(kept(entries, events), meta), replayOf(entriesSource(entries), meta), `prompt ${j}, tail of ${events}`);
      }
    }
  });

  it("dropping as early as it may, it never drops an entry the tail of the log read so far needs", () => {
    for (let seed = 1; seed <= 40; seed++) {
      const entries = log(seed, 300);
      for (const events of [1, 3, 8, 30]) {
        const keeper = new TailKeeper(events, 1);
        const starts: number[] = [];
        entries.forEach((e, i) => {
          keeper.add(e);
          if (e.type === "turn/start" && e.source === "user") starts.push(i);
          const j = firstPrompt(starts, starts.length, i + 1, events);
          const need = j === 0 ? 0 : (starts[j] as number);
          assert.ok(
            keeper.keptFrom <= need,
            `seed ${seed}, tail of ${events}, after entry ${i}: kept from ${keeper.keptFrom}, needs ${need}`,
          );
        });
        assert.ok(keeper.keptFrom > 0 || starts.length < 3, `seed ${seed}, tail of ${events}: it dropped something`);
      }
    }
  });

  it("keeps a bounded window however long the log: about the tail, not the log", () => {
    const entries = log(7, 4_000);
    const keeper = kept(entries, 50);
    assert.equal(keeper.length, entries.length);
    assert.throws(() => keeper.from(0), /were not kept/);
    const cut = keeper.starts.at(-10) as number;
    assert.deepEqual(keeper.from(cut), entries.slice(cut));
  });

  it("a log shorter than the tail is replayed whole, with no cursor", () => {
    const entries = log(3, 5);
    const meta = { [REPLAY_TAIL_META]: { events: 10_000 } };
    const got = replayOf(kept(entries, 10_000), meta);
    assert.equal(got.answerMeta, undefined);
    assert.deepEqual(got, replayOf(entriesSource(entries), meta));
  });
});
