// Agent tier: slash commands (`available_commands_update`, /compact, /clear, /init) and AGENTS.md in
// the system prompt, against the built agent-server and the fake model server.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, beforeEach, describe, it } from "node:test";
import { startFakeModelServer, type FakeModelServer, type FakeRequest } from "../support/fakeModelServer";
import { modelEnv, spawnAgent, tempDir, type AgentProcess } from "../support/agentProcess";
import { waitForFrame, type Frame } from "../support/rawFrames";

type Msg = { role: string; content: unknown };

const textOfMsg = (m: Msg): string =>
  typeof m.content === "string"
    ? m.content
    : Array.isArray(m.content)
      ? (m.content as Array<{ text?: string }>).map((p) => p.text ?? "").join("")
      : "";

/** A request's messages as [role, text] (OpenAI wire shape). */
const shape = (req: FakeRequest): Array<[string, string]> => (req.messages as Msg[]).map((m) => [m.role, textOfMsg(m)]);

function commandsFrame(sessionId: string): (f: Frame) => boolean {
  return (f) => {
    const p = f.params as { sessionId?: string; update?: { sessionUpdate?: string } } | undefined;
    return f.method === "session/update" && p?.sessionId === sessionId && p.update?.sessionUpdate === "available_commands_update";
  };
}

describe("slash commands (spawned)", () => {
  let server: FakeModelServer;
  let agent: AgentProcess;
  const ws = tempDir();

  before(async () => {
    server = await startFakeModelServer();
    agent = spawnAgent({ env: modelEnv(server.url) });
    await agent.initialize();
  });
  beforeEach(() => server.reset());
  after(async () => {
    await agent.close();
    agent.cleanup();
    await server.close();
    ws.cleanup();
  });

  it("available_commands_update follows the session/new response, and comes before the session/load and session/resume responses", async () => {
    const { sessionId } = await agent.newSession(ws.path);
    const responseAt = agent.frames.findIndex((f) => (f as { result?: { sessionId?: string } }).result?.sessionId === sessionId);
    const frame = await waitForFrame(agent, commandsFrame(sessionId), "available_commands_update");
    assert.ok(agent.frames.indexOf(frame) > responseAt, "after the session/new response");
    const update = (frame.params as { update: acp.SessionUpdate }).update;
    assert.deepEqual(update, {
      sessionUpdate: "available_commands_update",
      availableCommands: [
        { name: "compact", description: "Summarise the conversation so far; the model keeps the summary instead of the earlier turns." },
        { name: "clear", description: "Start a new context in this session: the model forgets the earlier turns (the transcript stays)." },
        {
          name: "init",
          description: "Ask the model to create or refresh AGENTS.md, the project instructions it reads at every step.",
          input: { hint: "what to focus on (optional)" },
        },
      ],
    });
    // load and resume: part of the state sent before the response (nothing may follow a load's response).
    const lastCommandsAt = (): number => agent.frames.findLastIndex((f) => commandsFrame(sessionId)(f as Frame));
    for (const method of [acp.methods.agent.session.load, acp.methods.agent.session.resume]) {
      const before = agent.frames.length;
      await agent.agent.request(method, { sessionId, cwd: ws.path, mcpServers: [] });
      const responseAt = agent.frames.findLastIndex((f) => (f as { result?: unknown }).result !== undefined);
      assert.ok(lastCommandsAt() >= before && lastCommandsAt() < responseAt, `${method}: the command list comes before its response`);
    }
  });

  it("/compact: the model summarises (no tools), the summary is shown, and the next request carries it instead of the old turns", async () => {
    const { sessionId } = await agent.newSession(ws.path);
    const long = "x".repeat(4000);
    server.enqueue(
      { text: `first reply ${long}` },
      { text: `second reply ${long}` },
      { text: "SUMMARY: two long replies so far" },
      { text: "fine" },
    );
    await agent.prompt(sessionId, "one");
    await agent.prompt(sessionId, "two");
    const beforeCompact = JSON.stringify(server.requests[1]!.messages).length;
    assert.deepEqual(await agent.prompt(sessionId, "/compact"), { stopReason: "end_turn" });
    const summarise = server.requests[2]!;
    assert.deepEqual(summarise.toolNames, [], "no tools in the summarisation request");
    assert.match(summarise.lastUserText, /^Summarise the conversation so far/);
    assert.ok(!bodyHasCommand(summarise), "the command text itself is not sent");
    assert.match(agent.textOf(sessionId), /SUMMARY: two long replies so far/);
    // shown as the adapters' synthetic compaction call, which Manifold's panel folds into one entry.
    const compaction = agent.updatesOf(sessionId).filter((u) => u.sessionUpdate === "tool_call" && u.title === "Compact conversation");
    assert.deepEqual(
      compaction.map((u) => u.sessionUpdate === "tool_call" && [u.kind, u.status, u._meta]),
      [["think", "completed", { contextCompaction: { trigger: "manual" } }]],
    );
    await agent.prompt(sessionId, "three");
    const next = server.requests[3]!;
    assert.deepEqual(shape(next).slice(1), [
      [
        "user",
        "[Summary of the earlier conversation, written by you when the user ran /compact]\nSUMMARY: two long replies so far" + "three",
      ],
    ]);
    assert.ok(JSON.stringify(next.messages).length < beforeCompact / 4, "the next request's conversation shrank");
  });

  it("/clear: no model request; the next request carries none of the earlier turns", async () => {
    const { sessionId } = await agent.newSession(ws.path);
    server.enqueue({ text: "remember MARKER-42" }, { text: "fresh" });
    await agent.prompt(sessionId, "say MARKER-42");
    assert.deepEqual(await agent.prompt(sessionId, "/clear"), { stopReason: "end_turn" });
    assert.equal(server.requests.length, 1, "/clear asks no model");
    assert.match(agent.textOf(sessionId), /Context cleared/);
    await agent.prompt(sessionId, "what did I say?");
    assert.deepEqual(shape(server.requests[1]!).slice(1), [["user", "what did I say?"]]);
  });

  it("/init sends the model its instruction instead of the command; AGENTS.md is in the system prompt of every step; other /words are plain text", async () => {
    const { sessionId } = await agent.newSession(ws.path);
    server.enqueue({ text: "will do" }, { text: "ok" }, { text: "ok" });
    await agent.prompt(sessionId, "/init focus on tests");
    const init = server.requests[0]!;
    assert.match(init.lastUserText, /^Create or update the file AGENTS\.md/);
    assert.match(init.lastUserText, /The user adds: focus on tests$/);
    assert.ok(!init.lastUserText.includes("/init"));
    writeFileSync(join(ws.path, "AGENTS.md"), "Always run the linter: ALWAYS-LINT-7.\n");
    await agent.prompt(sessionId, "/usr/bin is where tools live");
    const next = server.requests[1]!;
    assert.equal(next.lastUserText, "/usr/bin is where tools live");
    const system = shape(next)[0]!;
    assert.equal(system[0], "system");
    assert.match(system[1], /<agents_md>\nAlways run the linter: ALWAYS-LINT-7\.\n\n<\/agents_md>/);
  });
});

function bodyHasCommand(req: FakeRequest): boolean {
  return (req.messages as Msg[]).some((m) => m.role === "user" && textOfMsg(m).trim() === "/compact");
}
