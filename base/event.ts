// Events with VS Code core's semantics, for the classes that cannot import `vscode`: an `Event<T>` is
// a function that subscribes a listener and returns the subscription. Events carry what changed.
import { toDisposable, type DisposableStore, type IDisposable } from "./lifecycle";

export type Event<T> = (listener: (e: T) => unknown, thisArg?: unknown, disposables?: IDisposable[] | DisposableStore) => IDisposable;

export interface EmitterOptions {
  /** Called when the first listener subscribes (start watching the source). */
  onWillAddFirstListener?(): void;
  /** Called when the last listener leaves (stop watching the source). */
  onDidRemoveLastListener?(): void;
  /** A listener threw; the default logs it. The other listeners still run. */
  onListenerError?(err: unknown): void;
}

interface Listener<T> {
  readonly fn: (e: T) => unknown;
  readonly thisArg: unknown;
  sub?: IDisposable;
}

/**
 * Owns one event. `fire(e)` calls the listeners subscribed at that moment, in order; one that throws
 * is reported and does not stop the others. A listener added during a fire hears the next fire; one
 * removed during a fire is not called if its turn has not come. After `dispose()` nothing fires, and
 * the subscriptions it still had count as disposed (they are dead; a leak check does not report them).
 */
export class Emitter<T> implements IDisposable {
  readonly #listeners = new Set<Listener<T>>();
  #disposed = false;
  #event?: Event<T>;

  constructor(private readonly options: EmitterOptions = {}) {}

  get event(): Event<T> {
    this.#event ??= (fn, thisArg, disposables) => {
      if (this.#disposed) return toDisposable(() => undefined);
      const l: Listener<T> = { fn, thisArg };
      if (this.#listeners.size === 0) this.options.onWillAddFirstListener?.();
      this.#listeners.add(l);
      const sub = toDisposable(() => {
        if (!this.#listeners.delete(l)) return;
        if (this.#listeners.size === 0) this.options.onDidRemoveLastListener?.();
      });
      l.sub = sub;
      if (Array.isArray(disposables)) disposables.push(sub);
      else disposables?.add(sub);
      return sub;
    };
    return this.#event;
  }

  get hasListeners(): boolean {
    return this.#listeners.size > 0;
  }

  fire(e: T): void {
    if (this.#disposed) return;
    for (const l of [...this.#listeners]) {
      if (!this.#listeners.has(l)) continue;
      try {
        l.fn.call(l.thisArg, e);
      } catch (err) {
        (this.options.onListenerError ?? defaultListenerError)(err);
      }
    }
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    if (this.#listeners.size === 0) return;
    const listeners = [...this.#listeners];
    this.#listeners.clear();
    for (const l of listeners) l.sub?.dispose();
    this.options.onDidRemoveLastListener?.();
  }
}

function defaultListenerError(err: unknown): void {
  console.error("an event listener threw:", err);
}

/** Helpers over events (VS Code's `Event` namespace, the two we use). */
export const Event = {
  /** The first firing only; the subscription ends after it. */
  once<T>(event: Event<T>): Event<T> {
    return (listener, thisArg, disposables) => {
      let fired = false;
      const sub: IDisposable = event(
        (e) => {
          if (fired) return;
          fired = true;
          sub.dispose();
          return listener.call(thisArg, e);
        },
        undefined,
        disposables,
      );
      return sub;
    };
  },

  /** A promise of the next firing. */
  toPromise<T>(event: Event<T>): Promise<T> {
    return new Promise((resolve) => Event.once(event)(resolve));
  },
};
