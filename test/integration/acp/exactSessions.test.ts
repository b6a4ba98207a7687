// session/new under a client-minted exact id (I-9, I-13) over the in-memory connection.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createHarness, until, type ClientSide, type Harness } from "../../support/inProcess";
import { gate } from "../../support/scriptedModel";
import { RESUME_SESSION_ID_META, SESSION_ID_META, SESSION_ORIGIN_META } from "../../../base/sessionIds";

const newExact = (c: ClientSide, cwd: string, meta: Record<string, unknown>) =>
  c.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [], _meta: meta });

describe("session/new with an exact id (in-process)", () => {
  let h: Harness;
  beforeEach(() => {
    h = createHarness();
  });
  afterEach(() => h.cleanup());

  it("I-9: an exact id with a resume id is refused before any persistence I/O or registration", async () => {
    const c = await h.connect();
    const events: string[] = [];
    const sub = h.live.bus.on((ev) => events.push(ev.type));
    const filesBefore = readdirSync(h.dataDir);
    const drained: string[] = [];
    const realDrained = h.live.drained.bind(h.live);
    h.live.drained = (id: string) => {
      drained.push(id);
      return realDrained(id);
    };
    await assert.rejects(
      newExact(c, h.ws[0]!, { [SESSION_ID_META]: "both-1", [RESUME_SESSION_ID_META]: "both-1" }),
      (err: unknown) => err instanceof acp.RequestError && err.code === -32602,
    );
    assert.deepEqual(h.store.calls, { create: 0, open: 0, readHeader: 0 });
    assert.deepEqual(readdirSync(h.dataDir), filesBefore);
    assert.deepEqual(drained, []);
    assert.deepEqual(events, []);
    assert.equal(h.live.agents.size, 0);
    assert.equal(c.bridge.records.size, 0);
    assert.equal(c.bridge.loading.size, 0);
    sub.dispose();
  });

  it("I-13: resume-or-create of an id still being disposed waits for the old agent's detach before it builds", async () => {
    const c = await h.connect();
    const id = "drain-1";
    await newExact(c, h.ws[0]!, { [SESSION_ID_META]: id });
    const old = h.live.get(id)!;
    const teardown = gate();
    const realShutdown = old.shutdown.bind(old);
    let tearingDown = false;
    old.shutdown = async () => {
      tearingDown = true;
      await teardown.promise;
      return realShutdown();
    };
    const order: string[] = [];
    const sub = h.live.bus.on((ev) => {
      if (ev.type === "agent/created" || ev.type === "agent/disposed") order.push(`${ev.type}:${ev.agent === old ? "old" : "new"}`);
    });
    const closing = c.agent.request(acp.methods.agent.session.close, { sessionId: id });
    await until(() => tearingDown, "the old agent's teardown started");
    let settled = false;
    const again = newExact(c, h.ws[0]!, { [SESSION_ID_META]: id }).finally(() => (settled = true));
    await until(() => c.bridge.loading.has(id) || settled, "the remount is waiting");
    order.push("gate opened");
    teardown.open();
    const [res] = await Promise.all([again, closing]);
    sub.dispose();
    assert.deepEqual(order, ["gate opened", "agent/disposed:old", "agent/created:new"]);
    assert.equal(res._meta?.[SESSION_ORIGIN_META], "restored");
    const now = h.live.get(id);
    assert.ok(now && now !== old);
    assert.equal(c.bridge.records.get(id)?.agent, now);
  });
});
