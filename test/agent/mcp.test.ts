// Agent tier: the MCP servers a client passes belong to their session (I-99), every call goes
// through the policy and the owning session's permission request (I-100), and bad servers stay
// their own session's problem (I-101). Real stdio and streamable-HTTP MCP servers (test/support).
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { copyFileSync, existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startFakeModelServer, type FakeModelServer } from "../support/fakeModelServer";
import { modelEnv, spawnAgent, tempDir, type AgentProcess } from "../support/agentProcess";
import { processRef } from "../../sandbox/procfs";
import { readLog, type FakeMcpConfig } from "../support/mcpFake";
import { mcpStdioEntry, startHttpMcp } from "../support/mcpServers";

const allow = (optionId: string) => (): acp.RequestPermissionResponse => ({ outcome: { outcome: "selected", optionId } });

/** Running (a zombie waiting for init to reap it has exited: it counts as gone). */
const alive = (pid: number): boolean => processRef(pid) !== undefined;

function finished(agent: AgentProcess, sessionId: string): Array<acp.SessionUpdate & { sessionUpdate: "tool_call_update" }> {
  return agent
    .updatesOf(sessionId)
    .flatMap((u) => (u.sessionUpdate === "tool_call_update" && (u.status === "completed" || u.status === "failed") ? [u] : []));
}

const outputOf = (u: { rawOutput?: unknown }): string => String((u.rawOutput as { output?: unknown } | undefined)?.output ?? "");

