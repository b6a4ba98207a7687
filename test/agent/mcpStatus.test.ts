// Agent tier: Manifold's MCP extension messages. The agent advertises them in
// agentCapabilities._meta.manifold, reports each session's server states with `_manifold/mcp_status`
// (starting → ready with N tools / failed with the reason), and `_manifold/mcp_restart` restarts one
// server of one session (a new process), leaving the others running.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startFakeModelServer, type FakeModelServer } from "../support/fakeModelServer";
import { modelEnv, spawnAgent, tempDir, type AgentProcess } from "../support/agentProcess";
import { readLog, type FakeMcpConfig } from "../support/mcpFake";
import { mcpStdioEntry } from "../support/mcpServers";

interface StatusFrame {
  method: string;
  params: { sessionId: string; servers: Array<{ name: string; state: string; tools?: number; error?: string }> };
}

const isStatus = (f: unknown): f is StatusFrame =>
  typeof f === "object" && f !== null && (f as { method?: unknown }).method === "_manifold/mcp_status";

/** Resolves with the first status report of `sessionId` (after `from` frames) that satisfies `ok`. */
function statusOf(
  agent: AgentProcess,
  sessionId: string,
  ok: (s: StatusFrame["params"]["servers"]) => boolean,
  from = 0,
): Promise<StatusFrame["params"]["servers"]> {
  return new Promise((resolve) => {
    const check = (): boolean => {
      const hit = agent.frames
        .slice(from)
        .find((f): f is StatusFrame => isStatus(f) && f.params.sessionId === sessionId && ok(f.params.servers));
      if (hit) resolve(hit.params.servers);
      return hit !== undefined;
    };
    if (check()) return;
    const onData = () => setImmediate(() => check() && agent.child.stdout!.off("data", onData));
    agent.child.stdout!.on("data", onData);
  });
}

describe("MCP status and restart extension messages (spawned)", () => {
  let server: FakeModelServer;
  let agent: AgentProcess;
  const logs = mkdtempSync(join(tmpdir(), "manifold-mcp-status-"));
  const ws = tempDir();
  const cfg = (name: string, extra: Partial<FakeMcpConfig> = {}): FakeMcpConfig => ({
    name,
    tools: [
      { name: "echo", behaviour: "echo" },
      { name: "two", behaviour: "echo" },
    ],
    log: join(logs, `${name}.jsonl`),
    ...extra,
  });

  before(async () => {
    server = await startFakeModelServer();
    agent = spawnAgent({ env: { ...modelEnv(server.url), MANIFOLD_MCP_START_TIMEOUT_MS: "4000" } });
    const init = await agent.initialize();
    assert.deepEqual(init.agentCapabilities?._meta?.manifold, { mcpStatus: true, mcpRestart: true, mcpConfine: true });
  });
  after(async () => {
    await agent.close();
    agent.cleanup();
    await server.close();
    ws.cleanup();
    rmSync(logs, { recursive: true, force: true });
  });

  it("reports starting, then ready with the tool count or failed with the reason", async () => {
    const s = await agent.agent.request(acp.methods.agent.session.new, {
      cwd: ws.path,
      mcpServers: [mcpStdioEntry(cfg("good")), mcpStdioEntry(cfg("bad", { startup: "exit" }))],
    });
    const settled = await statusOf(agent, s.sessionId, (list) => list.every((x) => x.state !== "starting"));
    assert.deepEqual(
      settled.find((x) => x.name === "good"),
      { name: "good", state: "ready", tools: 2 },
    );
    const bad = settled.find((x) => x.name === "bad");
    assert.equal(bad?.state, "failed");
    assert.match(bad?.error ?? "", /refusing to start|exit/);
    const first = agent.frames.find((f): f is StatusFrame => isStatus(f) && f.params.sessionId === s.sessionId);
    assert.deepEqual(
      first?.params.servers.map((x) => x.state),
      ["starting", "starting"],
    );
  });

  it("_manifold/mcp_restart starts a new process for that server only; an unknown name is refused", async () => {
    const s = await agent.agent.request(acp.methods.agent.session.new, {
      cwd: ws.path,
      mcpServers: [mcpStdioEntry(cfg("one")), mcpStdioEntry(cfg("other"))],
    });
    await statusOf(agent, s.sessionId, (list) => list.length === 2 && list.every((x) => x.state === "ready"));
    const starts = (name: string) =>
      readLog(join(logs, `${name}.jsonl`))
        .filter((e) => e.event === "start")
        .map((e) => e.pid);
    const before1 = starts("one");
    const mark = agent.frames.length;
    await agent.agent.request("_manifold/mcp_restart", { sessionId: s.sessionId, name: "one" });
    await statusOf(agent, s.sessionId, (list) => list.find((x) => x.name === "one")?.state === "ready", mark);
    assert.equal(starts("one").length, before1.length + 1, "a new process for the restarted server");
    assert.equal(starts("other").length, 1, "the other server kept running");
    await assert.rejects(agent.agent.request("_manifold/mcp_restart", { sessionId: s.sessionId, name: "nope" }), /no MCP server named/);
  });
});
