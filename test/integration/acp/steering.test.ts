// Steering over the in-memory connection: the races the spawned tests cannot pin down.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createHarness, type Harness } from "../../support/inProcess";
import { finish, gate, text } from "../../support/scriptedModel";

const steer = (agent: acp.ClientContext, sessionId: string, t: string): Promise<unknown> =>
  agent.request("_session/steering", { sessionId, prompt: [{ type: "text", text: t }] });

describe("steering (in-process)", () => {
  let h: Harness;
  beforeEach(() => {
    h = createHarness();
  });
  afterEach(() => h.cleanup());

  it("I-104: a steer sent after a cancel and a new prompt lands in the new prompt's turn, never in the cancelled one", async () => {
    const c = await h.connect();
    const a = await c.newSession(h.ws[0]!);
    const g = gate();
    h.model.enqueue([text("one "), { type: "hang" }], [{ type: "wait", gate: g }, text("two"), finish()], [text("three"), finish()]);
    const p1 = c.prompt(a, "first");
    await h.model.waitForRequests(1);
    await c.cancel(a);
    const p2 = c.prompt(a, "second");
    const answer = (await steer(c.agent, a, "mind X")) as { outcome: string; _meta: { "manifold/steer": { messageId: string } } };
    assert.equal(answer.outcome, "injected");
    g.open();
    assert.deepEqual(await p1, { stopReason: "cancelled" });
    assert.deepEqual(await p2, { stopReason: "end_turn" });
    const entries = h.live.get(a)!.session.entries;
    const turns = entries.filter((e) => e.type === "turn/start").map((e) => e.seq);
    const steerEntry = entries.find((e) => e.type === "user/steer");
    assert.ok(steerEntry && steerEntry.type === "user/steer" && steerEntry.applied, "taken in by a model step");
    assert.equal(steerEntry.messageId, answer._meta["manifold/steer"].messageId);
    assert.ok(steerEntry.seq > turns[1]!, "in the second turn");
    assert.ok(
      h.model.requests.slice(1).some((r) => JSON.stringify(r.messages).includes("mind X")),
      "a request of the new turn carries it",
    );
  });
});
