// The test side of `setDisposableTracker` (base/lifecycle.ts), after VS Code's
// `ensureNoDisposablesAreLeakedInTestSuite`: a test file calls `ensureNoDisposablesAreLeaked()` once,
// and every test of the file fails if something it created (a store, a subscription, an owner) was not
// disposed by the end of the test.
import { afterEach, beforeEach } from "node:test";
import { setDisposableTracker, type DisposableTracker, type IDisposable } from "../../base/lifecycle";

interface Info {
  readonly stack: string;
  parent?: IDisposable;
  disposed: boolean;
}

export class LeakTracker implements DisposableTracker {
  readonly #live = new Map<IDisposable, Info>();

  trackDisposable(d: IDisposable): void {
    this.#live.set(d, { stack: new Error("created here").stack ?? "", disposed: false });
  }

  markAsDisposed(d: IDisposable): void {
    const info = this.#live.get(d);
    if (info) info.disposed = true;
  }

  setParent(child: IDisposable, parent: IDisposable | undefined): void {
    const info = this.#live.get(child);
    if (info) info.parent = parent;
  }

  /**
   * The undisposed roots: a disposable still owned by a live parent is reported through that parent.
   * Each with the stack that created it.
   */
  leaks(): { disposable: IDisposable; stack: string }[] {
    const out: { disposable: IDisposable; stack: string }[] = [];
    for (const [d, info] of this.#live) {
      if (info.disposed) continue;
      const parent = info.parent && this.#live.get(info.parent);
      if (parent && !parent.disposed) continue;
      out.push({ disposable: d, stack: info.stack });
    }
    return out;
  }
}

/** Throws, naming where each leaked disposable was created, when the tracker saw leaks. */
export function assertNoLeaks(tracker: LeakTracker): void {
  const leaks = tracker.leaks();
  if (leaks.length === 0) return;
  const where = leaks.map((l, i) => `#${i + 1} ${l.disposable.constructor.name}\n${l.stack.split("\n").slice(1, 8).join("\n")}`);
  throw new Error(`${leaks.length} disposable(s) leaked by this test:\n${where.join("\n\n")}`);
}

/**
 * Installs a fresh tracker before each test of the file and checks it after. `cleanup` runs first
 * (e.g. dispose the harness the test built), so what it disposes does not count as a leak.
 */
export function ensureNoDisposablesAreLeaked(opts: { cleanup?: () => unknown } = {}): void {
  let tracker: LeakTracker | undefined;
  beforeEach(() => {
    tracker = new LeakTracker();
    setDisposableTracker(tracker);
  });
  afterEach(async () => {
    try {
      await opts.cleanup?.();
    } finally {
      setDisposableTracker(undefined);
    }
    if (tracker) assertNoLeaks(tracker);
  });
}
