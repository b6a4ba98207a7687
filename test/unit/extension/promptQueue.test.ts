import assert from "node:assert/strict";
import { test } from "node:test";
import {
  edit,
  emptyQueue,
  enqueue,
  move,
  parseQueue,
  pushFront,
  remove,
  take,
  type PromptQueue,
} from "../../../extension/common/promptQueue";

const texts = (q: PromptQueue) => q.items.map((m) => m.text);

test("queued messages keep their order and get distinct ids", () => {
  const q = enqueue(enqueue(enqueue(emptyQueue, "a"), "b"), "c");
  assert.deepEqual(texts(q), ["a", "b", "c"]);
  assert.equal(new Set(q.items.map((m) => m.id)).size, 3);
});

test("edit, remove and take act on the named item only", () => {
  let q = enqueue(enqueue(enqueue(emptyQueue, "a"), "b"), "c");
  const [, b, c] = q.items;
  q = edit(q, b!.id, "B");
  assert.deepEqual(texts(q), ["a", "B", "c"]);
  q = remove(q, c!.id);
  assert.deepEqual(texts(q), ["a", "B"]);
  const [first, rest] = take(q);
  assert.equal(first?.text, "a");
  assert.deepEqual(texts(rest), ["B"]);
  const [named, rest2] = take(q, b!.id);
  assert.equal(named?.text, "B");
  assert.deepEqual(texts(rest2), ["a"]);
  assert.deepEqual(take(emptyQueue), [undefined, emptyQueue]);
});

test("move swaps with the neighbour and stays put at either end", () => {
  const q = enqueue(enqueue(enqueue(emptyQueue, "a"), "b"), "c");
  const [a, , c] = q.items;
  assert.deepEqual(texts(move(q, c!.id, -1)), ["a", "c", "b"]);
  assert.deepEqual(texts(move(q, a!.id, 1)), ["b", "a", "c"]);
  assert.equal(move(q, a!.id, -1), q);
  assert.equal(move(q, c!.id, 1), q);
  assert.equal(move(q, "nope", 1), q);
});

test("pushFront puts a message first with a fresh id", () => {
  const q = pushFront(enqueue(emptyQueue, "a"), "steer");
  assert.deepEqual(texts(q), ["steer", "a"]);
  assert.notEqual(q.items[0]!.id, q.items[1]!.id);
});

test("a persisted queue is validated: malformed reads as empty, ids are never reused", () => {
  assert.deepEqual(parseQueue(undefined), emptyQueue);
  assert.deepEqual(parseQueue({ items: [{ id: 3 }], nextId: 1 }), emptyQueue);
  const q = parseQueue({ items: [{ id: "q7", text: "x" }], nextId: 2 });
  assert.deepEqual(texts(q), ["x"]);
  const next = enqueue(q, "y");
  assert.notEqual(next.items[1]!.id, "q7");
});
