import assert from "node:assert/strict";
import { test } from "node:test";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { SessionRouter } from "../../../extension/agent/router";

function chunk(text: string): SessionUpdate {
  return { sessionUpdate: "agent_message_chunk", content: { type: "text", text } };
}
function textOf(u: SessionUpdate): string {
  return u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? u.content.text : "?";
}

test("I-91: an update for an unknown session id reaches no owner and is dropped", async () => {
  const router = new SessionRouter<null>();
  const seen: Record<string, string[]> = { a: [], b: [] };
  router.register("a", { services: null, applyUpdate: (u) => void seen.a!.push(textOf(u)) });
  router.register("b", { services: null, applyUpdate: (u) => void seen.b!.push(textOf(u)) });
  await router.dispatch({ sessionId: "zzz", update: chunk("intruder") });
  await router.dispatch({ sessionId: "a", update: chunk("for a") });
  assert.deepEqual(seen, { a: ["for a"], b: [] });
  assert.equal(router.droppedCount, 1);
});

test("I-91: updates of one session are applied in arrival order even when the owner awaits", async () => {
  const router = new SessionRouter<null>();
  const applied: string[] = [];
  // The first update's handler is slow; the later ones must still come after it.
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  router.register("a", {
    services: null,
    applyUpdate: async (u) => {
      if (textOf(u) === "1") await gate;
      applied.push(`a${textOf(u)}`);
    },
  });
  router.register("b", { services: null, applyUpdate: (u) => void applied.push(`b${textOf(u)}`) });
  const done = [router.dispatch({ sessionId: "a", update: chunk("1") }), router.dispatch({ sessionId: "a", update: chunk("2") })];
  // Session b is not held up by a's slow update.
  await router.dispatch({ sessionId: "b", update: chunk("1") });
  assert.deepEqual(applied, ["b1"]);
  release();
  await Promise.all(done);
  await router.dispatch({ sessionId: "a", update: chunk("3") });
  assert.deepEqual(applied, ["b1", "a1", "a2", "a3"]);
});

test("I-91: updates that arrive while session/new is in flight reach the new owner, others are dropped", async () => {
  const router = new SessionRouter<null>();
  const seen: string[] = [];
  const done = router.beginCreate();
  await router.dispatch({ sessionId: "new", update: chunk("early") });
  await router.dispatch({ sessionId: "stranger", update: chunk("x") });
  router.register("new", { services: null, applyUpdate: (u) => void seen.push(textOf(u)) });
  done();
  await router.drain("new");
  assert.deepEqual(seen, ["early"]);
  assert.equal(router.droppedCount, 1);
});

test("an owner that went away stops receiving queued updates", async () => {
  const router = new SessionRouter<null>();
  const seen: string[] = [];
  const reg = router.register("a", { services: null, applyUpdate: (u) => void seen.push(textOf(u)) });
  const p = router.dispatch({ sessionId: "a", update: chunk("1") });
  reg.dispose();
  await p;
  await router.dispatch({ sessionId: "a", update: chunk("2") });
  assert.deepEqual(seen, []);
});
