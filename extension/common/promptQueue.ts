// The queue of messages typed while a turn runs: pure, so the host, its persistence and
// the webview all use the one copy. The host owns it per folder session and says every change as a
// `queue/changed` transcript event; the webview only asks for operations by item id.
import { z } from "zod";

export interface QueuedMessage {
  /** Minted by the host; unique within its folder's queue. */
  readonly id: string;
  readonly text: string;
}

export interface PromptQueue {
  readonly items: readonly QueuedMessage[];
  /** Next id to mint (kept with the items, so a restored queue never reuses an id). */
  readonly nextId: number;
}

export const MAX_QUEUED = 50;
export const MAX_QUEUED_TEXT = 1_000_000;

export const emptyQueue: PromptQueue = { items: [], nextId: 1 };

export function enqueue(q: PromptQueue, text: string): PromptQueue {
  if (q.items.length >= MAX_QUEUED) throw new Error(`at most ${MAX_QUEUED} messages can wait in the queue`);
  return { items: [...q.items, { id: `q${q.nextId}`, text }], nextId: q.nextId + 1 };
}

/** Puts a message first (a steer that must become the next prompt, or one that failed to steer). */
export function pushFront(q: PromptQueue, text: string): PromptQueue {
  return { items: [{ id: `q${q.nextId}`, text }, ...q.items], nextId: q.nextId + 1 };
}

export function edit(q: PromptQueue, id: string, text: string): PromptQueue {
  return { ...q, items: q.items.map((m) => (m.id === id ? { ...m, text } : m)) };
}

export function remove(q: PromptQueue, id: string): PromptQueue {
  return { ...q, items: q.items.filter((m) => m.id !== id) };
}

/** Moves an item one place up (-1) or down (+1); at either end it stays. */
export function move(q: PromptQueue, id: string, by: -1 | 1): PromptQueue {
  const i = q.items.findIndex((m) => m.id === id);
  const j = i + by;
  if (i < 0 || j < 0 || j >= q.items.length) return q;
  const items = q.items.slice();
  [items[i], items[j]] = [items[j] as QueuedMessage, items[i] as QueuedMessage];
  return { ...q, items };
}

/** Takes item `id`, or the first when no id is given: the message and the queue without it. */
export function take(q: PromptQueue, id?: string): [QueuedMessage | undefined, PromptQueue] {
  const m = id === undefined ? q.items[0] : q.items.find((x) => x.id === id);
  return m ? [m, remove(q, m.id)] : [undefined, q];
}

const persisted = z.object({
  items: z.array(z.object({ id: z.string().min(1).max(50), text: z.string().max(MAX_QUEUED_TEXT) })).max(MAX_QUEUED),
  nextId: z.number().int().min(1),
});

/** A queue read back from storage (`unknown` until checked); anything malformed reads as empty. */
export function parseQueue(raw: unknown): PromptQueue {
  const r = persisted.safeParse(raw);
  if (!r.success) return emptyQueue;
  // Ids stay unique even if the stored counter lags behind the items.
  const max = Math.max(0, ...r.data.items.map((m) => Number(/^q(\d+)$/.exec(m.id)?.[1] ?? 0)));
  return { items: r.data.items, nextId: Math.max(r.data.nextId, max + 1) };
}
