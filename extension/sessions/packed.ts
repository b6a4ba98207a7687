// Values the extension host keeps compressed: an old transcript page, an old edit's texts.
// Each is serialised as JSON and deflated (a small one on the loop, where level 1 costs less than
// a round trip through zlib's thread pool; a large one in that pool); it is inflated again when
// someone asks for it. Only the host's own values go
// through here, never outside data, so unpacking trusts the shape it packed.
import { deflateRaw, deflateRawSync, inflateRaw, inflateRawSync } from "node:zlib";
import { promisify } from "node:util";

const deflate = promisify(deflateRaw);
const inflate = promisify(inflateRaw);

/** Level 1: most of the gain (≈ 3× on source text and tool output) for a third of level 6's CPU. */
const LEVEL = 1;

export async function unpack<T>(packed: Buffer): Promise<T> {
  return JSON.parse((await inflate(packed)).toString("utf8")) as T;
}

/** For a caller that cannot wait (an event must be applied now). */
export function unpackSync<T>(packed: Buffer): T {
  return JSON.parse(inflateRawSync(packed).toString("utf8")) as T;
}

/**
 * Up to this size a value is deflated on the loop: level 1 takes ≈ 0.05 ms for 30 KB, less than
 * handing it to the thread pool and taking the answer back costs the loop (a replay sets aside
 * hundreds of edit texts).
 */
const SYNC_BYTES = 256 * 1024;

/** Packs values in the background and knows when all it started have ended. */
export class Packer {
  readonly #inFlight = new Set<Promise<void>>();

  /** Deflates `value`; `done` gets the bytes. If zlib fails (out of memory) `done` is not called: the value stays as it was. */
  pack(value: unknown, done: (packed: Buffer) => void): void {
    const bytes = Buffer.from(JSON.stringify(value), "utf8");
    if (bytes.length <= SYNC_BYTES) {
      let packed: Buffer | undefined;
      try {
        packed = deflateRawSync(bytes, { level: LEVEL });
      } catch {
        return;
      }
      done(packed);
      return;
    }
    const p = deflate(bytes, { level: LEVEL }).then(done, () => undefined);
    this.#inFlight.add(p);
    void p.finally(() => this.#inFlight.delete(p));
  }

  /** Resolves when every pack started so far has ended. */
  async settled(): Promise<void> {
    await Promise.all([...this.#inFlight]);
  }
}
