// The agent's stdout, line by line. Each message goes out as one whole line, in order. The first line
// of a turn of the event loop leaves at once (an answer waits for nothing); the lines after it in the
// same turn leave together at the turn's end, in writes of about `BATCH_BYTES` (a `session/load`
// replay of thousands of updates is a few dozen writes instead of one per line, and the client reads
// the first lines while the agent writes the rest). Chunks only ever join in the order written, never
// split. While the stream is above its high-water mark, `write` hands back a promise that resolves at
// `drain` (the SDK's writer waits on it).
import type { Writable } from "node:stream";

export interface BatchedOutput {
  /** One whole line; a promise when the stream is full (resolves at drain), rejected once the stream failed. */
  write(line: Uint8Array): Promise<void> | undefined;
  /** One whole line of our own (the frame guard's refusals), joined to the same batch, with no backpressure. */
  writeLine(line: Uint8Array): void;
  /** Writes what is still pending, now (for a synchronous exit). */
  flush(): void;
  /** Runs `fn` once, right after the next batch has been handed to the stream. */
  afterNextWrite(fn: () => void): void;
}

/** A batch this large leaves at once, without waiting for the end of the turn. */
export const BATCH_BYTES = 16 * 1024;

export function batchedOutput(out: Writable, batchBytes = BATCH_BYTES): BatchedOutput {
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let scheduled = false;
  let drained: Promise<void> | null = null;
  let failed: unknown = null;
  let afterWrite: (() => void)[] = [];
  // A broken pipe fails the next write, as Node's own Writable.toWeb adapter would.
  out.on("error", (err) => {
    failed ??= err;
  });

  const flush = (): void => {
    if (pending.length === 0) return;
    const chunks = pending;
    pending = [];
    pendingBytes = 0;
    const ok = out.write(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    if (!ok && !drained) {
      drained = new Promise((resolve) =>
        out.once("drain", () => {
          drained = null;
          resolve();
        }),
      );
    }
    if (afterWrite.length > 0) {
      const fns = afterWrite;
      afterWrite = [];
      for (const fn of fns) fn();
    }
  };

  const atTurnEnd = (): void => {
    scheduled = false;
    flush();
  };

  const add = (chunk: Uint8Array): void => {
    pending.push(chunk);
    pendingBytes += chunk.byteLength;
    if (!scheduled) {
      scheduled = true;
      setImmediate(atTurnEnd);
      flush();
    } else if (pendingBytes >= batchBytes) flush();
  };

  return {
    write(line) {
      if (failed !== null) return Promise.reject(failed);
      add(line);
      return drained ?? undefined;
    },
    writeLine: add,
    flush,
    afterNextWrite: (fn) => void afterWrite.push(fn),
  };
}
