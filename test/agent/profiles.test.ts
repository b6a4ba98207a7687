// Agent tier: agent profiles from `--config` / MANIFOLD_CONFIG. Ids minted `<label>-session-<uuid>`,
// a duplicate id ends the process before `initialize`, the profile is offered as a config option and
// its tool allow-list holds even when the model calls a tool it was not offered.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startFakeModelServer, type FakeModelServer } from "../support/fakeModelServer";
import { modelEnv, spawnAgent, tempDir, type AgentProcess } from "../support/agentProcess";

const PROFILES = {
  agentProfiles: [
    {
      id: "reviewer",
      name: "Reviewer",
      description: "Reads and searches, writes nothing",
      mode: "read-only",
      instructions: "Review only; never change files.",
      tools: ["read_file", "grep", "glob", "list_files"],
    },
    { id: "builder", name: "Builder", mode: "agent" },
  ],
};

const DUPLICATE = {
  agentProfiles: [
    { id: "reviewer", name: "Reviewer" },
    { id: "builder", name: "Builder" },
    { id: "reviewer", name: "Second reviewer" },
  ],
};

function configFile(dir: string, content: unknown): string {
  const file = join(dir, "manifold-config.json");
  writeFileSync(file, JSON.stringify(content));
  return file;
}

const newWithProfile = (agent: AgentProcess, cwd: string, profile: string): Promise<acp.NewSessionResponse> =>
  agent.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [], _meta: { "manifold.dev/profile": profile } });

describe("agent profiles (spawned)", () => {
  let server: FakeModelServer;
  let agent: AgentProcess;
  const ws = tempDir();
  const conf = tempDir("manifold-conf-");
  before(async () => {
    server = await startFakeModelServer();
    agent = spawnAgent({ env: modelEnv(server.url), args: ["--config", configFile(conf.path, PROFILES)] });
    await agent.initialize();
  });
  after(async () => {
    await agent.close();
    agent.cleanup();
    await server.close();
    ws.cleanup();
    conf.cleanup();
  });

  it("I-7: the same profile twice mints two distinct <label>-session-<uuid> ids; session/list shows the label", async () => {
    const a = await newWithProfile(agent, ws.path, "reviewer");
    const b = await newWithProfile(agent, ws.path, "reviewer");
    const shape = /^reviewer-session-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    assert.match(a.sessionId, shape);
    assert.match(b.sessionId, shape);
    assert.match(a.sessionId, /^reviewer-session-[0-9a-f-]{36}$/);
    assert.notEqual(a.sessionId, b.sessionId);
    const plain = await agent.newSession(ws.path);
    assert.match(plain.sessionId, /^[0-9a-f-]{36}$/, "no profile: a bare UUID as before");
    const listed = await agent.agent.request(acp.methods.agent.session.list, { cwd: ws.path });
    const metaOf = (id: string) => listed.sessions.find((s) => s.sessionId === id)?._meta;
    assert.deepEqual(metaOf(a.sessionId), { "manifold.dev/profile": "reviewer" });
    assert.equal(metaOf(plain.sessionId), undefined);
  });

  it("offers the profiles as a select config option, applies the profile's mode, and refuses a switch to another", async () => {
    const s = await newWithProfile(agent, ws.path, "reviewer");
    const option = s.configOptions?.find((o) => o.id === "profile");
    assert.ok(option && option.type === "select", "a profile select option");
    assert.equal(option.currentValue, "reviewer");
    const values = (option.options as Array<{ value: string }>).map((o) => o.value);
    assert.deepEqual(values, ["default", "reviewer", "builder"]);
    assert.equal(s.configOptions?.find((o) => o.id === "mode")?.currentValue, "read-only");
    const plain = await agent.newSession(ws.path);
    assert.equal(plain.configOptions?.find((o) => o.id === "profile")?.currentValue, "default");
    await assert.rejects(
      agent.agent.request(acp.methods.agent.session.setConfigOption, { sessionId: s.sessionId, configId: "profile", value: "builder" }),
      (err: unknown) => (err as { code?: number }).code === -32602,
    );
    await assert.rejects(newWithProfile(agent, ws.path, "nobody"), (err: unknown) => (err as { code?: number }).code === -32602);
  });

  it("the reviewer profile is never offered a write tool, and a write the model asks for anyway is refused", async () => {
    const s = await newWithProfile(agent, ws.path, "reviewer");
    // full access: nothing but the allow-list stands between the call and the disk
    await agent.agent.request(acp.methods.agent.session.setConfigOption, {
      sessionId: s.sessionId,
      configId: "mode",
      value: "full-access",
    });
    server.reset();
    server.enqueue({ toolCalls: [{ name: "write_file", args: { path: "pwned.txt", content: "x" } }] }, { text: "done" });
    assert.deepEqual(await agent.prompt(s.sessionId, "write it"), { stopReason: "end_turn" });
    const [first] = await server.waitForRequests(2);
    assert.ok(first!.toolNames.includes("read_file"));
    assert.ok(!first!.toolNames.includes("write_file") && !first!.toolNames.includes("bash"), first!.toolNames.join(","));
    assert.ok(JSON.stringify(first!.body).includes("Review only; never change files."), "the profile's instructions are in the prompt");
    assert.equal(existsSync(join(ws.path, "pwned.txt")), false);
    const failed = agent.updatesOf(s.sessionId).some((u) => u.sessionUpdate === "tool_call_update" && u.status === "failed");
    assert.ok(failed, "the write call is answered as failed");
  });
});

describe("agent profiles config errors (spawned)", () => {
  for (const via of ["--config", "MANIFOLD_CONFIG"] as const) {
    it(`I-10: a duplicate profile id in ${via} exits 2 before initialize, naming both entries`, async () => {
      const conf = tempDir("manifold-conf-");
      const file = configFile(conf.path, DUPLICATE);
      const agent = spawnAgent(via === "--config" ? { args: ["--config", file] } : { env: { MANIFOLD_CONFIG: file } });
      try {
        // Whichever comes first: the exit, or an answer to initialize (a config that was not refused).
        const first = await Promise.race([
          agent.exited.then(() => "exited"),
          agent.initialize().then(
            () => "answered",
            () => "exited",
          ),
        ]);
        assert.equal(first, "exited", "initialize is never answered");
        const { code } = await agent.exited;
        assert.equal(code, 2);
        assert.equal(agent.frames.length, 0, "nothing on stdout");
        const err = agent.stderr();
        assert.match(err, /\[0\] "reviewer"/);
        assert.match(err, /\[2\] "reviewer"/);
        assert.match(err, new RegExp(file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
        assert.equal(readFileSync(file, "utf8").length > 0, true);
      } finally {
        if (agent.child.exitCode === null && agent.child.signalCode === null) await agent.kill();
        agent.cleanup();
        conf.cleanup();
      }
    });
  }
});
