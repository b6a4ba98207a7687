// Disposables with VS Code core's semantics, for the classes that cannot import `vscode` (and for the
// webview). vscode's own `Disposable` objects have the same shape, so they go into these stores too.
// `dispose()` is synchronous everywhere; an owner whose teardown ends later (a process tree to end, a
// log to close) is also an `AsyncShutdown`, and whoever must wait for the end awaits `shutdown()`.
import { onUnexpectedError } from "./errors";

export interface IDisposable {
  dispose(): void;
}

/**
 * An owner whose teardown ends after `dispose()` returns. `dispose()` (idempotent) releases what it
 * holds, starts the asynchronous rest and reports its failure itself, since nobody awaits it there.
 * `shutdown()` does the same but hands the rest to its caller: the same promise on every call,
 * resolving when the teardown is complete and rejecting if it failed.
 */
export interface AsyncShutdown extends IDisposable {
  shutdown(): Promise<void>;
}

export function isAsyncShutdown(d: IDisposable): d is AsyncShutdown {
  return "shutdown" in d && typeof d.shutdown === "function";
}

/**
 * Watches disposables being created and disposed, so a test can fail when something it made was never
 * disposed (the test-side half is `trackDisposables`). Only the objects of this module report.
 */
export interface DisposableTracker {
  trackDisposable(d: IDisposable): void;
  markAsDisposed(d: IDisposable): void;
  /** `child` is owned by `parent` (a store): it is not a leak while its parent lives. */
  setParent(child: IDisposable, parent: IDisposable | undefined): void;
}

let tracker: DisposableTracker | undefined;

/** Installs (or with `undefined` removes) the tracker; returns the previous one. */
export function setDisposableTracker(t: DisposableTracker | undefined): DisposableTracker | undefined {
  const previous = tracker;
  tracker = t;
  return previous;
}

function track<T extends IDisposable>(d: T): T {
  tracker?.trackDisposable(d);
  return d;
}

function markDisposed(d: IDisposable): void {
  tracker?.markAsDisposed(d);
}

function setParent(child: IDisposable, parent: IDisposable | undefined): void {
  tracker?.setParent(child, parent);
}

/**
 * Disposes every item, even when one throws; the errors are rethrown together afterwards (one as
 * itself, several as an AggregateError), so one broken disposable does not leak the others.
 */
export function dispose(items: Iterable<IDisposable>): void {
  const errors: unknown[] = [];
  for (const d of items) {
    try {
      d.dispose();
    } catch (err) {
      errors.push(err);
    }
  }
  throwAll(errors);
}

function throwAll(errors: readonly unknown[]): void {
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, "several disposables failed to dispose");
}

/**
 * Releases every item like `dispose(items)`, except that an `AsyncShutdown` is shut down: returns the
 * synchronous failures, and the shutdowns under way.
 */
function release(items: Iterable<IDisposable>): { errors: unknown[]; shutdowns: Promise<void>[] } {
  const errors: unknown[] = [];
  const shutdowns: Promise<void>[] = [];
  for (const d of items) {
    try {
      if (isAsyncShutdown(d)) shutdowns.push(d.shutdown());
      else d.dispose();
    } catch (err) {
      errors.push(err);
    }
  }
  return { errors, shutdowns };
}

/** Resolves when every shutdown has settled; rejects with `errors` and their failures together. */
async function allShutDown(shutdowns: readonly Promise<void>[], errors: readonly unknown[] = []): Promise<void> {
  const results = await Promise.allSettled(shutdowns);
  throwAll([...errors, ...results.flatMap((r): unknown[] => (r.status === "rejected" ? [r.reason] : []))]);
}

/** A disposable that runs `fn` once, on its first `dispose()`. */
export function toDisposable(fn: () => void): IDisposable {
  let done = false;
  const d: IDisposable = {
    dispose() {
      if (done) return;
      done = true;
      markDisposed(d);
      fn();
    },
  };
  return track(d);
}

/**
 * Owns a set of disposables. `add` returns its argument, so creating and registering is one
 * expression; disposing twice is a no-op; adding to a disposed store disposes the item at once (and
 * warns: it is almost always a bug in the caller's lifetime). An `AsyncShutdown` item is shut down,
 * not just disposed, and `shutdown()` waits for every such item (`dispose()` reports their failures to
 * `onUnexpectedError`, since nobody awaits them there).
 */
export class DisposableStore implements AsyncShutdown {
  static disposedWarning = (): void =>
    console.warn(new Error("added a disposable to a store that is already disposed; it was disposed at once").stack);

  readonly #items = new Set<IDisposable>();
  #disposed = false;
  /** Shutdowns of items that `clear()` or `dispose()` started (a later `shutdown()` waits for them). */
  readonly #tails = new Set<Promise<void>>();
  /** What `shutdown()` returns, once called. */
  #tail?: Promise<void>;

  constructor() {
    track(this);
  }

  get isDisposed(): boolean {
    return this.#disposed;
  }

