// The agent's output under the SDK: lines written in one turn of the event loop leave as one write,
// in order and whole; a full stream holds the writer back until it drains; a broken one fails writes.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Writable } from "node:stream";
import { batchedOutput } from "../../../agent-server/acp/batchedOutput";

/** An in-memory Writable that records each write and calls back only when told to. */
function recorder(highWaterMark: number): { out: Writable; writes: string[]; release: () => void } {
  const writes: string[] = [];
  let held: Array<() => void> = [];
  const out = new Writable({
    highWaterMark,
    write(chunk: Buffer, _enc, cb) {
      writes.push(chunk.toString("utf8"));
      held.push(() => cb());
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
  it("lines written in one turn leave in one write, in order and whole", async () => {
    const { out, writes, release } = recorder(1 << 20);
    const { writable } = batchedOutput(out);
    const writer = writable.getWriter();
    await Promise.all(Array.from({ length: 100 }, (_, i) => writer.write(line(i))));
    assert.deepEqual(writes, []); // nothing leaves before the turn ends
    await new Promise((resolve) => setImmediate(resolve));
    release();
    assert.equal(writes.length, 1);
    assert.equal(writes[0], Array.from({ length: 100 }, (_, i) => `{"n":${i}}\n`).join(""));
  });

  it("a batch that reaches its size leaves at once, whole lines only", async () => {
    const { out, writes, release } = recorder(1 << 20);
    const { writable } = batchedOutput(out, 16);
    const writer = writable.getWriter();
    await writer.write(line(1)); // 8 bytes: waits
    assert.deepEqual(writes, []);
    await writer.write(line(2)); // 16: leaves now
    assert.deepEqual(writes, ['{"n":1}\n{"n":2}\n']);
    await writer.write(line(3));
    await new Promise((resolve) => setImmediate(resolve));
    release();
    assert.deepEqual(writes, ['{"n":1}\n{"n":2}\n', '{"n":3}\n']);
  });

  it("a line of our own joins the batch whole, between the SDK's lines in the order written", async () => {
    const { out, writes, release } = recorder(1 << 20);
    const output = batchedOutput(out);
    const writer = output.writable.getWriter();
    await writer.write(line(1));
    output.writeLine(line(2));
    await writer.write(line(3));
    await new Promise((resolve) => setImmediate(resolve));
    release();
    assert.deepEqual(writes, ['{"n":1}\n{"n":2}\n{"n":3}\n']);
  });

  it("a stream above its high-water mark holds the next write until it drains", async () => {
    const { out, writes, release } = recorder(8);
    const { writable } = batchedOutput(out);
    const writer = writable.getWriter();
    await writer.write(line(1));
    await new Promise((resolve) => setImmediate(resolve)); // flushed: 8 bytes or more is over the mark
    let second = false;
    const pending = writer.write(line(2)).then(() => (second = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(second, false, "waits for drain");
    // The stream drains once both lines it holds are written.
    release();
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await pending;
    assert.equal(second, true);
    assert.deepEqual(writes, ['{"n":1}\n', '{"n":2}\n']);
  });

  it("flush writes what is pending at once (the exit path)", () => {
    const { out, writes } = recorder(1 << 20);
    const output = batchedOutput(out);
    void output.writable.getWriter().write(line(7));
    return Promise.resolve().then(() => {
      output.flush();
      assert.deepEqual(writes, ['{"n":7}\n']);
    });
  });

  it("an error on the stream fails the writes after it", async () => {
    const { out } = recorder(1 << 20);
    const { writable } = batchedOutput(out);
    const writer = writable.getWriter();
    out.emit("error", new Error("EPIPE"));
    await assert.rejects(writer.write(line(1)), /EPIPE/);
  });
});
