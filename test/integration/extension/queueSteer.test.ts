// Queue and steering at the extension level: a folder session's queue and steering against the in-process fake
// agent. Turns hang on a gate the test opens, so every step waits on an event, never on time.
import assert from "node:assert/strict";
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import type { StopReason } from "@agentclientprotocol/sdk";
import { AcpClient } from "../../../extension/agent/acpClient";
import { noEditor } from "../../../extension/client/fileService";
import type { PromptQueue } from "../../../extension/common/promptQueue";
import type { TranscriptState, UserEntry } from "../../../extension/common/transcript";
import { FolderSession } from "../../../extension/sessions/folderSession";
import { createNoSandbox } from "../../../sandbox/none";
import { ensureNoDisposablesAreLeaked } from "../../support/disposableLeaks";
import { createFakeAgent, type FakeAgent } from "./fakeAgent";
import { stateWaiters } from "./stateWaiters";

const made: FolderSession[] = [];
ensureNoDisposablesAreLeaked({ cleanup: () => Promise.all(made.splice(0).map((s) => s.shutdown())) });

interface Harness {
  fake: FakeAgent;
  sessions: FolderSession[];
  /** The text of every prompt the agent received, with its session id, in order. */
  prompts: { sessionId: string; text: string }[];
  /** Ends the running turn of `sessionId` with `stop`. */
  release(sessionId: string, stop?: StopReason): void;
  when(s: FolderSession, pred: (st: TranscriptState) => boolean): Promise<void>;
  /** Resolves once the agent has received `n` prompts in all. */
  prompted(n: number): Promise<void>;
  stored: Map<string, PromptQueue>;
}

async function setup(n: number, opts: { steering: boolean; stored?: Map<string, PromptQueue> }): Promise<Harness> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "manifold-queue-")));
  const fake = createFakeAgent({}, { steering: opts.steering });
  const client = new AcpClient(fake.app);
  await client.initialize();
  const waiters = stateWaiters();
  const binds = new Map<string, string>();
  const stored = opts.stored ?? new Map<string, PromptQueue>();
  const gates = new Map<string, (stop: StopReason) => void>();
  const prompts: Harness["prompts"] = [];
  const promptWaiters: (() => void)[] = [];
  fake.onPrompt = ({ params, cancelled }) => {
    prompts.push({ sessionId: params.sessionId, text: params.prompt.map((b) => (b.type === "text" ? b.text : "")).join("") });
    for (const w of promptWaiters.splice(0)) w();
    return new Promise<StopReason>((resolve) => {
      gates.set(params.sessionId, resolve);
      cancelled.addEventListener("abort", () => resolve("cancelled"));
    });
  };
  const sessions = Array.from({ length: n }, (_, i) => {
    const folder = join(base, `f${i}`);
    const s = new FolderSession(folder, `f${i}`, {
      bindings: { get: (f) => binds.get(f), set: (f, id) => void (id ? binds.set(f, id) : binds.delete(f)) },
      queues: { get: (f) => stored.get(f), set: (f, q) => void stored.set(f, q) },
      editor: noEditor,
      terminalSandbox: async () => createNoSandbox({}, "no terminals in this test"),
    });
    made.push(s);
    s.onDidEmit(() => waiters.changed(s));
    return s;
  });
  for (const s of sessions) await s.attach(client, { restart: false });
  return {
    fake,
    sessions,
    prompts,
    stored,
    when: waiters.when,
    prompted: (n) =>
      new Promise<void>((resolve) => {
        const check = () => (prompts.length >= n ? resolve() : promptWaiters.push(check));
        check();
      }),
    release: (sessionId, stop = "end_turn") => {
      const g = gates.get(sessionId);
      gates.delete(sessionId);
      assert.ok(g, `no turn is running in ${sessionId}`);
      g(stop);
    },
  };
}

const queued = (st: TranscriptState) => st.queue.map((m) => m.text);
const users = (st: TranscriptState) => st.entries.filter((e): e is UserEntry => e.kind === "user");

