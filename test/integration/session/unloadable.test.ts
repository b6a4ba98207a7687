// I-109 (in-process, no frame guard in front): a prompt or a tool result that cannot be saved
// fails with a clear error and never leaves a sequence gap; the session loads and continues.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { writeSync } from "node:fs";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createHarness, type Harness } from "../../support/inProcess";
import { createFakeTools, finish, text, toolCall } from "../../support/scriptedModel";

function deepObject(depth: number): Record<string, unknown> {
  let v: Record<string, unknown> = {};
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

describe("I-109: unsavable input never makes a session unloadable (in-process)", () => {
  let h: Harness;
  beforeEach(() => {
    h = createHarness({
      tools: createFakeTools({
        deep: () => ({
          output: "ok",
          isError: false,
          content: [{ type: "content", content: { type: "text", text: "x", _meta: deepObject(20_000) } }],
        }),
      }),
    });
  });
  afterEach(() => h.cleanup());

  async function reloadSeqs(id: string): Promise<number[]> {
    await h.live.dispose(h.live.get(id)!);
    const log = await h.store.open(id);
    const seqs = log.entries.map((e) => e.seq);
    await log.close();
    return seqs;
  }

  it("I-109: a content block whose _meta is 10,000 deep is refused before anything is queued", async () => {
    const c = await h.connect();
    const id = await c.newSession(h.ws[0]!);
    const before = h.live.get(id)!.session.entries.length;
    const prompt = [{ type: "text" as const, text: "hello", _meta: deepObject(10_000) }];
    await assert.rejects(
      c.agent.request(acp.methods.agent.session.prompt, { sessionId: id, prompt }),
      (e: unknown) => e instanceof acp.RequestError && e.code === -32602 && /nested deeper/.test(e.message),
    );
    assert.equal(h.live.get(id)!.session.entries.length, before);
    h.model.enqueue([text("fine"), finish()]);
    assert.deepEqual(await c.prompt(id, "next"), { stopReason: "end_turn" });
    const seqs = await reloadSeqs(id);
    assert.deepEqual(
      seqs,
      seqs.map((_, i) => i + 1),
    );
  });

  it("I-109: a tool result that cannot be serialised ends the turn with an error; no gap; the session continues after a reload", async () => {
    const c = await h.connect();
    const id = await c.newSession(h.ws[0]!);
    h.model.enqueue([toolCall("deep", {}), finish("tool-calls")]);
    await assert.rejects(
      c.prompt(id, "call deep"),
      (e: unknown) => e instanceof acp.RequestError && e.code === -32603 && /cannot be saved/.test(e.message),
    );
    const seqs = await reloadSeqs(id);
    assert.deepEqual(
      seqs,
      seqs.map((_, i) => i + 1),
    );
    const c2 = await h.connect();
    await c2.agent.request(acp.methods.agent.session.load, { sessionId: id, cwd: h.ws[0]!, mcpServers: [] });
    h.model.enqueue([text("again"), finish()]);
    assert.deepEqual(await c2.prompt(id, "go on"), { stopReason: "end_turn" });
  });
});

describe("I-109: the disk fills exactly at the turn checkpoint (in-process, simulated ENOSPC)", () => {
  let h: Harness;
  let fullAtTurnEnd = false;
  beforeEach(() => {
    fullAtTurnEnd = false;
    h = createHarness({
      writeFn: (fd, buf, off, len) => {
        if (fullAtTurnEnd && buf.subarray(off, off + len).includes('"turn/end"'))
          throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
        return writeSync(fd, buf, off, len);
      },
    });
  });
  afterEach(() => h.cleanup());

  it("I-109: the turn's end cannot be written: the prompt fails 'not saved' (never end_turn); with room again the held lines land, no gap", async () => {
    const c = await h.connect();
    const id = await c.newSession(h.ws[0]!);
    fullAtTurnEnd = true;
    h.model.enqueue([text("the answer"), finish()]);
    await assert.rejects(
      c.prompt(id, "one"),
      (e: unknown) => e instanceof acp.RequestError && e.code === -32603 && /not saved/.test(e.message),
    );
    assert.match(c.textOf(id), /not saved/);
    fullAtTurnEnd = false;
    h.model.enqueue([text("second"), finish()]);
    assert.deepEqual(await c.prompt(id, "two"), { stopReason: "end_turn" });
    await h.live.dispose(h.live.get(id)!);
    const log = await h.store.open(id);
    assert.deepEqual(
      log.entries.map((e) => e.seq),
      log.entries.map((_, i) => i + 1),
    );
    assert.deepEqual(
      log.entries.flatMap((e) => (e.type === "turn/end" ? [e.reason] : [])),
      ["end_turn", "end_turn"],
    );
    await log.close();
  });
});
