// A folder session loading from an agent that pages its history (base/historyPages.ts): the load asks
// for the latest turns only, the panel's snapshot says older ones exist, paging up fetches them from
// the agent in the transcript's own form, and the whole transcript then equals a full replay's. An
// agent that does not advertise paging is asked nothing new and replays everything (ACP).
import assert from "node:assert/strict";
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import * as acp from "@agentclientprotocol/sdk";
import { AcpClient } from "../../../extension/agent/acpClient";
import { noEditor } from "../../../extension/client/fileService";
import type { TranscriptEntry } from "../../../extension/common/transcript";
import { FolderSession } from "../../../extension/sessions/folderSession";
import { createNoSandbox } from "../../../sandbox/none";
import { HISTORY_META, HISTORY_PAGES_META, REPLAY_TAIL_META, REPLAYED_META } from "../../../base/historyPages";
import { ensureNoDisposablesAreLeaked } from "../../support/disposableLeaks";
import { createFakeAgent, type FakeAgent } from "./fakeAgent";

const made: FolderSession[] = [];
ensureNoDisposablesAreLeaked({ cleanup: () => Promise.all(made.splice(0).map((s) => s.shutdown())) });

const TURNS = 300;
const text = (t: string) => ({ type: "text" as const, text: t });

/** Turn `i`: the prompt, an edit with its diff, the answer. */
function turn(i: number): acp.SessionUpdate[] {
  return [
    { sessionUpdate: "user_message_chunk", content: text(`question ${i}`), messageId: `u${i}` },
    { sessionUpdate: "tool_call", toolCallId: `t${i}`, title: `Edit ${i}`, kind: "edit", status: "pending", rawInput: { i } },
    {
      sessionUpdate: "tool_call_update",
      toolCallId: `t${i}`,
      status: "completed",
      content: [{ type: "diff", path: `/w/f${i}.txt`, oldText: `old ${i}\n`, newText: `new ${i}\n` }],
      rawOutput: { ok: true },
    },
    { sessionUpdate: "agent_message_chunk", content: text(`answer ${i}`), messageId: `a${i}` },
  ];
}

/**
 * A fake agent holding TURNS turns; with `pages`, it serves the tail and older pages by prompt, as the
 * built-in agent does. With `hold`, its tail replay ends with the REPLAYED_META marker and its answer
 * waits for `hold` (the built-in agent reading the rest of a long log); `attach` is then not awaited.
 */
async function loaded(
  pages: boolean,
  hold?: Promise<void>,
): Promise<{ fake: FakeAgent; s: FolderSession; asked: unknown[]; attached: Promise<void> }> {
  const folder = join(realpathSync(mkdtempSync(join(tmpdir(), "manifold-pages-"))), "alpha");
  const fake = createFakeAgent({ loadSession: true, ...(pages ? { _meta: { [HISTORY_PAGES_META]: true } } : {}) });
  const asked: unknown[] = [];
  const say = async (c: acp.AgentContext, sessionId: string, from: number, to: number) => {
    for (let i = from; i < to; i++) for (const update of turn(i)) await c.notify(acp.methods.client.session.update, { sessionId, update });
  };
  fake.onLoad = async (params, c) => {
    asked.push(params._meta?.[REPLAY_TAIL_META]);
    const tail = params._meta?.[REPLAY_TAIL_META] as { events: number } | undefined;
    const from = tail ? Math.max(0, TURNS - Math.ceil(tail.events / 40)) : 0;
    await say(c, params.sessionId, from, TURNS);
    if (hold) {
      const update: acp.SessionUpdate = {
        sessionUpdate: "session_info_update",
        _meta: { [REPLAYED_META]: from > 0 ? { beforePrompt: from } : {} },
      };
      await c.notify(acp.methods.client.session.update, { sessionId: params.sessionId, update });
      await hold;
    }
    return from > 0 ? { [HISTORY_META]: { beforePrompt: from } } : undefined;
  };
  fake.onHistory = async ({ beforePrompt, events }) => {
    const from = Math.max(0, beforePrompt - Math.ceil(events / 40));
    const updates: acp.SessionUpdate[] = [];
    for (let i = from; i < beforePrompt; i++) updates.push(...turn(i));
    return { updates, fromPrompt: from };
  };
  const client = new AcpClient(fake.app);
  await client.initialize();
  const binds = new Map<string, string>([[folder, "s-long"]]);
  const s = new FolderSession(folder, "alpha", {
    bindings: { get: (f) => binds.get(f), set: (f, id) => void (id ? binds.set(f, id) : binds.delete(f)) },
    editor: noEditor,
    terminalSandbox: async () => createNoSandbox({}, "no terminals in this test"),
  });
  made.push(s);
  const attached = s.attach(client, { restart: false });
  if (!hold) await attached;
  return { fake, s, asked, attached };
}

