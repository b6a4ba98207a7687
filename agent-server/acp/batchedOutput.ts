// The agent's stdout as the byte stream under the SDK's ndJsonStream. The SDK writes each message as
// one whole line, in order; the lines written within one turn of the event loop leave in one write
// (a `session/load` replay of thousands of updates is a handful of writes instead of one per line).
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
}

export function batchedOutput(out: Writable): BatchedOutput {
  let pending: Uint8Array[] = [];
  let scheduled = false;
  let drained: Promise<void> | null = null;

  const flush = (): void => {
    scheduled = false;
    if (pending.length === 0) return;
    const chunks = pending;
    pending = [];
    const ok = out.write(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    if (!ok && !drained) {
      drained = new Promise((resolve) =>
        out.once("drain", () => {
          drained = null;
          resolve();
        }),
      );
    }
  };

  const add = (chunk: Uint8Array): void => {
    pending.push(chunk);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
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
  return { writable, writeLine: add, flush };
}
