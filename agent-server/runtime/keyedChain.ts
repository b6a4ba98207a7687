// Work serialised per key (a session id): each call runs after the previous one of its key settles,
// whatever its outcome, and a key leaves the map once its last call is done. Keys never wait on
// each other.
import { ignoreError } from "../../base/errors";

export class KeyedChain {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    const next = prev.then(work, work);
    const tail = next.catch(ignoreError("the caller of run() hears the failure; the chain only orders"));
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }

  /** Settles when every call of `key` queued so far has (at once when none is). */
  async idle(key: string): Promise<void> {
    await this.tails.get(key);
  }

  has(key: string): boolean {
    return this.tails.has(key);
  }

  keys(): string[] {
    return [...this.tails.keys()];
  }
}
