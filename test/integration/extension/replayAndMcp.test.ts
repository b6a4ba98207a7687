// What a panel shows of a loaded session and of its MCP servers, against the in-process fake agent: a
// piece of the `session/load` replay that arrives after the load answered (same message id as a
// history message) is never shown inside the next live turn, nor twice; an agent that reports no
// server status has its passed servers said to be "passed to the agent; connection not reported",
// and, once a turn ended without a call of one of its tools, a one-line note says so.
import assert from "node:assert/strict";
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import * as acp from "@agentclientprotocol/sdk";
import { AcpClient } from "../../../extension/agent/acpClient";
import { noEditor } from "../../../extension/client/fileService";
import { rowLabel, unusedServerNotes } from "../../../extension/common/mcpRows";
import type { TranscriptState } from "../../../extension/common/transcript";
import type { SessionServers } from "../../../extension/mcp/sessionServers";
import { FolderSession } from "../../../extension/sessions/folderSession";
import { createNoSandbox } from "../../../sandbox/none";
import { ensureNoDisposablesAreLeaked } from "../../support/disposableLeaks";
import { createFakeAgent, type FakeAgent } from "./fakeAgent";

const made: FolderSession[] = [];
ensureNoDisposablesAreLeaked({ cleanup: () => Promise.all(made.splice(0).map((s) => s.shutdown())) });

async function setup(
  caps: acp.AgentCapabilities,
  o: { boundTo?: string; servers?: SessionServers } = {},
): Promise<{ fake: FakeAgent; client: AcpClient; s: FolderSession }> {
  const folder = join(realpathSync(mkdtempSync(join(tmpdir(), "manifold-replay-"))), "alpha");
  const fake = createFakeAgent(caps);
  const client = new AcpClient(fake.app);
  await client.initialize();
  const binds = new Map<string, string>(o.boundTo ? [[folder, o.boundTo]] : []);
  const s = new FolderSession(folder, "alpha", {
    bindings: { get: (f) => binds.get(f), set: (f, id) => void (id ? binds.set(f, id) : binds.delete(f)) },
    editor: noEditor,
    terminalSandbox: async () => createNoSandbox({}, "no terminals in this test"),
    ...(o.servers ? { mcpServers: () => Promise.resolve(o.servers as SessionServers) } : {}),
  });
  made.push(s);
  return { fake, client, s };
}

type Update = acp.SessionNotification["update"];
const say = (client: acp.AgentContext, sessionId: string, update: Update) =>
  client.notify(acp.methods.client.session.update, { sessionId, update });
const text = (t: string) => ({ type: "text" as const, text: t });

/** The transcript as kind and text, in order. */
function shown(st: TranscriptState): string[] {
  return st.entries.flatMap((e) => (e.kind === "user" || e.kind === "agent" ? [`${e.kind}: ${e.text}`] : []));
}

async function replayThenLive(messageIds: boolean): Promise<string[]> {
  const { fake, client, s } = await setup({ loadSession: true }, { boundTo: "s-old" });
  const id = (m: string) => (messageIds ? { messageId: m } : {});
  fake.onLoad = async (params, c) => {
    await say(c, params.sessionId, { sessionUpdate: "user_message_chunk", content: text("first question"), ...id("u1") });
    await say(c, params.sessionId, { sessionUpdate: "agent_message_chunk", content: text("first answer"), ...id("a1") });
    await say(c, params.sessionId, { sessionUpdate: "user_message_chunk", content: text("second question"), ...id("u2") });
    await say(c, params.sessionId, { sessionUpdate: "agent_message_chunk", content: text("second answer"), ...id("a2") });
  };
  // The agent's replay runs late: one more chunk of the first answer reaches the client once the next
  // live turn has begun, before that turn's own answer.
  fake.onPrompt = async ({ params, client: c }) => {
    await say(c, params.sessionId, { sessionUpdate: "agent_message_chunk", content: text("first answer"), ...id("a1") });
    await say(c, params.sessionId, { sessionUpdate: "agent_message_chunk", content: text("live answer"), ...id("a3") });
    return "end_turn";
  };
  await s.attach(client, { restart: false });
  assert.deepEqual(fake.calls, ["session/load"]);
  await s.prompt([text("third question")], { text: "third question", attachments: [] });
  return shown(s.state);
}

test("a replayed message that arrives after session/load answered is not shown in the live turn, nor twice", async () => {
  assert.deepEqual(await replayThenLive(true), [
    "user: first question",
    "agent: first answer",
    "user: second question",
    "agent: second answer",
    "user: third question",
    "agent: live answer",
  ]);
});

test("without message ids nothing tells a late replay from a live message: updates are shown as they come", async () => {
  assert.deepEqual((await replayThenLive(false)).slice(-2), ["user: third question", "agent: first answerlive answer"]);
});

const passedServers: SessionServers = {
  servers: [
    { name: "docs", command: "node", args: [], env: [] },
    { name: "tracker", command: "node", args: [], env: [] },
  ],
  rows: [
    { name: "docs", source: "folder", state: "passed" },
    { name: "tracker", source: "user", state: "passed" },
  ],
  protectedPaths: [],
};

test("an agent that reports no MCP status: rows say the server was passed, not connected; an unused one gets a note after a turn", async () => {
  const { fake, client, s } = await setup({ mcpCapabilities: { http: true } }, { servers: passedServers });
  fake.onPrompt = async ({ params, client: c }) => {
    await say(c, params.sessionId, { sessionUpdate: "tool_call", toolCallId: "t1", title: "mcp__docs__search", status: "completed" });
    return "end_turn";
  };
  await s.attach(client, { restart: false });
  const notes = (st: TranscriptState) =>
    unusedServerNotes(
      "Codex",
      st.mcpServers,
      st.entries.flatMap((e) => (e.kind === "tool" ? [e.title] : [])),
      !st.running && st.entries.some((e) => e.kind === "user"),
    );
  assert.deepEqual(
    s.state.mcpServers.map((r) => [r.name, rowLabel(r)]),
    [
      ["docs", "passed to the agent; connection not reported"],
      ["tracker", "passed to the agent; connection not reported"],
    ],
  );
  assert.deepEqual(notes(s.state), [], "nothing to say before a turn");
  await s.prompt([text("look it up")], { text: "look it up", attachments: [] });
  assert.deepEqual(notes(s.state), ["Codex has not reported or used tracker yet"]);
});

test("an agent that reports MCP status: its rows show its states, and no note is added", async () => {
  const { client, s } = await setup(
    { mcpCapabilities: { http: true }, _meta: { manifold: { mcpStatus: true } } },
    { servers: passedServers },
  );
  await s.attach(client, { restart: false });
  assert.deepEqual(
    s.state.mcpServers.map((r) => rowLabel(r)),
    ["starting…", "starting…"],
  );
  assert.deepEqual(unusedServerNotes("Manifold", s.state.mcpServers, [], true), []);
});
