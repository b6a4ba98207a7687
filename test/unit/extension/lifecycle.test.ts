// DisposableStore / Disposable / DisposableMap / MutableDisposable with VS Code core's semantics, and the
// leak check test files enable (test/support/disposableLeaks.ts).
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  Disposable,
  DisposableMap,
  DisposableStore,
  isAsyncShutdown,
  MutableDisposable,
  setDisposableTracker,
  toDisposable,
  type AsyncShutdown,
  type IDisposable,
} from "../../../base/lifecycle";
import { Emitter } from "../../../base/event";
import { errorMessage, ignoreError, logError, setUnexpectedErrorHandler } from "../../../base/errors";
import { assertNoLeaks, LeakTracker } from "../../support/disposableLeaks";

function counted(log: string[], name: string): IDisposable {
  return toDisposable(() => log.push(name));
}

/** An `AsyncShutdown` whose teardown ends when the test says (`end()`, or `fail(err)`). */
function slowOwner(log: string[], name: string) {
  let end!: () => void;
  let fail!: (err: unknown) => void;
  const done = new Promise<void>((resolve, reject) => ((end = resolve), (fail = reject)));
  let tail: Promise<void> | undefined;
  const owner: AsyncShutdown = {
    dispose() {
      log.push(`${name} dispose`);
      void owner.shutdown().catch(ignoreError("the test reads the failure through shutdown()"));
    },
    shutdown() {
      if (!tail) log.push(`${name} shutdown`);
      tail ??= done.then(() => void log.push(`${name} gone`));
      return tail;
    },
  };
  return { owner, end, fail };
}

test("toDisposable runs its function once, however often it is disposed", () => {
  let n = 0;
  const d = toDisposable(() => n++);
  d.dispose();
  d.dispose();
  assert.equal(n, 1);
});

test("DisposableStore.add returns its argument; disposing disposes every item once, and twice is a no-op", () => {
  const log: string[] = [];
  const store = new DisposableStore();
  const a = counted(log, "a");
  assert.equal(store.add(a), a);
  store.add(counted(log, "b"));
  store.dispose();
  store.dispose();
  assert.deepEqual(log, ["a", "b"]);
  assert.equal(store.isDisposed, true);
});

test("adding to a disposed store disposes the item at once and warns", (t) => {
  const warn = t.mock.method(DisposableStore, "disposedWarning", () => undefined);
  const log: string[] = [];
  const store = new DisposableStore();
  store.dispose();
  store.add(counted(log, "late"));
  assert.deepEqual(log, ["late"]);
  assert.equal(warn.mock.callCount(), 1);
});

test("a store refuses to own itself", () => {
  const store = new DisposableStore();
  assert.throws(() => store.add(store), /own itself/);
  store.dispose();
});

test("one throwing disposable does not stop the others; its error is rethrown after", () => {
  const log: string[] = [];
  const store = new DisposableStore();
  store.add(counted(log, "a"));
  store.add(
    toDisposable(() => {
      throw new Error("boom");
    }),
  );
  store.add(counted(log, "c"));
  assert.throws(() => store.dispose(), /boom/);
  assert.deepEqual(log, ["a", "c"]);
});

test("clear disposes what is held and keeps the store usable; delete disposes one; deleteAndLeak does not", () => {
  const log: string[] = [];
  const store = new DisposableStore();
  store.add(counted(log, "a"));
  store.clear();
  const b = store.add(counted(log, "b"));
  const c = store.add(counted(log, "c"));
  store.delete(b);
  store.deleteAndLeak(c);
  store.dispose();
  assert.deepEqual(log, ["a", "b"]);
  c.dispose();
});

test("isAsyncShutdown tells an owner with a shutdown() from a plain disposable", () => {
  assert.equal(isAsyncShutdown(slowOwner([], "x").owner), true);
  assert.equal(isAsyncShutdown(toDisposable(() => undefined)), false);
  const store = new DisposableStore();
  assert.equal(isAsyncShutdown(store), true);
  store.dispose();
});

test("DisposableStore.shutdown shuts down an AsyncShutdown item (disposes the rest) and resolves after it has ended", async () => {
  const log: string[] = [];
  const store = new DisposableStore();
  const slow = slowOwner(log, "slow");
  store.add(slow.owner);
  store.add(counted(log, "plain"));
  let resolved = false;
  const p = store.shutdown().then(() => (resolved = true));
  assert.equal(store.isDisposed, true);
  assert.deepEqual(log, ["slow shutdown", "plain"]);
  await new Promise((r) => setImmediate(r));
  assert.equal(resolved, false);
  assert.equal(store.shutdown(), store.shutdown());
  slow.end();
  await p;
  assert.deepEqual(log, ["slow shutdown", "plain", "slow gone"]);
  store.dispose(); // already shut down: a no-op
  assert.equal(log.length, 3);
});

