// Routes everything the agent sends for a session (updates, permission requests, fs/*, terminal/*)
// to the one owner registered for that session id.
// - Updates for an id nobody owns are dropped (I-91).
// - Updates of one session are applied strictly in arrival order, even when a handler awaits;
//   different sessions do not wait for each other.
// - While a `session/new` is in flight its id is not known yet; updates for unknown ids are held
//   until every in-flight creation has been answered, then delivered to the new owner or dropped.
import type { SessionNotification, SessionUpdate } from "@agentclientprotocol/sdk";
import { toDisposable, type IDisposable } from "../../base/lifecycle";

/** What an owner of a session handles. `T` is the per-session service bag (permissions, fs, terminals). */
export interface SessionOwner<T> {
  applyUpdate(update: SessionUpdate): void | Promise<void>;
  readonly services: T;
}

export class SessionRouter<T> {
  readonly #owners = new Map<string, SessionOwner<T>>();
  readonly #queues = new Map<string, Promise<void>>();
  #creating = 0;
  #held: SessionNotification[] = [];
  #dropped = 0;

  constructor(private readonly onError: (sessionId: string, err: unknown) => void = () => {}) {}

  /** Registers the owner of `sessionId`. Register before `session/load`: replay arrives before the answer. */
  register(sessionId: string, owner: SessionOwner<T>): IDisposable {
    if (this.#owners.has(sessionId)) throw new Error(`session ${sessionId} already has an owner`);
    this.#owners.set(sessionId, owner);
    return toDisposable(() => {
      if (this.#owners.get(sessionId) === owner) this.#owners.delete(sessionId);
    });
  }

  owner(sessionId: string): SessionOwner<T> | undefined {
    return this.#owners.get(sessionId);
  }

  services(sessionId: string): T | undefined {
    return this.#owners.get(sessionId)?.services;
  }

  /** How many updates were dropped for unknown ids (diagnostics and tests). */
  get droppedCount(): number {
    return this.#dropped;
  }

  /** Marks a `session/new` as in flight; call the returned function when it has been answered (either way). */
  beginCreate(): () => void {
    this.#creating++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.#creating--;
      if (this.#creating === 0) {
        const held = this.#held;
        this.#held = [];
        for (const n of held) this.#deliver(n);
      }
    };
  }

  /** Entry point for `session/update`. Returns when this update has been applied (or dropped). */
  dispatch(n: SessionNotification): Promise<void> {
    if (!this.#owners.has(n.sessionId) && this.#creating > 0) {
      this.#held.push(n);
      return Promise.resolve();
    }
    return this.#deliver(n);
  }

  #deliver(n: SessionNotification): Promise<void> {
    const owner = this.#owners.get(n.sessionId);
    if (!owner) {
      this.#dropped++;
      return Promise.resolve();
    }
    const prev = this.#queues.get(n.sessionId) ?? Promise.resolve();
    const next = prev.then(async () => {
      // The owner may have gone away while this update waited its turn.
      if (this.#owners.get(n.sessionId) !== owner) return;
      try {
        await owner.applyUpdate(n.update);
      } catch (err) {
        this.onError(n.sessionId, err);
      }
    });
    this.#queues.set(n.sessionId, next);
    void next.then(() => {
      if (this.#queues.get(n.sessionId) === next) this.#queues.delete(n.sessionId);
    });
    return next;
  }

  /** Resolves once every update already dispatched for `sessionId` has been applied. */
  drain(sessionId: string): Promise<void> {
    return this.#queues.get(sessionId) ?? Promise.resolve();
  }
}