  add<T extends IDisposable>(d: T): T {
    if ((d as unknown) === this) throw new Error("a store cannot own itself");
    setParent(d, this);
    if (this.#disposed) {
      DisposableStore.disposedWarning();
      d.dispose();
    } else {
      this.#items.add(d);
    }
    return d;
  }

  /** Removes `d` and disposes it. */
  delete(d: IDisposable): void {
    if (!this.#items.delete(d)) return;
    d.dispose();
  }

  /** Removes `d` without disposing it (its new owner will). */
  deleteAndLeak(d: IDisposable): void {
    if (this.#items.delete(d)) setParent(d, undefined);
  }

  /** Disposes what is held (shutting down what has a `shutdown()`); the store stays usable. */
  clear(): void {
    throwAll(this.#release());
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    markDisposed(this);
    throwAll(this.#release());
  }

  /**
   * Disposes the store and resolves when every item's shutdown has ended; rejects with their failures
   * and the synchronous ones together. After `dispose()` it only waits for the shutdowns dispose
   * started (dispose reported their failures). The same promise on every call.
   */
  shutdown(): Promise<void> {
    if (this.#tail) return this.#tail;
    // What `clear()` or `dispose()` started is waited for; its failures were reported already.
    const earlier = Promise.allSettled([...this.#tails]);
    if (this.#disposed) {
      this.#tail = earlier.then(() => undefined);
    } else {
      this.#disposed = true;
      markDisposed(this);
      const { errors, shutdowns } = this.#take();
      this.#tail = earlier.then(() => allShutDown(shutdowns, errors));
    }
    return this.#tail;
  }

  /** Empties the store, releasing what it held. */
  #take(): { errors: unknown[]; shutdowns: Promise<void>[] } {
    if (this.#items.size === 0) return { errors: [], shutdowns: [] };
    const items = [...this.#items];
    this.#items.clear();
    return release(items);
  }

  /**
   * `#take()` for `clear()` and `dispose()`: returns the synchronous failures. The shutdowns under
   * way are kept until they end, for a `shutdown()` to wait for; nobody may ever await them, so
   * their failures are reported here.
   */
  #release(): unknown[] {
    const { errors, shutdowns } = this.#take();
    for (const s of shutdowns) {
      this.#tails.add(s);
      s.then(
        () => this.#tails.delete(s),
        (err: unknown) => {
          this.#tails.delete(s);
          onUnexpectedError(err);
        },
      );
    }
    return errors;
  }
}

/** Base class for owners: `_register(x)` returns `x` and disposes it with the owner. */
export abstract class Disposable implements IDisposable {
  protected readonly _store = new DisposableStore();

  constructor() {
    track(this);
    setParent(this._store, this);
  }

  protected _register<T extends IDisposable>(d: T): T {
    if ((d as unknown) === this) throw new Error("a disposable cannot register itself");
    return this._store.add(d);
  }

  dispose(): void {
    markDisposed(this);
    this._store.dispose();
  }
}

/** Disposables by key: setting a key disposes what it held; deleting a key disposes its value. */
export class DisposableMap<K, V extends IDisposable = IDisposable> implements IDisposable {
  readonly #map = new Map<K, V>();
  #disposed = false;

  constructor() {
    track(this);
  }

  get size(): number {
    return this.#map.size;
  }

  get(key: K): V | undefined {
    return this.#map.get(key);
  }

  has(key: K): boolean {
    return this.#map.has(key);
  }

  set(key: K, value: V): void {
    if (this.#disposed) {
      DisposableStore.disposedWarning();
      value.dispose();
      return;
    }
    const old = this.#map.get(key);
    if (old !== value) old?.dispose();
    this.#map.set(key, value);
    setParent(value, this);
  }

  /** Removes and disposes the value of `key`. */
  deleteAndDispose(key: K): void {
    const v = this.#map.get(key);
    this.#map.delete(key);
    v?.dispose();
  }

  /** Removes the value of `key` without disposing it, and returns it. */
  deleteAndLeak(key: K): V | undefined {
    const v = this.#map.get(key);
    this.#map.delete(key);
    if (v) setParent(v, undefined);
    return v;
  }

  keys(): IterableIterator<K> {
    return this.#map.keys();
  }

  values(): IterableIterator<V> {
    return this.#map.values();
  }

  clearAndDispose(): void {
    const values = [...this.#map.values()];
    this.#map.clear();
    dispose(values);
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    markDisposed(this);
    this.clearAndDispose();
  }
}

/** Holds one disposable at a time: setting a new value disposes the old one. */
export class MutableDisposable<T extends IDisposable> implements IDisposable {
  #value: T | undefined;
  #disposed = false;

  constructor() {
    track(this);
  }

  get value(): T | undefined {
    return this.#disposed ? undefined : this.#value;
  }

  set value(value: T | undefined) {
    if (this.#disposed) {
      value?.dispose();
      return;
    }
    if (value === this.#value) return;
    this.#value?.dispose();
    if (value) setParent(value, this);
    this.#value = value;
  }

  clear(): void {
    this.value = undefined;
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    markDisposed(this);
    this.#value?.dispose();
    this.#value = undefined;
  }
}
