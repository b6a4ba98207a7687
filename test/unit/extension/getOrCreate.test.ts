// The session manager's folder sessions are created through getOrCreate: a listener of a new
// session's first event that asks for the same folder (the sessions view's badge does) must get that
// session. Announcing before storing once built a new session per nested ask until the stack overflowed.
import assert from "node:assert/strict";
import { test } from "node:test";
import { getOrCreate } from "../../../extension/sessions/getOrCreate";

test("a listener of a new entry's announcement that asks for the same key gets that entry; one is created", () => {
  const map = new Map<string, { n: number }>();
  const listeners: Array<() => void> = [];
  let created = 0;
  const seen: Array<{ n: number }> = [];
  const session = (key: string): { n: number } =>
    getOrCreate(
      map,
      key,
      () => ({ n: ++created }),
      () => {
        for (const l of listeners) l();
      },
    );
  // The sessions view: on every change, count over every folder's session (synchronously, as a VS Code
  // emitter without a delivery queue would call it).
  listeners.push(() => seen.push(session("/ws/alpha")));
  const s = session("/ws/alpha");
  assert.equal(created, 1);
  assert.deepEqual(seen, [s]);
  assert.equal(session("/ws/alpha"), s);
});
