// Agent tier: a long session's history, latest turns first. `session/load` with the tail asked for
// replays only the latest whole turns and says where they begin; `_manifold/session/history` pages
// the older ones; together they are exactly the full replay. Without the ask, the full replay (ACP).
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { logFileName } from "../../agent-server/session/fileName";
import { HISTORY_META, HISTORY_METHOD, HistoryPage, REPLAY_TAIL_META, REPLAYED_META } from "../../base/historyPages";
import { startFakeModelServer, type FakeModelServer } from "../support/fakeModelServer";
import { modelEnv, spawnAgent, tempDir, type AgentProcess } from "../support/agentProcess";

const TURNS = 24;

function userTexts(updates: readonly acp.SessionUpdate[]): string[] {
  return updates.flatMap((u) => (u.sessionUpdate === "user_message_chunk" && u.content.type === "text" ? [u.content.text] : []));
}

describe("history pages, latest first (spawned)", () => {
  let server: FakeModelServer;
  const ws = tempDir();
  const data = tempDir("manifold-data-");
  const procs: AgentProcess[] = [];
  let sessionId = "";
  const start = async (): Promise<AgentProcess> => {
    const p = spawnAgent({ env: modelEnv(server.url), dataDir: data.path });
    procs.push(p);
    await p.initialize();
    return p;
  };
  const load = async (p: AgentProcess, meta?: Record<string, unknown>): Promise<acp.LoadSessionResponse> =>
    p.agent.request(acp.methods.agent.session.load, { sessionId, cwd: ws.path, mcpServers: [], ...(meta ? { _meta: meta } : {}) });
  const page = async (p: AgentProcess, params: Record<string, unknown>): Promise<HistoryPage> =>
    HistoryPage.parse(await p.agent.request(HISTORY_METHOD, params as never));

  /** A session of its own with `turns` short turns, its process closed. */
  const sessionOfTurns = async (turns: number): Promise<string> => {
    const p = await start();
    const { sessionId: id } = await p.newSession(ws.path);
    for (let i = 0; i < turns; i++) {
      server.enqueue({ text: `reply ${i}` });
      await p.prompt(id, `ask ${i}`);
    }
    await p.close();
    return id;
  };

  before(async () => {
    server = await startFakeModelServer();
    writeFileSync(join(ws.path, "a.txt"), "alpha\n");
    const p = await start();
    ({ sessionId } = await p.newSession(ws.path));
    for (let i = 0; i < TURNS; i++) {
      // Every third turn reads a file: a tool call and its result, which no page may split.
      if (i % 3 === 0) server.enqueue({ toolCalls: [{ name: "read_file", args: { path: "a.txt" } }] }, { text: `answer ${i}` });
      else server.enqueue({ text: ["answer ", `${i}`] });
      await p.prompt(sessionId, `question ${i}`);
    }
    await p.close();
  });
  after(async () => {
    for (const p of procs) p.cleanup();
    await server.close();
    ws.cleanup();
    data.cleanup();
  });

  it("I-25: without the ask, load replays the whole history and its answer carries no cursor", async () => {
    const p = await start();
    const res = await load(p);
    assert.equal(res._meta?.[HISTORY_META], undefined);
    assert.deepEqual(
      userTexts(p.updatesOf(sessionId)),
      Array.from({ length: TURNS }, (_, i) => `question ${i}`),
    );
    await p.close();
  });

  it("I-123: the tail and its older pages are, in order, exactly the full replay; no page splits a turn", async () => {
    const full = await start();
    await load(full);
    const all = full.updatesOf(sessionId).filter((u) => u.sessionUpdate !== "available_commands_update");
    await full.close();

    const p = await start();
    const res = await load(p, { [REPLAY_TAIL_META]: { events: 20 } });
    const cursor = res._meta?.[HISTORY_META] as { beforePrompt: number } | undefined;
    assert.ok(cursor && cursor.beforePrompt > 0 && cursor.beforePrompt < TURNS, `a cursor inside the history: ${JSON.stringify(cursor)}`);
    const replayed = p.updatesOf(sessionId).filter((u) => u.sessionUpdate !== "available_commands_update");
    // It ends with the marker saying the replay is complete, with the answer's cursor.
    const marker = replayed.at(-1);
    assert.equal(marker?.sessionUpdate, "session_info_update");
    assert.deepEqual(marker?._meta?.[REPLAYED_META], cursor);
    const tail = replayed.slice(0, -1);
    assert.ok(tail.length < all.length / 2, `the tail (${tail.length}) is a small part of the replay (${all.length})`);
    // The tail starts with the prompt the cursor names, after the state carried from the older turns.
    const firstUser = tail.findIndex((u) => u.sessionUpdate === "user_message_chunk");
    assert.ok(tail.slice(0, firstUser).every((u) => ["usage_update", "plan", "session_info_update"].includes(u.sessionUpdate)));
    assert.equal(userTexts(tail)[0], `question ${cursor.beforePrompt}`);

    const pages: acp.SessionUpdate[][] = [];
    let before = cursor.beforePrompt;
    while (before > 0) {
      const got = await page(p, { sessionId, beforePrompt: before, events: 20 });
      assert.ok(got.fromPrompt < before, "each page goes further back");
      const texts = userTexts(got.updates as acp.SessionUpdate[]);
      assert.equal(texts[0], got.fromPrompt === 0 ? "question 0" : `question ${got.fromPrompt}`);
      assert.equal(texts.at(-1), `question ${before - 1}`);
      // A tool call and its result are in the same page.
      const calls = (got.updates as acp.SessionUpdate[]).flatMap((u) => (u.sessionUpdate === "tool_call" ? [u.toolCallId] : []));
      const results = (got.updates as acp.SessionUpdate[]).flatMap((u) => (u.sessionUpdate === "tool_call_update" ? [u.toolCallId] : []));
      assert.deepEqual(results, calls);
      pages.unshift(got.updates as acp.SessionUpdate[]);
      before = got.fromPrompt;
    }
    assert.ok(pages.length >= 2, `paged in more than one page (${pages.length})`);
    assert.deepEqual([...pages.flat(), ...tail.slice(firstUser)], all);
    await p.close();
  });

  it("I-123: the tail a fresh process replays ahead, from a scan of the log, is the one the built session replays", async () => {
    const p = await start();
    const meta = { [REPLAY_TAIL_META]: { events: 20 } };
    const ahead = await load(p, meta);
    const first = p.updatesOf(sessionId).slice();
    // Loaded again in the same process: the replay now comes from the live session's entries.
    const again = await load(p, meta);
    const second = p.updatesOf(sessionId).slice(first.length);
    assert.deepEqual(again._meta, ahead._meta);
    assert.deepEqual(second, first);
    assert.ok(first.length > 0);
    await p.close();
  });

  it("I-87, I-123: a log that ends inside a turn is recovered before its tail is replayed", async () => {
    const cut = await sessionOfTurns(3);
    // The process died right after a new prompt was logged: its turn never ended.
    const file = join(data.path, logFileName(cut));
    const seq = readFileSync(file, "utf8").trimEnd().split("\n").length;
    const line = (e: Record<string, unknown>, n: number): string => JSON.stringify({ ...e, seq: n, at: new Date().toISOString() }) + "\n";
    appendFileSync(
      file,
      line({ type: "turn/start", turnId: "died", messageId: "m-died", source: "user" }, seq) +
        line({ type: "user/message", messageId: "m-died", content: [{ type: "text", text: "ask 3" }] }, seq + 1),
    );
    const q = await start();
    await q.agent.request(acp.methods.agent.session.load, {
      sessionId: cut,
      cwd: ws.path,
      mcpServers: [],
      _meta: { [REPLAY_TAIL_META]: { events: 4 } },
    });
    const texts = q
      .updatesOf(cut)
      .flatMap((u) => (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? [u.content.text] : []));
    assert.match(texts.at(-1) ?? "", /interrupted/);
    assert.equal(userTexts(q.updatesOf(cut)).at(-1), "ask 3");
    await q.close();
  });

  it("I-89, I-123: a tail load of a log with a broken line fails before it replays anything", async () => {
    const broken = await sessionOfTurns(3);
    const file = join(data.path, logFileName(broken));
    const lines = readFileSync(file, "utf8").split("\n");
    lines[2] = "not an event";
    writeFileSync(file, lines.join("\n"));
    const q = await start();
    await assert.rejects(
      q.agent.request(acp.methods.agent.session.load, {
        sessionId: broken,
        cwd: ws.path,
        mcpServers: [],
        _meta: { [REPLAY_TAIL_META]: { events: 4 } },
      }),
      (err: acp.RequestError) => /line 3 is not a valid event/.test(err.message + JSON.stringify(err.data)),
    );
    assert.deepEqual(q.updatesOf(broken), []);
    await q.close();
  });

  it("I-123: a history ask that does not fit is a clear invalid-params error, and the session serves on", async () => {
    const p = await start();
    await load(p, { [REPLAY_TAIL_META]: { events: 20 } });
    await assert.rejects(page(p, { sessionId, beforePrompt: TURNS + 1, events: 10 }), (err: acp.RequestError) => {
      assert.equal(err.code, -32602);
      assert.match(err.message + JSON.stringify(err.data), /24 prompts/);
      return true;
    });
    await assert.rejects(page(p, { sessionId, beforePrompt: 0, events: 10 }), (err: acp.RequestError) => err.code === -32602);
    await assert.rejects(
      page(p, { sessionId: "not-loaded-here", beforePrompt: 1, events: 10 }),
      (err: acp.RequestError) => err.code === -32002,
    );
    // The whole history asked for at once, at the last prompt: every turn before it.
    const got = await page(p, { sessionId, beforePrompt: TURNS, events: 1_000_000 });
    assert.equal(got.fromPrompt, 0);
    assert.equal(userTexts(got.updates as acp.SessionUpdate[]).length, TURNS);
    server.enqueue({ text: "still here" });
    assert.equal((await p.prompt(sessionId, "after pages")).stopReason, "end_turn");
    await p.close();
  });
});
