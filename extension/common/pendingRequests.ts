// The bookkeeping both brokers share (permission requests and agent questions of one session): each
// pending request gets an id unique across sessions (so an answer can never land on another session's
// request), is settled at most once, and is settled by `onAbort` when the agent withdraws it
// ($/cancel_request) or the connection closes. What a settlement answers is the broker's business.

let globalSeq = 0;

interface Entry<P, R> {
  pending: P;
  resolve: (response: R) => void;
  detach: () => void;
}

export class PendingRequests<P, R> {
  readonly #entries = new Map<string, Entry<P, R>>();

  constructor(private readonly prefix: string) {}

  get size(): number {
    return this.#entries.size;
  }

  ids(): string[] {
    return [...this.#entries.keys()];
  }

  list(): P[] {
    return [...this.#entries.values()].map((e) => e.pending);
  }

  get(id: string): P | undefined {
    return this.#entries.get(id)?.pending;
  }

  /**
   * Registers a request built by `make(id)`; resolves with the response it is settled with. An already
   * aborted `signal` settles it at once through `onAbort`, before anyone is told about it.
   */
  add(make: (id: string) => P, signal: AbortSignal | undefined, onAbort: (id: string) => void, announce: (pending: P) => void): Promise<R> {
    const id = `${this.prefix}-${++globalSeq}`;
    const pending = make(id);
    return new Promise<R>((resolve) => {
      const abort = (): void => onAbort(id);
      signal?.addEventListener("abort", abort, { once: true });
      this.#entries.set(id, { pending, resolve, detach: () => signal?.removeEventListener("abort", abort) });
      if (signal?.aborted) abort();
      else announce(pending);
    });
  }

  /** Settles a pending request once; returns what was pending, or undefined if it was not. */
  settle(id: string, response: R): P | undefined {
    const e = this.#entries.get(id);
    if (!e) return undefined;
    this.#entries.delete(id);
    e.detach();
    e.resolve(response);
    return e.pending;
  }
}