/** Starts a turn with `text` and waits until the agent has it; `turn` resolves when the turn ends. */
async function startTurn(h: Harness, s: FolderSession, text: string): Promise<{ turn: Promise<void> }> {
  const n = h.prompts.length;
  const turn = s.prompt([{ type: "text", text }], { text, attachments: [] });
  await h.prompted(n + 1);
  // Wrapped: an async function returning the promise itself would wait for the turn to end.
  return { turn };
}

test("queued messages are sent in order, one per turn, each when the previous turn ends", async () => {
  const h = await setup(1, { steering: false });
  const s = h.sessions[0]!;
  const id = s.sessionId!;
  const { turn: first } = await startTurn(h, s, "first");
  s.queue.add("second");
  s.queue.add("third");
  assert.deepEqual(queued(s.state), ["second", "third"]);
  h.release(id);
  await first;
  await h.prompted(2);
  assert.equal(h.prompts[1]!.text, "second");
  assert.deepEqual(queued(s.state), ["third"]);
  h.release(id);
  await h.prompted(3);
  assert.equal(h.prompts[2]!.text, "third");
  assert.deepEqual(queued(s.state), []);
  h.release(id);
  await h.when(s, (st) => !st.running);
  assert.deepEqual(
    users(s.state).map((u) => u.text),
    ["first", "second", "third"],
  );
  // Persisted with the folder: a reload finds the same (here empty) queue.
  assert.deepEqual(h.stored.get(s.folder)?.items, []);
});

test("a cancelled turn leaves the queue alone; Send next sends the first", async () => {
  const h = await setup(1, { steering: false });
  const s = h.sessions[0]!;
  const { turn: turn } = await startTurn(h, s, "first");
  s.queue.add("second");
  await s.cancel();
  await turn;
  assert.equal(s.state.running, false);
  assert.deepEqual(queued(s.state), ["second"]);
  assert.equal(h.prompts.length, 1);
  void s.queue.sendNext();
  await h.prompted(2);
  assert.equal(h.prompts[1]!.text, "second");
  assert.deepEqual(queued(s.state), []);
  h.release(s.sessionId!);
  await h.when(s, (st) => !st.running);
});

test("a queue restored from storage is shown and not sent by itself", async () => {
  const stored = new Map<string, PromptQueue>();
  const h0 = await setup(1, { steering: false, stored });
  h0.sessions[0]!.queue.add("kept");
  const folder = h0.sessions[0]!.folder;
  const reloaded = new FolderSession(folder, "f0", {
    bindings: { get: () => undefined, set: () => undefined },
    queues: { get: (f) => stored.get(f), set: (f, q) => void stored.set(f, q) },
    editor: noEditor,
    terminalSandbox: async () => createNoSandbox({}, "none"),
  });
  made.push(reloaded);
  assert.deepEqual(queued(reloaded.state), ["kept"]);
  assert.equal(h0.prompts.length, 0);
});

test("I-104: a steer during a turn is injected into that turn and shown where the agent says it landed, not echoed", async () => {
  const h = await setup(1, { steering: true });
  const s = h.sessions[0]!;
  assert.equal(s.state.sessionFeatures.steer, true);
  const { turn: turn } = await startTurn(h, s, "first");
  s.queue.add("later");
  await s.queue.steer({ text: "use tabs" });
  assert.deepEqual(
    h.fake.steers.map((r) => [r.sessionId, r.prompt, r._meta]),
    [[s.sessionId, [{ type: "text", text: "use tabs" }], { steering: { idleBehavior: "promptRequired" } }]],
  );
  await h.when(s, (st) => users(st).length === 2);
  assert.deepEqual(
    users(s.state).map((u) => [u.text, u.steered ?? false]),
    [
      ["first", false],
      ["use tabs", true],
    ],
  );
  // A queued item steered by id leaves the queue.
  const later = s.state.queue[0]!;
  await s.queue.steer({ id: later.id });
  assert.deepEqual(queued(s.state), []);
  assert.equal(h.fake.steers.length, 2);
  h.release(s.sessionId!);
  await turn;
  await h.when(s, (st) => !st.running);
  assert.equal(h.prompts.length, 1, "an injected steer is not sent again as a prompt");
});

