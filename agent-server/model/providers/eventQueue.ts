// One attempt's events in arrival order, from two producers (the lean delta filter and the AI SDK's
// stream) to one consumer; an end or a failure is seen only after everything queued before it.
// Deltas stay one event each: the agent's coalescer (runtime/deltaCoalescer.ts) is where they merge.
import type { ModelEvent } from "../types";

export class EventQueue {
  private items: ModelEvent[] = [];
  private head = 0;
  private done = false;
  private failure: { error: unknown } | null = null;
  private wake: (() => void) | null = null;

  push(ev: ModelEvent): void {
    if (this.done) return;
    this.items.push(ev);
    this.notify();
  }

  /** No more events; whatever is queued is still delivered. */
  end(): void {
    this.done = true;
    this.notify();
  }

  /** Delivered as a rejection once the events queued before it are taken. */
  fail(error: unknown): void {
    if (this.done) return;
    this.failure = { error };
    this.done = true;
    this.notify();
  }

  /** The next event; null at the end. */
  async next(): Promise<ModelEvent | null> {
    while (this.head === this.items.length && !this.done) {
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
    const ev = this.items[this.head];
    if (ev) {
      this.head++;
      if (this.head === this.items.length) {
        this.items = [];
        this.head = 0;
      }
      return ev;
    }
    if (this.failure) throw this.failure.error;
    return null;
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
