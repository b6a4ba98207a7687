// The agent's stdout as the byte stream under the SDK's ndJsonStream. The SDK writes each message as
// one whole line, in order; the lines written within one turn of the event loop leave together, in
// writes of about `BATCH_BYTES` (a `session/load` replay of thousands of updates is a few dozen writes
// instead of one per line, and the client reads the first lines while the agent writes the rest).
// Order and whole lines are kept: chunks only ever join in the order written, never split. While the
// stream is above its high-water mark, writes wait for `drain` (the SDK's queue waits with them).
import type { Writable } from "node:stream";

export interface BatchedOutput {
  /** What the SDK's ndJsonStream writes its lines into. */
  readonly writable: WritableStream<Uint8Array>;
  /** One whole line of our own (the frame guard's refusals), joined to the same batch, without the SDK's writer lock. */
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
  let afterWrite: (() => void)[] = [];

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
    if (pendingBytes >= batchBytes) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(atTurnEnd);
    }
  };

  const writable = new WritableStream<Uint8Array>({
    start(controller) {
      // A broken pipe fails the next write, as Node's own Writable.toWeb adapter would.
      out.on("error", (err) => controller.error(err));
    },
    write(chunk) {
      add(chunk);
      return drained ?? undefined;
    },
    close() {
      flush();
    },
  });
  return { writable, writeLine: add, flush, afterNextWrite: (fn) => void afterWrite.push(fn) };
}
