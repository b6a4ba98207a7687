// The per-session delta coalescer: merging, order, the frame timer (a manual clock, fired by hand).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { COALESCE_MS, DeltaCoalescer, type DeltaKind, type DeltaTimers } from "../../../agent-server/runtime/deltaCoalescer";

/** A clock that fires only when told to. */
function manualTimers(): DeltaTimers & { fire(): void; armed: number; delays: number[] } {
  const due = new Map<number, () => void>();
  let next = 0;
  return {
    delays: [],
    set(fn, ms) {
      this.delays.push(ms);
      due.set(++next, fn);
      return next;
    },
    clear(handle) {
      due.delete(handle as number);
    },
    fire() {
      const fns = [...due.values()];
      due.clear();
      for (const fn of fns) fn();
    },
    get armed() {
      return due.size;
    },
  };
}

function recorder(): { out: Array<[DeltaKind, string, string]>; emit: (k: DeltaKind, m: string, t: string) => void } {
  const out: Array<[DeltaKind, string, string]> = [];
  return { out, emit: (k, m, t) => void out.push([k, m, t]) };
}

describe("delta coalescer", () => {
  it("merges consecutive deltas of one message into one record when the frame timer fires", () => {
    const clock = manualTimers();
    const r = recorder();
    const c = new DeltaCoalescer(r.emit, clock);
    c.add("assistant/text", "m1", "Hel");
    c.add("assistant/text", "m1", "lo, ");
    c.add("assistant/text", "m1", "world");
    assert.deepEqual(r.out, []);
    assert.deepEqual(clock.delays, [COALESCE_MS]); // one timer per run, not per delta
    clock.fire();
    assert.deepEqual(r.out, [["assistant/text", "m1", "Hello, world"]]);
    assert.equal(c.pending, false);
    c.add("assistant/text", "m1", "!"); // a new run arms a new timer
    clock.fire();
    assert.deepEqual(r.out.at(-1), ["assistant/text", "m1", "!"]);
  });

  it("keeps the order: a thought, then text, then text of the next message are three records in that order", () => {
    const clock = manualTimers();
    const r = recorder();
    const c = new DeltaCoalescer(r.emit, clock);
    c.add("assistant/thought", "m1", "think");
    c.add("assistant/thought", "m1", "ing");
    c.add("assistant/text", "m1", "an");
    c.add("assistant/text", "m1", "swer");
    c.add("assistant/text", "m2", "next");
    c.flush();
    assert.deepEqual(r.out, [
      ["assistant/thought", "m1", "thinking"],
      ["assistant/text", "m1", "answer"],
      ["assistant/text", "m2", "next"],
    ]);
    assert.equal(clock.armed, 0);
  });

  it("flush() records what waits at once (the owner calls it before any other update) and disarms the timer", () => {
    const clock = manualTimers();
    const r = recorder();
    const c = new DeltaCoalescer(r.emit, clock);
    c.add("assistant/text", "m1", "a");
    c.add("assistant/text", "m1", "b");
    c.flush();
    assert.deepEqual(r.out, [["assistant/text", "m1", "ab"]]);
    assert.equal(clock.armed, 0);
    clock.fire();
    c.flush(); // nothing waits: no empty record
    assert.equal(r.out.length, 1);
  });

  it("ignores empty deltas", () => {
    const clock = manualTimers();
    const r = recorder();
    const c = new DeltaCoalescer(r.emit, clock);
    c.add("assistant/text", "m1", "");
    assert.equal(c.pending, false);
    assert.equal(clock.armed, 0);
  });

  it("is strictly per session: one coalescer's timer or flush never records or delays another's deltas", () => {
    const clockA = manualTimers();
    const clockB = manualTimers();
    const a = recorder();
    const b = recorder();
    const ca = new DeltaCoalescer(a.emit, clockA);
    const cb = new DeltaCoalescer(b.emit, clockB);
    ca.add("assistant/text", "m", "A1");
    cb.add("assistant/text", "m", "B1");
    clockA.fire();
    assert.deepEqual(a.out, [["assistant/text", "m", "A1"]]);
    assert.deepEqual(b.out, []);
    assert.equal(cb.pending, true);
    cb.flush();
    ca.add("assistant/text", "m", "A2");
    assert.deepEqual(b.out, [["assistant/text", "m", "B1"]]);
    assert.equal(ca.pending, true); // B's flush left A alone
  });

  it("a record that fails does not leave the run behind to be recorded twice", () => {
    const clock = manualTimers();
    let calls = 0;
    const c = new DeltaCoalescer(() => {
      calls++;
      throw new Error("log closed");
    }, clock);
    c.add("assistant/text", "m", "x");
    assert.throws(() => c.flush(), /log closed/);
    c.flush();
    assert.equal(calls, 1);
    assert.equal(c.pending, false);
  });
});