test("I-104: a steer answered promptRequired becomes the next prompt, ahead of the queue, even after a cancelled turn", async () => {
  const h = await setup(1, { steering: true });
  const s = h.sessions[0]!;
  const { turn: turn } = await startTurn(h, s, "first");
  s.queue.add("queued");
  h.fake.onSteer = async () => ({ outcome: "promptRequired", reason: "noRunningTurn" });
  await s.queue.steer({ text: "steer me" });
  assert.deepEqual(queued(s.state), ["steer me", "queued"]);
  await s.cancel();
  await turn;
  await h.prompted(2);
  assert.equal(h.prompts[1]!.text, "steer me");
  assert.deepEqual(queued(s.state), ["queued"]);
  h.release(s.sessionId!);
  await h.prompted(3);
  h.release(s.sessionId!);
  await h.when(s, (st) => !st.running);
});

test("I-104: a steer without a running turn is sent as a prompt; a failed steer goes back first in the queue with a notice", async () => {
  const h = await setup(1, { steering: true });
  const s = h.sessions[0]!;
  void s.queue.steer({ text: "idle steer" });
  await h.prompted(1);
  assert.equal(h.prompts[0]!.text, "idle steer");
  assert.equal(h.fake.steers.length, 0);
  h.fake.onSteer = async () => {
    throw new Error("boom");
  };
  await s.queue.steer({ text: "will fail" });
  assert.deepEqual(queued(s.state), ["will fail"]);
  assert.ok(s.state.entries.some((e) => e.kind === "notice" && e.text.includes("could not be sent into the running turn")));
  h.fake.onSteer = async () => ({ outcome: "injected" });
  h.release(s.sessionId!);
  await h.prompted(2);
  assert.equal(h.prompts[1]!.text, "will fail");
  h.release(s.sessionId!);
  await h.when(s, (st) => !st.running);
});

test("without steering support a steer queues instead and no _session/steering is sent", async () => {
  const h = await setup(1, { steering: false });
  const s = h.sessions[0]!;
  assert.equal(s.state.sessionFeatures.steer, false);
  const { turn: turn } = await startTurn(h, s, "first");
  await s.queue.steer({ text: "just queue" });
  assert.deepEqual(queued(s.state), ["just queue"]);
  assert.equal(h.fake.steers.length, 0);
  h.release(s.sessionId!, "end_turn");
  await turn;
  await h.prompted(2);
  h.release(s.sessionId!);
  await h.when(s, (st) => !st.running);
});

test("I-104: two folder sessions: a steer and a queue reach only their own session", async () => {
  const h = await setup(2, { steering: true });
  const [a, b] = h.sessions as [FolderSession, FolderSession];
  const { turn: ta } = await startTurn(h, a, "a1");
  const { turn: tb } = await startTurn(h, b, "b1");
  a.queue.add("a2");
  await a.queue.steer({ text: "steer a" });
  assert.deepEqual(
    h.fake.steers.map((r) => r.sessionId),
    [a.sessionId],
  );
  await h.when(a, (st) => users(st).some((u) => u.steered));
  assert.equal(
    users(b.state).some((u) => u.steered),
    false,
  );
  assert.deepEqual(queued(b.state), []);
  h.release(b.sessionId!);
  await tb;
  await h.when(b, (st) => !st.running);
  assert.equal(h.prompts.filter((p) => p.sessionId === b.sessionId).length, 1, "b's turn end sends nothing of a's queue");
  assert.deepEqual(queued(a.state), ["a2"]);
  h.release(a.sessionId!);
  await ta;
  await h.prompted(3);
  assert.equal(h.prompts.find((p) => p.text === "a2")?.sessionId, a.sessionId);
  h.release(a.sessionId!);
  await h.when(a, (st) => !st.running);
});
