// Agent tier, I-108: the answer to a frame carries exactly the id the client sent —
// however long — or id null when there is no id to trust; an unparseable line is never left
// unanswered; concurrent session creations leave no listener behind on a long-lived signal.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startFakeModelServer, type FakeModelServer } from "../support/fakeModelServer";
import { modelEnv, spawnAgent, tempDir, type AgentProcess } from "../support/agentProcess";
import { isAlive, replyTo, waitForFrame, writeRaw, type Frame } from "../support/rawFrames";

function errorCode(f: Frame): number | undefined {
  const e = f.error as { code?: unknown } | undefined;
  return typeof e?.code === "number" ? e.code : undefined;
}

function idNullCount(agent: AgentProcess): number {
  return agent.frames.filter((f) => (f as Frame).id === null).length;
}

describe("I-108: protocol hygiene of stdin (spawned agent)", () => {
  let server: FakeModelServer;
  let agent: AgentProcess;
  const ws = tempDir();

  before(async () => {
    server = await startFakeModelServer();
    agent = spawnAgent({ env: modelEnv(server.url) });
    await agent.initialize();
  });
  after(async () => {
    agent.cleanup();
    await server.close();
    ws.cleanup();
  });

  it("I-108: a request with a 4 KB string id gets that exact id back", async () => {
    const id = `long-${"é".repeat(1024)}-${"x".repeat(2048)}-"quoted"`;
    assert.ok(Buffer.byteLength(JSON.stringify(id)) > 4096);
    const init = { jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } };
    await writeRaw(agent, JSON.stringify(init) + "\n");
    const r = await replyTo(agent, id);
    assert.ok("result" in r, JSON.stringify(r).slice(0, 300));
    assert.equal(r.id, id);
  });

  it("I-108: a line broken by a non-UTF-8 byte in a key gets a parse error with id null", async () => {
    const before = idNullCount(agent);
    const line = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","i'),
      Buffer.from([0xff]),
      Buffer.from('","d":1,"method":"session/list","params":{}}\n'),
    ]);
    await writeRaw(agent, line);
    const r = await waitForFrame(agent, (f) => f.id === null && idNullCount(agent) > before, "an id-null answer");
    assert.equal(errorCode(r), -32700, JSON.stringify(r));
    // And a non-UTF-8 id is never echoed as a best-effort string with U+FFFD in it.
    const badId = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":"b'),
      Buffer.from([0xff]),
      Buffer.from('d","method":"session/list","params":{}}\n'),
    ]);
    const before2 = idNullCount(agent);
    await writeRaw(agent, badId);
    await waitForFrame(agent, (f) => f.id === null && idNullCount(agent) > before2, "an id-null answer to a non-UTF-8 id");
    assert.ok(!agent.frames.some((f) => typeof (f as Frame).id === "string" && ((f as Frame).id as string).includes("\uFFFD")));
    assert.ok(isAlive(agent));
  });

  it("I-108: 20 concurrent session/new are all answered with no MaxListenersExceededWarning", async () => {
    const ids = Array.from({ length: 20 }, (_, i) => `concurrent-new-${i}`);
    const lines = ids.map((id) => JSON.stringify({ jsonrpc: "2.0", id, method: "session/new", params: { cwd: ws.path, mcpServers: [] } }));
    await writeRaw(agent, lines.join("\n") + "\n");
    const replies = await Promise.all(ids.map((id) => replyTo(agent, id)));
    for (const r of replies) assert.ok("result" in r, JSON.stringify(r).slice(0, 300));
    // A listener leak would have warned while they were pending; one more round trip flushes stderr.
    await agent.newSession(ws.path);
    assert.doesNotMatch(agent.stderr(), /MaxListenersExceededWarning/);
  });
});
