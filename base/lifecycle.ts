// Disposables with VS Code core's semantics, for the classes that cannot import `vscode` (and for the
// webview). vscode's own `Disposable` objects have the same shape, so they go into these stores too.

export interface IDisposable {
  dispose(): void;
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
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, "several disposables failed to dispose");
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
 * warns: it is almost always a bug in the caller's lifetime).
 */
export class DisposableStore implements IDisposable {
  static disposedWarning = (): void =>
    console.warn(new Error("added a disposable to a store that is already disposed; it was disposed at once").stack);

  readonly #items = new Set<IDisposable>();
  #disposed = false;

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

  /** Disposes what is held; the store stays usable. */
  clear(): void {
    if (this.#items.size === 0) return;
    const items = [...this.#items];
    this.#items.clear();
    dispose(items);
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    markDisposed(this);
    this.clear();
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
