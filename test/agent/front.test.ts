// Agent tier: the built agent-server's two files. dist/agent-server.js (the front) answers
// `initialize` on its own; dist/agent-server-core.js (sessions, tools, store, models, sandbox) is
// imported only after that answer has left.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { copyFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startFakeModelServer, type FakeModelServer } from "../support/fakeModelServer";
import { AGENT_BUNDLE, modelEnv, spawnAgent, tempDir, type AgentProcess } from "../support/agentProcess";

const CORE = join(AGENT_BUNDLE, "..", "agent-server-core.js");

describe("the agent-server's front and core (spawned)", () => {
  let server: FakeModelServer;
  const ws = tempDir();
  const lone = tempDir("manifold-front-only-");
  const running: AgentProcess[] = [];
  const start = (bundle?: string): AgentProcess => {
    const a = spawnAgent({ env: modelEnv(server.url), ...(bundle ? { bundle } : {}) });
    running.push(a);
    return a;
  };

  before(async () => {
    server = await startFakeModelServer();
    copyFileSync(AGENT_BUNDLE, join(lone.path, "agent-server.js")); // the front alone, no core beside it
  });
  after(async () => {
    for (const a of running) {
      await a.close();
      a.cleanup();
    }
    await server.close();
    ws.cleanup();
    lone.cleanup();
  });

  it("I-124: initialize is answered by the front alone, the same answer as with its core", async () => {
    assert.ok(existsSync(CORE), "the build writes the core beside the front");
    const whole = start();
    const front = start(join(lone.path, "agent-server.js"));
    const [withCore, alone] = await Promise.all([whole.initialize(), front.initialize()]);
    assert.deepEqual(alone, withCore);
    assert.equal(alone.agentInfo?.name, "manifold-agent");
    // With its core, the same process then serves sessions.
    const created = await whole.newSession(ws.path);
    assert.match(created.sessionId, /^[0-9a-f-]{36}$/);
  });

  it("I-124: a front whose core cannot load says so on every later request and keeps serving", async () => {
    const front = start(join(lone.path, "agent-server.js"));
    await front.initialize();
    for (const attempt of [1, 2]) {
      await assert.rejects(front.newSession(ws.path), (err: unknown) => {
        assert.ok(err instanceof acp.RequestError, `attempt ${attempt}: ${String(err)}`);
        assert.equal(err.code, -32603);
        assert.match(err.message, /could not load its core: .*agent-server-core\.js/);
        return true;
      });
    }
    assert.match(front.stderr(), /could not load the server/);
    assert.equal(front.child.exitCode, null, "the process still runs");
  });
});