describe("MCP servers of a session (spawned)", () => {
  let server: FakeModelServer;
  let agent: AgentProcess;
  const logs = mkdtempSync(join(tmpdir(), "manifold-mcp-logs-"));
  const wsA = tempDir();
  const wsB = tempDir();
  const logOf = (name: string): string => join(logs, `${name}.jsonl`);
  const cfg = (name: string, tools: FakeMcpConfig["tools"], extra: Partial<FakeMcpConfig> = {}): FakeMcpConfig => ({
    name,
    tools,
    log: logOf(name),
    ...extra,
  });
  const calls = (name: string): Array<Record<string, unknown>> => readLog(logOf(name)).filter((e) => e.event === "call");
  const newSession = (cwd: string, mcpServers: acp.McpServer[]) => agent.agent.request(acp.methods.agent.session.new, { cwd, mcpServers });

  before(async () => {
    server = await startFakeModelServer();
    agent = spawnAgent({ env: { ...modelEnv(server.url), MANIFOLD_MCP_START_TIMEOUT_MS: "8000", MANIFOLD_MCP_CALL_TIMEOUT_MS: "1500" } });
    const init = await agent.initialize();
    assert.deepEqual(init.agentCapabilities?.mcpCapabilities, { http: true, sse: false });
  });
  after(async () => {
    await agent.close();
    agent.cleanup();
    await server.close();
    for (const d of [wsA, wsB]) d.cleanup();
    rmSync(logs, { recursive: true, force: true });
  });

  it("I-99/I-100: A's tools reach only A's model; a call asks A and reaches the server only once allowed; B cannot call it", async () => {
    const a = await newSession(wsA.path, [
      mcpStdioEntry(cfg("alpha", [{ name: "echo", behaviour: "echo", readOnlyHint: true }]), [{ name: "FROM_CLIENT", value: "yes" }]),
    ]);
    const b = await newSession(wsB.path, []);
    const tool = "mcp__alpha__echo";
    server.route("[a-reject]", { toolCalls: [{ name: tool, args: { text: "first" } }] }, { text: "rejected" });
    server.route("[a-allow]", { toolCalls: [{ name: tool, args: { text: "second" } }] }, { text: "allowed" });
    server.route("[b-steal]", { toolCalls: [{ name: tool, args: { text: "from B" } }] }, { text: "B done" });
    // readOnlyHint grants nothing (I-100): rejected → the server never saw the call.
    agent.onPermission(allow("reject_once"));
    const asked = agent.permissionRequests.length;
    assert.equal((await agent.prompt(a.sessionId, "[a-reject]")).stopReason, "end_turn");
    const modelReqA = server.requests.find((r) => r.lastUserText === "[a-reject]")!;
    assert.ok(modelReqA.toolNames.includes(tool), modelReqA.toolNames.join(","));
    assert.equal(agent.permissionRequests.length, asked + 1);
    const req = agent.permissionRequests[asked]!;
    assert.equal(req.sessionId, a.sessionId);
    assert.deepEqual(calls("alpha"), []);
    // Allowed once: it runs in A, and the card carries the server in its title, the args, the result.
    agent.onPermission(allow("allow_once"));
    assert.equal((await agent.prompt(a.sessionId, "[a-allow]")).stopReason, "end_turn");
    assert.deepEqual(
      calls("alpha").map((c) => c.args),
      [{ text: "second" }],
    );
    const cards = agent.updatesOf(a.sessionId).flatMap((u) => (u.sessionUpdate === "tool_call" ? [u] : []));
    assert.match(cards[cards.length - 1]!.title, /alpha/);
    assert.deepEqual(cards[cards.length - 1]!.rawInput, { text: "second" });
    assert.match(JSON.stringify(finished(agent, a.sessionId).pop()?.content), /alpha\/echo got/);
    // B: its model never sees A's tools, and naming one reaches nothing.
    const askedBefore = agent.permissionRequests.length;
    assert.equal((await agent.prompt(b.sessionId, "[b-steal]")).stopReason, "end_turn");
    const modelReqB = server.requests.filter((r) => r.lastUserText === "[b-steal]");
    for (const r of modelReqB) assert.ok(!r.toolNames.some((n) => n.startsWith("mcp__")), r.toolNames.join(","));
    assert.match(outputOf(finished(agent, b.sessionId).pop()!), /Unknown tool/);
    assert.equal(agent.permissionRequests.length, askedBefore);
    assert.equal(calls("alpha").length, 1);
    // The server's environment: the allowlist plus what the client passed; never the model key; cwd =
    // an empty directory of the data dir, never the folder (I-114).
    const start = readLog(logOf("alpha")).find((e) => e.event === "start")!;
    const envNames = start.env as string[];
    assert.ok(envNames.includes("FROM_CLIENT"));
    assert.ok(!envNames.includes("OPENAI_API_KEY"), envNames.join(","));
    assert.notEqual(start.cwd, realpathSync(wsA.path));
    assert.equal(start.cwd, join(realpathSync(agent.dataDir), "mcp-cwd"));
  });

  it("I-114: a server the client marks folder-defined (_meta manifold.dev/confine) starts inside the session's sandbox", async () => {
    const ws = tempDir();
    const outside = mkdtempSync(join(existsSync("/var/tmp") ? "/var/tmp" : tmpdir(), "manifold-mcp-outside-"));
    try {
      const entry = mcpStdioEntry(
        cfg("confined", [{ name: "echo", behaviour: "echo" }], { log: join(ws.path, "confined.jsonl") }),
      ) as acp.McpServerStdio;
      // The script lives in the folder (the sandbox hides the host's /tmp) and first tries to write outside it.
      copyFileSync(entry.args[0]!, join(ws.path, "fake.cjs"));
      writeFileSync(
        join(ws.path, "server.cjs"),
        `try { require("fs").writeFileSync(${JSON.stringify(join(outside, "marker"))}, "x"); } catch {}\nrequire("./fake.cjs");\n`,
      );
      const s = await newSession(ws.path, [
        { ...entry, args: [join(ws.path, "server.cjs")], _meta: { "manifold.dev/confine": { sandbox: true, network: false } } },
      ]);
      server.route("[confined]", { toolCalls: [{ name: "mcp__confined__echo", args: { text: "hi" } }] }, { text: "ok" });
      agent.onPermission(allow("allow_once"));
      await agent.prompt(s.sessionId, "[confined]");
      const served = readLog(join(ws.path, "confined.jsonl")).some((e) => e.event === "call");
      if (!agent.stderr().includes("backend: none")) assert.ok(served, "the confined server served the call");
      assert.equal(existsSync(join(outside, "marker")), false, "the folder-defined server wrote outside its folder");
    } finally {
      ws.cleanup();
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("I-47/I-100: 'Allow for this session' covers that server's tool in that session only", async () => {
    const a = await newSession(wsA.path, [
      mcpStdioEntry(
        cfg("gamma", [
          { name: "one", behaviour: "echo" },
          { name: "two", behaviour: "echo" },
        ]),
      ),
    ]);
    server.route("[g1]", { toolCalls: [{ name: "mcp__gamma__one", args: { n: 1 } }] }, { text: "ok" });
    server.route("[g2]", { toolCalls: [{ name: "mcp__gamma__one", args: { n: 2 } }] }, { text: "ok" });
    server.route("[g3]", { toolCalls: [{ name: "mcp__gamma__two", args: { n: 3 } }] }, { text: "ok" });
    agent.onPermission(allow("allow_always"));
    const asked = agent.permissionRequests.length;
    await agent.prompt(a.sessionId, "[g1]");
    await agent.prompt(a.sessionId, "[g2]");
    assert.equal(agent.permissionRequests.length, asked + 1, "the second call of the same tool did not ask");
    agent.onPermission(allow("reject_once"));
    await agent.prompt(a.sessionId, "[g3]");
    assert.equal(agent.permissionRequests.length, asked + 2, "another tool of the same server asks again");
    assert.deepEqual(
      calls("gamma").map((c) => c.args),
      [{ n: 1 }, { n: 2 }],
    );
  });

  it("streamable HTTP: headers reach the server, rich results become ACP image and resource_link blocks, list_changed is honoured", async () => {
    const http = await startHttpMcp({ name: "web", tools: [{ name: "rich", behaviour: "rich" }] });
    try {
      const a = await newSession(wsA.path, [http.entry([{ name: "x-test-token", value: "t-123" }])]);
      await agent.agent.request(acp.methods.agent.session.setConfigOption, {
        sessionId: a.sessionId,
        configId: "mode",
        value: "full-access",
      });
      server.route("[rich]", { toolCalls: [{ name: "mcp__web__rich", args: {} }] }, { text: "ok" });
      const asked = agent.permissionRequests.length;
      assert.equal((await agent.prompt(a.sessionId, "[rich]")).stopReason, "end_turn");
      assert.equal(agent.permissionRequests.length, asked, "full-access runs MCP calls without asking");
      assert.deepEqual(
        http.calls.map((c) => c.tool),
        ["rich"],
      );
      assert.ok(http.headers.some((h) => h["x-test-token"] === "t-123"));
      const content = finished(agent, a.sessionId).pop()!.content ?? [];
      const kinds = content.map((c) => (c.type === "content" ? c.content.type : c.type));
      assert.deepEqual(kinds, ["text", "image", "resource_link"]);
    } finally {
      await http.close();
    }
    // list_changed (stdio): the next model step sees the added tool.
    const c = await newSession(wsB.path, [mcpStdioEntry(cfg("delta", [{ name: "grow", behaviour: "add-tool" }]))]);
    await agent.agent.request(acp.methods.agent.session.setConfigOption, {
      sessionId: c.sessionId,
      configId: "mode",
      value: "full-access",
    });
    server.route("[grow]", { toolCalls: [{ name: "mcp__delta__grow", args: {} }] }, { text: "grown" });
    await agent.prompt(c.sessionId, "[grow]");
    const reqs = server.requests.filter((r) => r.lastUserText === "[grow]");
    assert.equal(reqs.length, 2);
    assert.ok(!reqs[0]!.toolNames.includes("mcp__delta__added"));
    assert.ok(reqs[1]!.toolNames.includes("mcp__delta__added"), reqs[1]!.toolNames.join(","));
  });

  it("I-101: hang, garbage, huge, crash and servers that never start give their own session bounded errors; it and B stay usable", async () => {
    const a = await newSession(wsA.path, [
      mcpStdioEntry(
        cfg("bad", [
          { name: "hang", behaviour: "hang" },
          { name: "garbage", behaviour: "garbage" },
          { name: "huge", behaviour: "huge" },
          { name: "crash", behaviour: "crash" },
        ]),
      ),
      mcpStdioEntry(cfg("dead", [{ name: "x", behaviour: "echo" }], { startup: "exit" })),
      mcpStdioEntry(cfg("mute", [{ name: "x", behaviour: "echo" }], { startup: "silent" })),
      { name: "ghost", command: "/nonexistent/mcp-server", args: [], env: [] },
    ]);
    const b = await newSession(wsB.path, []);
    await agent.agent.request(acp.methods.agent.session.setConfigOption, {
      sessionId: a.sessionId,
      configId: "mode",
      value: "full-access",
    });
    for (const t of ["hang", "garbage", "huge", "crash"])
      server.route(`[${t}]`, { toolCalls: [{ name: `mcp__bad__${t}`, args: {} }] }, { text: `after ${t}` });
    server.route("[after]", { text: "still here" });
    server.route("[b]", { text: "B fine" });
    const outputs: Record<string, string> = {};
    for (const t of ["hang", "garbage", "huge", "crash"]) {
      const [ra, rb] = await Promise.all([
        agent.prompt(a.sessionId, `[${t}]`),
        t === "hang" ? agent.prompt(b.sessionId, "[b]") : Promise.resolve({ stopReason: "end_turn" }),
      ]);
      assert.equal(ra.stopReason, "end_turn", t);
      assert.equal(rb.stopReason, "end_turn");
      const last = finished(agent, a.sessionId).pop()!;
      outputs[t] = outputOf(last);
      if (t !== "huge") assert.equal(last.status, "failed", `${t}: ${outputs[t]}`);
    }
    assert.match(outputs.hang!, /did not answer .* within 1500 ms/);
    assert.match(outputs.garbage!, /Invalid tools\/call result|error/);
    assert.ok(outputs.huge!.length < 40_000 && /truncated/.test(outputs.huge!), `${outputs.huge!.length}`);
    assert.match(outputs.crash!, /bad.*(stopped|not running|exited|closed)/s);
    assert.deepEqual(
      calls("bad").map((c) => c.tool),
      ["hang", "garbage", "huge", "crash"],
    );
    // A goes on: the dead servers' tools are gone and the model is told why.
    assert.equal((await agent.prompt(a.sessionId, "[after]")).stopReason, "end_turn");
    const req = server.requests.filter((r) => r.lastUserText === "[after]").pop()!;
    assert.ok(!req.toolNames.some((n) => n.startsWith("mcp__")), req.toolNames.join(","));
    const system = JSON.stringify(req.body.messages);
    for (const name of ["bad", "dead", "mute", "ghost"]) assert.match(system, new RegExp(`MCP server \\\\"${name}\\\\" is unavailable`));
    assert.match(system, /refusing to start/);
    assert.match(system, /ENOENT/);
    assert.equal(agent.textOf(b.sessionId), "B fine");
    assert.equal(agent.child.exitCode, null);
  });

  it("I-99: load and resume accept stdio servers; a load of the open idle session replaces its set (the old tree is gone)", async () => {
    const a = await newSession(wsA.path, [mcpStdioEntry(cfg("v1", [{ name: "echo", behaviour: "echo" }], { grandchild: true }))]);
    server.route("[v1]", { text: "one" });
    await agent.prompt(a.sessionId, "[v1]");
    assert.ok(server.requests.find((r) => r.lastUserText === "[v1]")!.toolNames.includes("mcp__v1__echo"));
    const v1 = readLog(logOf("v1")).flatMap((e) => (e.event === "start" || e.event === "grandchild" ? [Number(e.pid)] : []));
    assert.equal(v1.length, 2);
    for (const pid of v1) assert.ok(alive(pid));
    // Load of the open session: history replayed again, servers replaced.
    const before = agent.updatesOf(a.sessionId).length;
    await agent.agent.request(acp.methods.agent.session.load, {
      sessionId: a.sessionId,
      cwd: wsA.path,
      mcpServers: [mcpStdioEntry(cfg("v2", [{ name: "echo", behaviour: "echo" }]))],
    });
    assert.ok(
      agent
        .updatesOf(a.sessionId)
        .slice(before)
        .some((u) => u.sessionUpdate === "user_message_chunk"),
      "replayed",
    );
    for (const pid of v1) assert.ok(!alive(pid), `v1 process ${pid} gone after the load replaced the set`);
    server.route("[v2]", { text: "two" });
    await agent.prompt(a.sessionId, "[v2]");
    const names = server.requests.find((r) => r.lastUserText === "[v2]")!.toolNames;
    assert.ok(names.includes("mcp__v2__echo") && !names.includes("mcp__v1__echo"), names.join(","));
    // Closed, then resumed with another server: it starts with the resumed session.
    await agent.agent.request(acp.methods.agent.session.close, { sessionId: a.sessionId });
    await agent.agent.request(acp.methods.agent.session.resume, {
      sessionId: a.sessionId,
      cwd: wsA.path,
      mcpServers: [mcpStdioEntry(cfg("v3", [{ name: "echo", behaviour: "echo" }]))],
    });
    server.route("[v3]", { text: "three" });
    await agent.prompt(a.sessionId, "[v3]");
    const names3 = server.requests.find((r) => r.lastUserText === "[v3]")!.toolNames;
    assert.ok(names3.includes("mcp__v3__echo") && !names3.includes("mcp__v2__echo"), names3.join(","));
  });

  it("I-99: server processes and a setsid'd grandchild are gone after close, delete and the agent's exit", async () => {
    const own = spawnAgent({ env: modelEnv(server.url) });
    try {
      await own.initialize();
      const ids: string[] = [];
      for (const name of ["p-close", "p-delete", "p-exit"]) {
        const s = await own.agent.request(acp.methods.agent.session.new, {
          cwd: wsA.path,
          mcpServers: [mcpStdioEntry(cfg(name, [{ name: "echo", behaviour: "echo" }], { grandchild: true }))],
        });
        ids.push(s.sessionId);
        server.route(`[${name}]`, { text: "ready" });
        await own.prompt(s.sessionId, `[${name}]`); // a model step waits for the servers to be up
      }
      const pids = (name: string): number[] =>
        readLog(logOf(name)).flatMap((e) => (e.event === "start" || e.event === "grandchild" ? [Number(e.pid)] : []));
      for (const name of ["p-close", "p-delete", "p-exit"]) {
        assert.equal(pids(name).length, 2, name);
        for (const pid of pids(name)) assert.ok(alive(pid), `${name} ${pid} runs`);
      }
      await own.agent.request(acp.methods.agent.session.close, { sessionId: ids[0]! });
      for (const pid of pids("p-close")) assert.ok(!alive(pid), `after close: ${pid}`);
      for (const pid of pids("p-delete")) assert.ok(alive(pid), "a sibling's server is untouched");
      await own.agent.request(acp.methods.agent.session.delete, { sessionId: ids[1]! });
      for (const pid of pids("p-delete")) assert.ok(!alive(pid), `after delete: ${pid}`);
      assert.equal(await own.close(), 0);
      for (const pid of pids("p-exit")) assert.ok(!alive(pid), `after exit: ${pid}`);
    } finally {
      own.cleanup();
    }
  });
});
