// Concurrent session creations and the bridge's close signal (I-82): each creation
// races its own signal, which the close fans out to, so no listener per pending request collects on
// the long-lived close signal (Node warns past 10), and a close still aborts every pending creation.
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createHarness, until, type Harness } from "../../support/inProcess";
import { gate } from "../../support/scriptedModel";

describe("session creations and the close signal (in-process)", () => {
  let h: Harness;
  const warnings: Error[] = [];
  const onWarning = (w: Error): void => void warnings.push(w);
  beforeEach(() => {
    h = createHarness({ workspaces: 1 });
    warnings.length = 0;
    process.on("warning", onWarning);
  });
  afterEach(() => {
    process.off("warning", onWarning);
    h.cleanup();
  });

  it("I-82: 20 pending session/new add no listeners to the close signal; the close aborts them all", async () => {
    const c = await h.connect();
    h.store.createGate = gate();
    const creates = h.store.calls.create;
    const pending = Array.from({ length: 20 }, () => c.newSession(h.ws[0]!));
    await until(() => h.store.calls.create === creates + 20, "all 20 gated");
    await new Promise<void>((resolve) => setImmediate(resolve)); // a process warning is emitted on a later tick
    assert.deepEqual(
      warnings.filter((w) => w.name === "MaxListenersExceededWarning").map((w) => w.message),
      [],
    );
    const closing = c.bridge.teardown();
    for (const p of pending) await assert.rejects(p);
    h.store.createGate.open();
    await closing;
    assert.equal(h.live.agents.size, 0);
  });
});
