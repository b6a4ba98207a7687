// The agent's output under the SDK: the first line of a turn of the event loop leaves at once, the
// lines after it in that turn as one write, in order and whole; a full stream holds the writer back
// until it drains; a broken one fails writes.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Writable } from "node:stream";
import { batchedOutput } from "../../../agent-server/acp/batchedOutput";

/** An in-memory Writable that records each write; `hold`: it calls back only when told to. */
function recorder(highWaterMark: number, hold = false): { out: Writable; writes: string[]; release: () => void } {
  const writes: string[] = [];
  let held: Array<() => void> = [];
  const out = new Writable({
    highWaterMark,
    write(chunk: Buffer, _enc, cb) {
      writes.push(chunk.toString("utf8"));
      if (hold) held.push(() => cb());
      else cb();
    },
  });
  const release = (): void => {
    const cbs = held;
    held = [];
    for (const cb of cbs) cb();
  };
  return { out, writes, release };
}

const line = (i: number): Uint8Array => new TextEncoder().encode(`{"n":${i}}\n`);

describe("batched output", () => {
  it("the first line of a turn leaves at once, the rest of the turn in one write, in order and whole", async () => {
    const { out, writes } = recorder(1 << 20);
    const output = batchedOutput(out);
    for (let i = 0; i < 100; i++) await output.write(line(i));
    assert.deepEqual(writes, ['{"n":0}\n']); // an answer waits for nothing
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(writes.length, 2);
    assert.equal(writes[1], Array.from({ length: 99 }, (_, i) => `{"n":${i + 1}}\n`).join(""));
    // A new turn: its first line leaves at once again.
    await output.write(line(100));
    assert.equal(writes.length, 3);
    assert.equal(writes[2], '{"n":100}\n');
  });

  it("a batch that reaches its size leaves at once, whole lines only", async () => {
    const { out, writes } = recorder(1 << 20);
    const output = batchedOutput(out, 16);
    await output.write(line(0)); // the turn's first line: at once
    await output.write(line(1)); // 8 bytes: waits
    assert.deepEqual(writes, ['{"n":0}\n']);
    await output.write(line(2)); // 16: leaves now
    assert.deepEqual(writes, ['{"n":0}\n', '{"n":1}\n{"n":2}\n']);
    await output.write(line(3));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(writes, ['{"n":0}\n', '{"n":1}\n{"n":2}\n', '{"n":3}\n']);
  });

  it("a line of our own joins the batch whole, between the SDK's lines in the order written", async () => {
    const { out, writes } = recorder(1 << 20);
    const output = batchedOutput(out);
    await output.write(line(0));
    await output.write(line(1));
    output.writeLine(line(2));
    await output.write(line(3));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(writes, ['{"n":0}\n', '{"n":1}\n{"n":2}\n{"n":3}\n']);
  });

  it("a stream above its high-water mark holds the writer until it drains", async () => {
    const { out, writes, release } = recorder(8, true);
    const output = batchedOutput(out);
    // 8 bytes or more is over the mark: the write that filled it waits for the drain.
    let first = false;
    const filled = Promise.resolve(output.write(line(1))).then(() => (first = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(first, false, "waits for drain");
    let second = false;
    const pending = Promise.resolve(output.write(line(2))).then(() => (second = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(second, false, "waits for drain");
    // The stream drains once both lines it holds are written.
    release();
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await Promise.all([filled, pending]);
    assert.equal(first && second, true);
    assert.deepEqual(writes, ['{"n":1}\n', '{"n":2}\n']);
  });

  it("flush writes what is pending at once (the exit path)", () => {
    const { out, writes } = recorder(1 << 20);
    const output = batchedOutput(out);
    void output.write(line(6));
    void output.write(line(7));
    assert.deepEqual(writes, ['{"n":6}\n']);
    output.flush();
    assert.deepEqual(writes, ['{"n":6}\n', '{"n":7}\n']);
  });

  it("an error on the stream fails the writes after it", async () => {
    const { out } = recorder(1 << 20);
    const output = batchedOutput(out);
    out.emit("error", new Error("EPIPE"));
    await assert.rejects(Promise.resolve(output.write(line(1))), /EPIPE/);
  });
});