function shapes(entries: readonly TranscriptEntry[]): unknown[] {
  return entries.map(({ id: _id, ...rest }) => rest);
}

test("I-123: a paging agent is asked for the tail; paging up brings every older turn, and the transcript equals the full replay's", async () => {
  const full = await loaded(false);
  assert.deepEqual(full.asked, [undefined], "an agent that does not page is asked nothing new");
  assert.equal(full.s.transcript.hasOlder, false);
  const expected = await full.s.transcript.entries();

  const { s, fake, asked } = await loaded(true);
  assert.equal(typeof (asked[0] as { events?: unknown }).events, "number");
  assert.ok(s.transcript.hasOlder);
  assert.ok(s.transcript.length < expected.length / 2, `the load folded only the tail (${s.transcript.length} of ${expected.length})`);
  assert.equal(s.transcript.prompts, TURNS, "prompt counts include the turns left at the agent");
  const { window } = s.transcript.tail(150);
  assert.equal(window.older, true);

  let first = (await s.transcript.entries())[0]!.id;
  for (let guard = 0; guard < 50 && (s.transcript.hasOlder || (await s.transcript.entries())[0]!.id !== first); guard++) {
    const page = await s.transcript.page(first, 500);
    if (!page?.entries[0]) break;
    first = page.entries[0].id;
  }
  assert.equal(s.transcript.hasOlder, false);
  assert.ok(fake.calls.filter((c) => c === "_manifold/session/history").length >= 1);
  const got = await s.transcript.entries();
  assert.deepEqual(shapes(got), shapes(expected));
  // A fetched page's diffs are kept aside like a replayed one's: the full texts are served on request.
  const tool = got.find((e) => e.kind === "tool" && e.toolCallId === "t0");
  assert.ok(tool && tool.kind === "tool");
  assert.equal((await s.diff("t0", 0))?.newText, "new 0\n");
});

test(
  "I-123: a tail replay's end marker shows the panel before the load answers; the answer then changes nothing",
  { timeout: 20_000 },
  async () => {
    let release!: () => void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    const { s, attached } = await loaded(true, hold);
    // The folder session says it is no longer loading once the marker is folded, while the answer is held.
    await new Promise<void>((resolve) => {
      const check = (): boolean => !s.state.loading && s.transcript.length > 0;
      if (check()) return resolve();
      const sub = s.onDidEmit(() => {
        if (!check()) return;
        sub.dispose();
        resolve();
      });
    });
    assert.ok(s.transcript.hasOlder, "the marker's cursor says older turns are at the agent");
    assert.equal(s.transcript.tail(150).window.older, true);
    assert.equal(s.state.title, undefined, "the marker is not a title");
    const shown = shapes(await s.transcript.entries());
    const events: string[] = [];
    const sub = s.onDidEmit((evs) => events.push(...evs.map((e) => e.type)));
    release();
    await attached;
    sub.dispose();
    assert.ok(!events.includes("loading"), `no second loading change at the answer (${events.join(", ")})`);
    assert.deepEqual(shapes(await s.transcript.entries()), shown);
    assert.ok(s.transcript.hasOlder);
  },
);
