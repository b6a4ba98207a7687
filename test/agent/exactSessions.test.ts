// Agent tier: `session/new` under a client-minted exact id (resume-or-create) on the built agent-server.
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import * as acp from "@agentclientprotocol/sdk";
import { startFakeModelServer, type FakeModelServer } from "../support/fakeModelServer";
import { modelEnv, spawnAgent, tempDir, type AgentProcess } from "../support/agentProcess";
import { logFileName } from "../../agent-server/session/fileName";

const EXACT = "manifold.dev/sessionId";
const RESUME = "manifold.dev/resumeSessionId";
const ORIGIN = "manifold.dev/sessionOrigin";

function newExact(agent: AgentProcess, cwd: string, meta: Record<string, unknown>): Promise<acp.NewSessionResponse> {
  return agent.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [], _meta: meta });
}

async function rejection(p: Promise<unknown>): Promise<{ code: unknown; message: string }> {
  try {
    await p;
  } catch (err) {
    const e = err as { code?: unknown; message?: unknown; data?: unknown };
    return { code: e.code, message: `${String(e.message)} ${JSON.stringify(e.data ?? "")}` };
  }
  assert.fail("the request succeeded");
}

describe("exact session ids (spawned agent-server)", () => {
  let server: FakeModelServer;
  const cleanups: Array<() => void> = [];
  before(async () => {
    server = await startFakeModelServer();
  });
  after(async () => {
    for (const c of cleanups.reverse()) c();
    await server.close();
  });

  function spawn(dataDir?: string): AgentProcess {
    const agent = spawnAgent({ env: modelEnv(server.url), ...(dataDir ? { dataDir } : {}) });
    cleanups.push(() => agent.cleanup());
    return agent;
  }
  function folder(): string {
    const ws = tempDir();
    cleanups.push(ws.cleanup);
    return ws.path;
  }

  it("advertises exact session ids in initialize", async () => {
    const agent = spawn();
    const init = await agent.initialize();
    assert.equal(init.agentCapabilities?._meta?.["manifold.dev/exactSessionIds"], true);
    await agent.close();
  });

  it("I-12: resume-or-create restores a present history, creates an absent one, and refuses a truncated header", async () => {
    const data = tempDir("manifold-exact-data-");
    cleanups.push(data.cleanup);
    const ws = folder();
    // absent → created under the exact id
    const first = spawn(data.path);
    await first.initialize();
    const created = await newExact(first, ws, { [EXACT]: "present-1" });
    assert.equal(created.sessionId, "present-1");
    assert.equal(created._meta?.[ORIGIN], "created");
    server.route("[P1]", { text: "first answer" });
    await first.prompt("present-1", "[P1] hello");
    await first.close();
    // present → restored, its history replayed before the answer
    const second = spawn(data.path);
    await second.initialize();
    const restored = await newExact(second, ws, { [EXACT]: "present-1" });
    assert.equal(restored.sessionId, "present-1");
    assert.equal(restored._meta?.[ORIGIN], "restored");
    assert.match(second.textOf("present-1"), /first answer/);
    // truncated header → an internal error naming the problem; the file is left as it was
    const torn = join(data.path, logFileName("torn-1"));
    writeFileSync(torn, '{"type":"header","vers');
    const err = await rejection(newExact(second, ws, { [EXACT]: "torn-1" }));
    assert.equal(err.code, -32603);
    assert.match(err.message, /torn-1/);
    assert.equal(readFileSync(torn, "utf8"), '{"type":"header","vers');
    const listed = await second.agent.request(acp.methods.agent.session.list, { cwd: ws });
    assert.deepEqual(
      listed.sessions.map((s) => s.sessionId),
      ["present-1"],
    );
    await second.close();
  });

  it("I-9: an exact id and a resume id together are invalid params, and nothing is written", async () => {
    const agent = spawn();
    await agent.initialize();
    const ws = folder();
    const err = await rejection(newExact(agent, ws, { [EXACT]: "both-a", [RESUME]: "both-b" }));
    assert.equal(err.code, -32602);
    assert.equal(existsSync(join(agent.dataDir, logFileName("both-a"))), false);
    assert.equal(existsSync(join(agent.dataDir, logFileName("both-b"))), false);
    const bad = await rejection(newExact(agent, ws, { [EXACT]: "../escape" }));
    assert.equal(bad.code, -32602);
    const missing = await rejection(newExact(agent, ws, { [RESUME]: "never-made" }));
    assert.equal(missing.code, -32002);
    assert.equal(existsSync(join(agent.dataDir, logFileName("never-made"))), false);
    await agent.close();
  });

  it("I-120: the same exact id asked twice is one session with one history", async () => {
    const agent = spawn();
    await agent.initialize();
    const ws = folder();
    const a = await newExact(agent, ws, { [EXACT]: "twice-1" });
    server.route("[T1]", { text: "one turn" });
    await agent.prompt("twice-1", "[T1] go");
    const b = await newExact(agent, ws, { [EXACT]: "twice-1" });
    assert.equal(a.sessionId, b.sessionId);
    assert.equal(b._meta?.[ORIGIN], "live");
    const listed = await agent.agent.request(acp.methods.agent.session.list, { cwd: ws });
    assert.deepEqual(
      listed.sessions.map((s) => s.sessionId),
      ["twice-1"],
    );
    await agent.close();
  });
});
