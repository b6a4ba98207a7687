// A folder session sends its own MCP servers in session/new (I-102: never another folder's), shows
// their rows, and applies the agent's `_manifold/mcp_status` reports to that session only.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { test } from "node:test";
import { AcpClient, type AgentFeatures } from "../../../extension/agent/acpClient";
import type { SessionServers } from "../../../extension/mcp/sessionServers";
import { FolderSession } from "../../../extension/sessions/folderSession";
import { createNoSandbox } from "../../../sandbox/none";
import { Event } from "../../../base/event";

test("I-102: each folder's session/new carries only that folder's servers; status reports reach only their session", async () => {
  const received: Array<{ cwd: string; names: string[]; protectedPaths?: unknown }> = [];
  let ctx: acp.AgentContext | undefined;
  let seq = 0;
  const app = acp
    .agent({ name: "fake" })
    .onConnect((c) => {
      ctx = c.client;
    })
    .onRequest(acp.methods.agent.initialize, () => ({
      protocolVersion: acp.PROTOCOL_VERSION,
      agentCapabilities: { mcpCapabilities: { http: true }, _meta: { manifold: { mcpStatus: true } } },
    }))
    .onRequest(acp.methods.agent.session.new, ({ params }) => {
      const meta = params._meta?.["manifold.dev/protectedPaths"];
      received.push({ cwd: params.cwd, names: params.mcpServers.map((s) => s.name), ...(meta ? { protectedPaths: meta } : {}) });
      return { sessionId: `s${++seq}` };
    });
  const client = new AcpClient(app);
  await client.initialize();
  const seen: AgentFeatures[] = [];
  const servers = (folder: string): SessionServers => ({
    servers: [{ name: `only-${folder}`, command: "node", args: [], env: [] }],
    rows: [
      { name: `only-${folder}`, source: "folder", state: "passed" },
      { name: "declined-one", source: "folder", state: "declined" },
    ],
    protectedPaths: folder === "alpha" ? ["/w/alpha/.env"] : [],
  });
  const make = (folder: string) =>
    new FolderSession(`/w/${folder}`, folder, {
      bindings: { get: () => undefined, set: () => undefined },
      editor: { openDocumentText: () => undefined, writeOpenDocument: async () => false },
      terminalSandbox: async () => createNoSandbox({}, "none"),
      mcpServers: (f) => (seen.push(f), Promise.resolve(servers(folder))),
    });
  const a = make("alpha");
  const b = make("beta");
  client.onDidReportMcpStatus(({ sessionId, servers }) => [a, b].forEach((s) => s.mcpStatus(sessionId, servers)));
  await a.attach(client, { restart: false });
  await b.attach(client, { restart: false });
  assert.deepEqual(received, [
    // The files its servers read or run from the folder travel as the session's protected paths (I-112).
    { cwd: "/w/alpha", names: ["only-alpha"], protectedPaths: ["/w/alpha/.env"] },
    { cwd: "/w/beta", names: ["only-beta"] },
  ]);
  assert.deepEqual(seen[0]?.mcp, { http: true, sse: false });
  // The agent reports states: rows show "starting" until then.
  assert.equal(a.state.mcpServers[0]?.state, "starting");
  const changed = Event.toPromise(client.onDidReportMcpStatus);
  await ctx!.notify("_manifold/mcp_status", {
    sessionId: a.sessionId,
    servers: [
      { name: "only-alpha", state: "ready", tools: 4 },
      { name: "only-beta", state: "failed", error: "x" },
    ],
  });
  await changed;
  assert.deepEqual(
    a.state.mcpServers.map((r) => [r.name, r.state, r.tools]),
    [
      ["only-alpha", "ready", 4],
      ["declined-one", "declined", undefined],
    ],
  );
  assert.deepEqual(
    b.state.mcpServers.map((r) => [r.name, r.state]),
    [
      ["only-beta", "starting"],
      ["declined-one", "declined"],
    ],
  );
});
