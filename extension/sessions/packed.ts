// Values the extension host keeps compressed: an old transcript page, an old edit's texts.
// Each is serialised as JSON and deflated in zlib's thread pool, so the event loop pays only the
// `JSON.stringify`; it is inflated again when someone asks for it. Only the host's own values go
// through here, never outside data, so unpacking trusts the shape it packed.
import { deflateRaw, inflateRaw, inflateRawSync } from "node:zlib";
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

/** Packs values in the background and knows when all it started have ended. */
export class Packer {
  readonly #inFlight = new Set<Promise<void>>();

  /** Deflates `value`; `done` gets the bytes. If zlib fails (out of memory) `done` is not called: the value stays as it was. */
  pack(value: unknown, done: (packed: Buffer) => void): void {
    const p = deflate(Buffer.from(JSON.stringify(value), "utf8"), { level: LEVEL }).then(done, () => undefined);
    this.#inFlight.add(p);
    void p.finally(() => this.#inFlight.delete(p));
  }

  /** Resolves when every pack started so far has ended. */
  async settled(): Promise<void> {
    await Promise.all([...this.#inFlight]);
  }
}
