// Emitter / Event with VS Code core's semantics: an Event subscribes and returns the subscription.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Emitter, Event } from "../../../base/event";
import { DisposableStore, setDisposableTracker, type IDisposable } from "../../../base/lifecycle";
import { LeakTracker } from "../../support/disposableLeaks";

test("fire calls each listener with the value, in subscription order, with thisArg", () => {
  const e = new Emitter<number>();
  const seen: string[] = [];
  const self = { name: "obj" };
  e.event(function (this: typeof self, n) {
    seen.push(`${this.name}:${n}`);
  }, self);
  e.event((n) => seen.push(`plain:${n}`));
  e.fire(1);
  assert.deepEqual(seen, ["obj:1", "plain:1"]);
});

test("a disposed subscription hears nothing more; disposing it twice is harmless", () => {
  const e = new Emitter<string>();
  const seen: string[] = [];
  const sub = e.event((s) => seen.push(s));
  e.fire("a");
  sub.dispose();
  sub.dispose();
  e.fire("b");
  assert.deepEqual(seen, ["a"]);
  assert.equal(e.hasListeners, false);
});

test("the subscription goes into the given array or store", () => {
  const e = new Emitter<void>();
  const arr: IDisposable[] = [];
  const store = new DisposableStore();
  let n = 0;
  e.event(() => n++, undefined, arr);
  e.event(() => n++, undefined, store);
  assert.equal(arr.length, 1);
  e.fire();
  store.dispose();
  for (const d of arr) d.dispose();
  e.fire();
  assert.equal(n, 2);
});

test("a throwing listener is reported and the others still run", () => {
  const errors: unknown[] = [];
  const e = new Emitter<number>({ onListenerError: (err) => errors.push(err) });
  const seen: number[] = [];
  e.event(() => {
    throw new Error("bad listener");
  });
  e.event((n) => seen.push(n));
  e.fire(7);
  assert.deepEqual(seen, [7]);
  assert.equal((errors[0] as Error).message, "bad listener");
});

test("a listener added during a fire hears the next one; one removed before its turn is skipped", () => {
  const e = new Emitter<number>();
  const seen: string[] = [];
  let late: IDisposable | undefined;
  e.event((n) => {
    seen.push(`first:${n}`);
    late ??= e.event((m) => seen.push(`late:${m}`));
    second.dispose();
  });
  const second = e.event((n) => seen.push(`second:${n}`));
  e.fire(1);
  e.fire(2);
  assert.deepEqual(seen, ["first:1", "first:2", "late:2"]);
  e.dispose();
});

test("first and last listener hooks; after dispose nothing fires and nothing subscribes", () => {
  const log: string[] = [];
  const e = new Emitter<number>({ onWillAddFirstListener: () => log.push("first"), onDidRemoveLastListener: () => log.push("last") });
  const a = e.event(() => log.push("a"));
  const b = e.event(() => log.push("b"));
  a.dispose();
  b.dispose();
  e.event(() => log.push("c"));
  e.dispose();
  e.fire(1);
  e.event(() => log.push("d"));
  e.fire(2);
  assert.deepEqual(log, ["first", "last", "first", "last"]);
});

test("Event.once hears the first firing only; Event.toPromise resolves with the next one", async () => {
  const e = new Emitter<number>();
  const once: number[] = [];
  Event.once(e.event)((n) => once.push(n));
  const next = Event.toPromise(e.event);
  e.fire(1);
  e.fire(2);
  assert.equal(await next, 1);
  assert.deepEqual(once, [1]);
  assert.equal(e.hasListeners, false);
});

test("disposing an emitter ends its subscriptions: they count as disposed for the leak check", () => {
  const tracker = new LeakTracker();
  setDisposableTracker(tracker);
  try {
    const e = new Emitter<number>();
    e.event(() => undefined);
    assert.equal(tracker.leaks().length, 1);
    e.dispose();
    assert.deepEqual(tracker.leaks(), []);
  } finally {
    setDisposableTracker(undefined);
  }
});