test("DisposableStore.shutdown rejects with every failure, synchronous and asynchronous, after all have ended", async () => {
  const store = new DisposableStore();
  const a = slowOwner([], "a");
  store.add(a.owner);
  store.add(
    toDisposable(() => {
      throw new Error("sync boom");
    }),
  );
  const p = store.shutdown();
  a.fail(new Error("async boom"));
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof AggregateError);
    assert.deepEqual(err.errors.map(errorMessage), ["sync boom", "async boom"]);
    return true;
  });
});

test("DisposableStore.dispose starts the items' shutdowns and reports their failures; a later shutdown() waits for them", async () => {
  const reported: unknown[] = [];
  const previous = setUnexpectedErrorHandler((err) => reported.push(err));
  try {
    const log: string[] = [];
    const store = new DisposableStore();
    const a = slowOwner(log, "a");
    const b = slowOwner(log, "b");
    store.add(a.owner);
    store.add(b.owner);
    store.dispose();
    assert.deepEqual(log, ["a shutdown", "b shutdown"]);
    let resolved = false;
    const p = store.shutdown().then(() => (resolved = true));
    a.end();
    await new Promise((r) => setImmediate(r));
    assert.equal(resolved, false);
    b.fail(new Error("b failed"));
    await p; // dispose() reported the failure: shutdown() only waits
    assert.deepEqual(reported.map(errorMessage), ["b failed"]);
  } finally {
    setUnexpectedErrorHandler(previous);
  }
});

test("logError reports a failure as one line; ignoreError drops it", async () => {
  const lines: string[] = [];
  await Promise.reject(new Error("disk full")).catch(logError((m) => lines.push(m), "saving the queue"));
  assert.deepEqual(lines, ["saving the queue: disk full"]);
  assert.equal(await Promise.reject(new Error("gone")).catch(ignoreError("the file may already be gone")), undefined);
});

test("Disposable._register ties a child's lifetime to its owner", () => {
  const log: string[] = [];
  class Owner extends Disposable {
    readonly child = this._register(counted(log, "child"));
  }
  const o = new Owner();
  o.dispose();
  assert.deepEqual(log, ["child"]);
});

test("DisposableMap disposes a replaced value, a deleted one and all on dispose", () => {
  const log: string[] = [];
  const map = new DisposableMap<string>();
  map.set("a", counted(log, "a1"));
  map.set("a", counted(log, "a2"));
  map.set("b", counted(log, "b"));
  map.deleteAndDispose("b");
  const kept = counted(log, "kept");
  map.set("c", kept);
  assert.equal(map.deleteAndLeak("c"), kept);
  map.dispose();
  assert.deepEqual(log, ["a1", "b", "a2"]);
  kept.dispose();
});

test("MutableDisposable disposes the previous value when set, and its value on dispose", () => {
  const log: string[] = [];
  const m = new MutableDisposable<IDisposable>();
  m.value = counted(log, "one");
  m.value = counted(log, "two");
  m.dispose();
  assert.deepEqual(log, ["one", "two"]);
  assert.equal(m.value, undefined);
});

test("the leak check passes when everything is disposed, owned children included", () => {
  const tracker = new LeakTracker();
  setDisposableTracker(tracker);
  try {
    const store = new DisposableStore();
    store.add(toDisposable(() => undefined));
    const emitter = new Emitter<number>();
    store.add(emitter.event(() => undefined));
    store.dispose();
  } finally {
    setDisposableTracker(undefined);
  }
  assert.doesNotThrow(() => assertNoLeaks(tracker));
});

test("the leak check fails a test that leaks on purpose, naming where the leak was created", () => {
  const tracker = new LeakTracker();
  setDisposableTracker(tracker);
  let store: DisposableStore;
  const emitter = new Emitter<number>();
  try {
    store = new DisposableStore();
    store.add(toDisposable(() => undefined)); // owned by the leaked store: reported through it
    emitter.event(() => undefined); // a subscription nobody disposes
  } finally {
    setDisposableTracker(undefined);
  }
  assert.equal(tracker.leaks().length, 2);
  assert.throws(
    () => assertNoLeaks(tracker),
    (err: Error) => {
      assert.match(err.message, /^2 disposable\(s\) leaked by this test/);
      assert.match(err.message, /DisposableStore/);
      assert.match(err.message, /lifecycle\.test\.ts/);
      return true;
    },
  );
  store.dispose();
});
