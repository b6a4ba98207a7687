// session/load races and checks (I-16..20, I-25, I-64, I-82) over the in-memory connection.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createHarness, until, type ClientSide, type Harness } from "../../support/inProcess";
import { createFakeTools, finish, gate, text, toolCall } from "../../support/scriptedModel";

const isCode = (code: number) => (err: unknown) => err instanceof acp.RequestError && err.code === code;
const load = (c: ClientSide, sessionId: string, cwd: string) =>
  c.agent.request(acp.methods.agent.session.load, { sessionId, cwd, mcpServers: [] });

describe("session/load (in-process)", () => {
  let h: Harness;
  beforeEach(() => {
    h = createHarness({ tools: createFakeTools({ t: () => ({ output: "live result", isError: false }) }) });
  });
  afterEach(() => h.cleanup());

  async function persisted(cwd: string): Promise<string> {
    const a = await h.live.create({ cwd });
    const id = a.sessionId;
    await h.live.dispose(a);
    return id;
  }

  it("I-16: pipelined loads of one id: one success, one 'already loading' error, one resume", async () => {
    const id = await persisted(h.ws[0]!);
    const c = await h.connect();
    h.store.openGate = gate();
    const both = Promise.allSettled([load(c, id, h.ws[0]!), load(c, id, h.ws[0]!)]);
    await until(() => h.store.calls.open === 1, "one open");
    h.store.openGate.open();
    const [r1, r2] = await both;
    assert.equal(r1.status, "fulfilled");
    assert.equal(r2.status, "rejected");
    assert.match(String((r2 as PromiseRejectedResult).reason.message), /already loading/);
    assert.equal(h.store.calls.open, 1);
    assert.equal(c.bridge.records.size, 1);
    assert.equal(h.live.agents.size, 1);
  });

  it("I-17: loads of different ids run concurrently", async () => {
    const a = await persisted(h.ws[0]!);
    const b = await persisted(h.ws[1]!);
    const c = await h.connect();
    h.store.openGate = gate();
    const both = Promise.all([load(c, a, h.ws[0]!), load(c, b, h.ws[1]!)]);
    await until(() => h.store.calls.open === 2, "both opens in flight together");
    h.store.openGate.open();
    await both;
    assert.equal(c.bridge.records.size, 2);
  });

  it("I-18/I-19: a cwd mismatch is refused before any agent is built, and releases the reservation", async () => {
    const id = await persisted(h.ws[0]!);
    const c = await h.connect();
    await assert.rejects(load(c, id, h.ws[1]!), isCode(-32602));
    assert.equal(h.store.calls.open, 0);
    assert.equal(h.live.agents.size, 0);
    await load(c, id, h.ws[0]!);
    assert.ok(c.bridge.records.has(id));
  });

  it("I-19: a persisted session without a usable cwd is rejected, not run in the server's cwd", async () => {
    const id = await persisted(h.ws[0]!);
    const path = h.store.pathFor(id);
    const lines = readFileSync(path, "utf8").split("\n");
    const header = JSON.parse(lines[0]!) as Record<string, unknown>;
    header.cwd = "relative/dir";
    lines[0] = JSON.stringify(header);
    writeFileSync(path, lines.join("\n"));
    const c = await h.connect();
    await assert.rejects(load(c, id, h.ws[0]!), isCode(-32602));
    assert.equal(h.live.agents.size, 0);
  });

  it("I-63: the canonical cwd is stored; a symlinked spelling loads the same session", async () => {
    const link = join(h.ws[1]!, "link");
    symlinkSync(h.ws[0]!, link);
    const c = await h.connect();
    const id = await c.newSession(link);
    const agent = h.live.get(id)!;
    assert.equal(agent.cwd, agent.root);
    assert.notEqual(agent.cwd, link);
    assert.equal(agent.sandboxContext().root, agent.cwd);
    await c.agent.request(acp.methods.agent.session.close, { sessionId: id });
    await load(c, id, h.ws[0]!);
  });

  it("I-20/I-82: a load or new whose persistence resolves after teardown is disposed and rejected", async () => {
    const id = await persisted(h.ws[0]!);
    const c = await h.connect();
    h.store.openGate = gate();
    h.store.createGate = gate();
    const creates = h.store.calls.create;
    const l = load(c, id, h.ws[0]!);
    const n = c.newSession(h.ws[1]!);
    await until(() => h.store.calls.open === 1 && h.store.calls.create === creates + 1, "both gated");
    const closing = c.bridge.teardown();
    h.store.openGate.open();
    h.store.createGate.open();
    await assert.rejects(l);
    await assert.rejects(n);
    await closing;
    assert.equal(h.live.agents.get(id), undefined);
    assert.equal(h.live.agents.size, 0);
  });

  it("I-25: load replays the whole log before responding; a historical unanswered call never pairs with a live one", async () => {
    const c = await h.connect();
    const id = await c.newSession(h.ws[0]!);
    h.model.enqueue([text("first"), finish()]);
    await c.prompt(id, "hello");
    await c.agent.request(acp.methods.agent.session.close, { sessionId: id });
    // Append a dangling tool call, as a crash would leave it.
    const path = h.store.pathFor(id);
    const lines = readFileSync(path, "utf8").trimEnd().split("\n");
    const seq = lines.length;
    const at = new Date().toISOString();
    writeFileSync(
      path,
      lines.join("\n") +
        "\n" +
        [
          { type: "turn/start", turnId: "t-old", messageId: "m-old", source: "user", seq, at },
          { type: "user/message", messageId: "m-old", content: [{ type: "text", text: "old" }], seq: seq + 1, at },
          { type: "tool/call", toolCallId: "call_old", name: "t", input: {}, title: "old call", kind: "other", seq: seq + 2, at },
        ]
          .map((e) => JSON.stringify(e))
          .join("\n") +
        "\n",
    );
    const c2 = await h.connect();
    let responded = false;
    const p = load(c2, id, h.ws[0]!).then(() => {
      responded = true;
    });
    await p;
    assert.ok(responded);
    const replay = [...(c2.updates.get(id) ?? [])];
    assert.deepEqual(
      replay.map((u) => u.sessionUpdate),
      [
        "session_info_update",
        "user_message_chunk",
        "agent_message_chunk",
        "usage_update",
        "user_message_chunk",
        "tool_call",
        "tool_call_update",
        "agent_message_chunk",
        "available_commands_update",
      ],
    );
    const oldUpdate = replay.find((u) => u.sessionUpdate === "tool_call_update");
    assert.equal(oldUpdate?.sessionUpdate === "tool_call_update" ? oldUpdate.status : null, "failed");
    h.model.enqueue([toolCall("t", {}), finish("tool-calls")], [text("ok"), finish()]);
    await c2.prompt(id, "live");
    const live = (c2.updates.get(id) ?? [])
      .slice(replay.length)
      .filter((u) => u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update");
    for (const u of live) assert.notEqual((u as { toolCallId: string }).toolCallId, "call_old");
    assert.equal(live.filter((u) => u.sessionUpdate === "tool_call").length, 1);
  });

  it("I-64: non-empty additionalDirectories, SSE and malformed mcpServers are rejected with a clear error", async () => {
    const c = await h.connect();
    const refused = (params: Record<string, unknown>, re: RegExp) =>
      assert.rejects(
        c.agent.request(acp.methods.agent.session.new, { cwd: h.ws[0]!, mcpServers: [], ...params } as acp.NewSessionRequest),
        (e: unknown) => e instanceof acp.RequestError && e.code === -32602 && re.test(e.message),
      );
    await refused({ additionalDirectories: [h.ws[1]!] }, /additionalDirectories/);
    await refused(
      { mcpServers: [{ type: "sse", name: "s", url: "http://127.0.0.1:1/sse", headers: [] }] },
      /SSE MCP servers are not supported/,
    );
    await refused({ mcpServers: [{ name: "x", args: [], env: [] }] }, /Invalid params|command/); // the SDK's schema may refuse it first
    await refused({ mcpServers: [{ name: "", command: "/bin/true", args: [], env: [] }] }, /non-empty name/);
    await refused({ mcpServers: [{ type: "http", name: "h", url: "file:///etc/passwd", headers: [] }] }, /http:\/\/ or https:\/\//);
    const stdio = { name: "same", command: "/bin/true", args: [], env: [] };
    await refused({ mcpServers: [stdio, stdio] }, /used twice/);
    // This harness has no MCP layer: a valid entry is refused, never ignored, and not advertised.
    await refused({ mcpServers: [stdio] }, /not available/);
    const init = await c.agent.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
    assert.deepEqual(init.agentCapabilities?.mcpCapabilities, { http: false, sse: false });
    assert.equal(h.live.agents.size, 0);
  });

  it("I-16: load of a session already open and idle replays its history again and succeeds (the same agent)", async () => {
    const c = await h.connect();
    const id = await c.newSession(h.ws[0]!);
    h.model.enqueue([text("answer one"), finish()]);
    await c.prompt(id, "question one");
    const agent = h.live.get(id);
    const live = [...(c.updates.get(id) ?? [])];
    await load(c, id, h.ws[0]!);
    const replay = (c.updates.get(id) ?? []).slice(live.length);
    assert.deepEqual(
      replay.map((u) => u.sessionUpdate),
      ["session_info_update", "user_message_chunk", "agent_message_chunk", "usage_update", "available_commands_update"],
    );
    assert.equal(h.live.get(id), agent);
    assert.equal(h.store.calls.open, 0);
    // A load that names another folder is still refused (I-19), and the session keeps serving.
    await assert.rejects(load(c, id, h.ws[1]!), isCode(-32602));
    h.model.enqueue([text("answer two"), finish()]);
    assert.deepEqual(await c.prompt(id, "question two"), { stopReason: "end_turn" });
  });

  it("I-16: pipelined loads of an open idle session: one replay, one 'already loading' error", async () => {
    const c = await h.connect();
    const id = await c.newSession(h.ws[0]!);
    h.model.enqueue([text("x"), finish()]);
    await c.prompt(id, "hello");
    const before = (c.updates.get(id) ?? []).length;
    const [r1, r2] = await Promise.allSettled([load(c, id, h.ws[0]!), load(c, id, h.ws[0]!)]);
    assert.equal(r1.status, "fulfilled");
    assert.equal(r2.status, "rejected");
    assert.match(String((r2 as PromiseRejectedResult).reason.message), /already loading/);
    const replayed = (c.updates.get(id) ?? []).slice(before);
    assert.equal(replayed.filter((u) => u.sessionUpdate === "user_message_chunk").length, 1);
  });

  it("I-16: load of an open session with a prompt running fails clearly and leaves the prompt alone", async () => {
    const c = await h.connect();
    const id = await c.newSession(h.ws[0]!);
    const g = gate();
    h.model.enqueue([text("part one "), { type: "wait", gate: g }, text("part two"), finish()]);
    const running = c.prompt(id, "long");
    await h.model.waitForRequests(1);
    const before = (c.updates.get(id) ?? []).length;
    await assert.rejects(
      load(c, id, h.ws[0]!),
      (e: unknown) => e instanceof acp.RequestError && e.code === -32602 && /prompt running/.test(e.message),
    );
    assert.equal(
      (c.updates.get(id) ?? []).filter((u, i) => i >= before && u.sessionUpdate === "user_message_chunk").length,
      0,
      "nothing replayed",
    );
    g.open();
    assert.deepEqual(await running, { stopReason: "end_turn" });
    assert.equal(c.textOf(id), "part one part two");
  });

  it("session/resume restores without replay; list filters by cwd with paging; delete removes the log quietly", async () => {
    const c = await h.connect();
    const id = await c.newSession(h.ws[0]!);
    h.model.enqueue([text("x"), finish()]);
    await c.prompt(id, "Title from first prompt\nmore");
    await c.agent.request(acp.methods.agent.session.close, { sessionId: id });
    const c2 = await h.connect();
    await c2.agent.request(acp.methods.agent.session.resume, { sessionId: id, cwd: h.ws[0]! });
    // No history replayed: only the command list, which is part of the session's state.
    assert.deepEqual(
      (c2.updates.get(id) ?? []).map((u) => u.sessionUpdate),
      ["available_commands_update"],
    );
    for (let i = 0; i < 55; i++) await c2.newSession(h.ws[1]!);
    const mine = await c2.agent.request(acp.methods.agent.session.list, { cwd: h.ws[0]! });
    assert.deepEqual(
      mine.sessions.map((s) => [s.sessionId, s.title, s.cwd]),
      [[id, "Title from first prompt", h.live.get(id)!.cwd]],
    );
    assert.equal(mine.nextCursor, undefined);
    const page1 = await c2.agent.request(acp.methods.agent.session.list, { cwd: h.ws[1]! });
    assert.equal(page1.sessions.length, 50);
    assert.ok(page1.nextCursor);
    const page2 = await c2.agent.request(acp.methods.agent.session.list, { cwd: h.ws[1]!, cursor: page1.nextCursor });
    assert.equal(page2.sessions.length, 5);
    assert.equal(new Set([...page1.sessions, ...page2.sessions].map((s) => s.sessionId)).size, 55);
    mkdirSync(h.store.tmpDirFor(id), { recursive: true });
    await c2.agent.request(acp.methods.agent.session.delete, { sessionId: id });
    await c2.agent.request(acp.methods.agent.session.delete, { sessionId: "never-was" });
    assert.equal(existsSync(h.store.pathFor(id)), false);
    assert.equal(c2.bridge.records.has(id), false);
    const after = await c2.agent.request(acp.methods.agent.session.list, { cwd: h.ws[0]! });
    assert.deepEqual(after.sessions, []);
  });
});
