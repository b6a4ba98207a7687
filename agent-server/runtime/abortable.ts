// Helpers that make a hung promise or stream give way to an abort signal.
import { ignoreError } from "../../base/errors";

export class AbortedError extends Error {
  constructor(message = "aborted") {
    super(message);
    this.name = "AbortError";
  }
}

/** The caller of an aborted race hears the abort; what the abandoned work does later has no one to go to. */
const abandoned = ignoreError("the caller heard the abort instead");

/** Resolves/rejects with `p`, or rejects with AbortedError as soon as `signal` aborts. */
export function raceAbort<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) {
    p.catch(abandoned);
    return Promise.reject(new AbortedError());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      p.catch(abandoned);
      reject(new AbortedError());
    };
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

/**
 * Iterates `source`, ending (and closing the source) as soon as `signal` aborts. One abort listener
 * for the whole iteration, not one per item: a model stream yields thousands of deltas.
 */
export async function* abortable<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  const it = source[Symbol.asyncIterator]();
  let stop: ((err: unknown) => void) | null = null;
  const onAbort = (): void => stop?.(new AbortedError());
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    for (;;) {
      if (signal.aborted) return;
      let r: IteratorResult<T>;
      try {
        const next = it.next();
        r = await new Promise<IteratorResult<T>>((resolve, reject) => {
          stop = reject;
          next.then(resolve, reject);
        });
      } catch (err) {
        if (signal.aborted) return;
        throw err;
      } finally {
        stop = null;
      }
      if (r.done) return;
      yield r.value;
    }
  } finally {
    signal.removeEventListener("abort", onAbort);
    void Promise.resolve(it.return?.()).catch(ignoreError("the iteration is over: a source failing to close has no one to tell"));
  }
}
