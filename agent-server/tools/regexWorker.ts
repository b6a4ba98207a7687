// The JS regex fallback of grep (no ripgrep on PATH) runs in a worker thread with a deadline:
// V8's backtracking engine can take exponential time on `(a+)+$`, and on the main thread that
// froze every session. The worker is terminated on timeout or cancel; the event loop never waits.
import { Worker } from "node:worker_threads";

/** Plain JS (no imports) so it runs the same from tsx and from the esbuild bundle. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const re = new RegExp(workerData.pattern, workerData.flags);
parentPort.on("message", (msg) => {
  const out = [];
  const lines = msg.text.split("\\n");
  for (let i = 0; i < lines.length && out.length < msg.max; i++) {
    re.lastIndex = 0;
    if (re.test(lines[i])) out.push([i + 1, lines[i]]);
  }
  parentPort.postMessage(out);
});
`;

export class RegexTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(
      `The pattern took longer than ${ms / 1000} s to match (catastrophic backtracking?); simplify it, e.g. avoid nested quantifiers like (a+)+.`,
    );
    this.name = "RegexTimeoutError";
  }
}

export interface LineMatcher {
  /** Matching `[lineNumber, line]` pairs of `text`, at most `max`. Rejects on timeout or abort. */
  match(text: string, max: number): Promise<Array<[number, string]>>;
  close(): Promise<void>;
}

/** One worker per grep call; `budgetMs` bounds the total matching time of the call. */
export function createLineMatcher(pattern: string, flags: string, budgetMs: number, signal: AbortSignal): LineMatcher {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { pattern, flags }, resourceLimits: { maxOldGenerationSizeMb: 128 } });
  worker.unref();
  let spent = 0;
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await worker.terminate();
  };
  return {
    match(text, max) {
      return new Promise((resolve, reject) => {
        const started = Date.now();
        const cleanup = () => {
          clearTimeout(timer);
          signal.removeEventListener("abort", onAbort);
          worker.off("message", onMessage);
          worker.off("error", onError);
          spent += Date.now() - started;
        };
        const onMessage = (out: Array<[number, string]>) => {
          cleanup();
          resolve(out);
        };
        const onError = (err: Error) => {
          cleanup();
          reject(err);
        };
        const onAbort = () => {
          cleanup();
          void close();
          reject(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
        };
        const timer = setTimeout(
          () => {
            cleanup();
            void close();
            reject(new RegexTimeoutError(budgetMs));
          },
          Math.max(0, budgetMs - spent),
        );
        if (signal.aborted) return onAbort();
        signal.addEventListener("abort", onAbort, { once: true });
        worker.on("message", onMessage);
        worker.on("error", onError);
        worker.postMessage({ text, max });
      });
    },
    close,
  };
}
