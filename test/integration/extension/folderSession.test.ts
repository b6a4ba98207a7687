import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import * as acp from "@agentclientprotocol/sdk";
import { AcpClient } from "../../../extension/agent/acpClient";
import { noEditor } from "../../../extension/client/fileService";
import { FolderSession } from "../../../extension/sessions/folderSession";
import { permissionState, type PermissionEntry, type TranscriptState } from "../../../extension/common/transcript";
import { askPermission, createFakeAgent, type FakeAgent } from "./fakeAgent";
import { stateWaiters } from "./stateWaiters";
import { createNoSandbox } from "../../../sandbox/none";
import { ensureNoDisposablesAreLeaked } from "../../support/disposableLeaks";

/** Every FolderSession a test makes; disposed after it, before the leak check. */
const made: FolderSession[] = [];
function folderSession(...args: ConstructorParameters<typeof FolderSession>): FolderSession {
  const s = new FolderSession(...args);
  made.push(s);
  return s;
}
ensureNoDisposablesAreLeaked({ cleanup: () => Promise.all(made.splice(0).map((s) => s.shutdown())) });

const editor = noEditor;

function memoryBindings() {
  const m = new Map<string, string>();
  return { get: (f: string) => m.get(f), set: (f: string, id: string | undefined) => void (id ? m.set(f, id) : m.delete(f)) };
}

interface Harness {
  fake: FakeAgent;
  client: AcpClient;
  sessions: FolderSession[];
  /** Resolves when `pred(session)` holds; checked on every change of that session. */
  when(s: FolderSession, pred: (st: TranscriptState) => boolean): Promise<void>;
}

async function setup(folders: string[], caps: acp.AgentCapabilities = {}): Promise<Harness> {
  const fake = createFakeAgent(caps);
  const client = new AcpClient(fake.app);
  await client.initialize();
  const waiters = stateWaiters();
  const bindings = memoryBindings();
  const sessions = folders.map((f) =>
    folderSession(f, f.split("/").pop() ?? f, {
      bindings,
      editor,
      terminalSandbox: async () => createNoSandbox({}, "no terminals in this test"),
    }),
  );
  for (const s of sessions) s.onDidEmit(() => waiters.changed(s));
  for (const s of sessions) await s.attach(client, { restart: false });
  return {
    fake,
    client,
    sessions,
    when: waiters.when,
  };
}

function permissions(st: TranscriptState): PermissionEntry[] {
  return st.entries.filter((e): e is PermissionEntry => e.kind === "permission");
}

function dirs(): string[] {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "manifold-fs-")));
  return [join(base, "alpha"), join(base, "beta")];
}

test("I-92: each folder gets its own session with its own absolute path as cwd and no additionalDirectories", async () => {
  const [a, b] = dirs() as [string, string];
  const h = await setup([a, b]);
  assert.deepEqual(h.fake.newSessions, [{ cwd: a }, { cwd: b }]);
  assert.notEqual(h.sessions[0]!.sessionId, h.sessions[1]!.sessionId);
});

test("I-90: cancel answers every pending permission request of the session `cancelled` and marks unfinished tools cancelled", async () => {
  const [a] = dirs() as [string];
  const h = await setup([a]);
  const s = h.sessions[0]!;
  h.fake.onPrompt = async ({ params, client, cancelled }) => {
    await client.notify(acp.methods.client.session.update, {
      sessionId: params.sessionId,
      update: { sessionUpdate: "tool_call", toolCallId: "t1", title: "rm -rf build", kind: "execute", status: "pending" },
    });
    const answers = await Promise.all([
      askPermission(h.fake, client, params.sessionId, "t1"),
      askPermission(h.fake, client, params.sessionId, "t2"),
    ]);
    return cancelled.aborted && answers.every((r) => r.outcome.outcome === "cancelled") ? "cancelled" : "end_turn";
  };
  const turn = s.prompt([{ type: "text", text: "clean up" }], { text: "clean up", attachments: [] });
  await h.when(s, (st) => permissions(st).filter((p) => permissionState(st, p).state === "pending").length === 2);
  assert.equal(s.activity, "needs-approval");
  await s.cancel();
  await turn;
  assert.deepEqual(h.fake.permissionAnswers, [
    { sessionId: s.sessionId, response: { outcome: { outcome: "cancelled" } } },
    { sessionId: s.sessionId, response: { outcome: { outcome: "cancelled" } } },
  ]);
  assert.deepEqual(
    permissions(s.state).map((p) => p.outcome),
    [{ state: "cancelled" }, { state: "cancelled" }],
  );
  const tool = s.state.entries.find((e) => e.kind === "tool");
  assert.equal(tool?.kind === "tool" ? tool.status : undefined, "cancelled");
  assert.equal(s.state.running, false);
  assert.equal(s.pending.length, 0);
});

test("I-93: permission requests of two sessions reach only their own panel model, and dismissal never grants", async () => {
  const [a, b] = dirs() as [string, string];
  const h = await setup([a, b]);
  const [sa, sb] = h.sessions as [FolderSession, FolderSession];
  h.fake.onPrompt = async ({ params, client }) => {
    await askPermission(h.fake, client, params.sessionId, `tool-${params.sessionId}`);
    return "end_turn";
  };
  const turns = [
    sa.prompt([{ type: "text", text: "a" }], { text: "a", attachments: [] }),
    sb.prompt([{ type: "text", text: "b" }], { text: "b", attachments: [] }),
  ];
  await h.when(sa, (st) => permissions(st).length === 1);
  await h.when(sb, (st) => permissions(st).length === 1);
  assert.deepEqual(
    permissions(sa.state).map((p) => p.toolCallId),
    [`tool-${sa.sessionId}`],
  );
  assert.deepEqual(
    permissions(sb.state).map((p) => p.toolCallId),
    [`tool-${sb.sessionId}`],
  );
  // A's card cannot be answered from B's panel.
  const aReq = permissions(sa.state)[0]!.requestId;
  const bReq = permissions(sb.state)[0]!.requestId;
  assert.notEqual(aReq, bReq);
  assert.equal(sb.answerPermission(aReq, "allow"), false);
  // Dismissing answers the agent's reject option; closing B's panel (close) dismisses too.
  assert.equal(sa.dismissPermission(aReq), true);
  await sb.close();
  await Promise.all(turns);
  assert.deepEqual(
    h.fake.permissionAnswers.map((x) => x.response),
    [{ outcome: { outcome: "selected", optionId: "reject" } }, { outcome: { outcome: "selected", optionId: "reject" } }],
  );
});

test("I-93: dismissing a request that offers no reject option answers `cancelled`", async () => {
  const [a] = dirs() as [string];
  const h = await setup([a]);
  const s = h.sessions[0]!;
  let answer: acp.RequestPermissionResponse | undefined;
  h.fake.onPrompt = async ({ params, client }) => {
    answer = await client.request(acp.methods.client.session.requestPermission, {
      sessionId: params.sessionId,
      toolCall: { toolCallId: "t", title: "write" },
      options: [{ optionId: "ok", name: "Allow", kind: "allow_once" }],
    });
    return "end_turn";
  };
  const turn = s.prompt([{ type: "text", text: "x" }], { text: "x", attachments: [] });
  await h.when(s, (st) => permissions(st).length === 1);
  s.dismissPermission(permissions(s.state)[0]!.requestId);
  await turn;
  assert.deepEqual(answer, { outcome: { outcome: "cancelled" } });
});

test("I-94: an fs/* request refused outside the folder is said in that folder's panel only, even when the agent swallows the error", async () => {
  const [a, b] = dirs() as [string, string];
  mkdirSync(a);
  mkdirSync(b);
  const h = await setup([a, b]);
  const [sa, sb] = h.sessions as [FolderSession, FolderSession];
  h.fake.onPrompt = async ({ params, client }) => {
    // Like opencode: the write is handed to the client, and the refusal is not passed on to the user.
    await client
      .request(acp.methods.client.fs.writeTextFile, { sessionId: params.sessionId, path: join(a, "..", "outside.txt"), content: "x" })
      .catch(() => undefined);
    return "end_turn";
  };
  await sa.prompt([{ type: "text", text: "x" }], { text: "x", attachments: [] });
  const notices = (st: TranscriptState) => st.entries.flatMap((e) => (e.kind === "notice" ? [e.text] : []));
  const refused = notices(sa.state).filter((t) => t.startsWith("Manifold refused"));
  assert.equal(refused.length, 1, notices(sa.state).join("\n"));
  assert.match(refused[0]!, /^Manifold refused the agent's write of \S+\/outside\.txt: .*outside/);
  assert.deepEqual(notices(sb.state), []);
});

test("I-91: an update the agent sends for an unknown session id changes no folder's model", async () => {
  const [a, b] = dirs() as [string, string];
  const h = await setup([a, b]);
  const before = h.sessions.map((s) => s.state);
  await h.fake.client().notify(acp.methods.client.session.update, {
    sessionId: "not-a-session",
    update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hijack" } },
  });
  // A real update for session A, sent after, proves the unknown one was processed first.
  await h.fake.client().notify(acp.methods.client.session.update, {
    sessionId: h.sessions[0]!.sessionId!,
    update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hello" } },
  });
  await h.when(h.sessions[0]!, (st) => st.entries.length === 1);
  assert.equal(h.sessions[1]!.state, before[1]);
  assert.deepEqual(
    h.sessions[0]!.state.entries.map((e) => (e.kind === "agent" ? e.text : e.kind)),
    ["hello"],
  );
  assert.equal(h.client.router.droppedCount, 1);
});

test("I-95: after an agent restart a folder with history re-attaches by session/resume to its own session", async () => {
  const [a, b] = dirs() as [string, string];
  const h = await setup([a, b], { loadSession: true, sessionCapabilities: { resume: {} } });
  const ids = h.sessions.map((s) => s.sessionId);
  h.fake.onPrompt = async ({ params, client }) => {
    await client.notify(acp.methods.client.session.update, {
      sessionId: params.sessionId,
      update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `answer for ${params.sessionId}` } },
    });
    return "end_turn";
  };
  for (const s of h.sessions) await s.prompt([{ type: "text", text: "q" }], { text: "q", attachments: [] });
  // The process dies: a new agent connection, same persisted bindings.
  for (const s of h.sessions) s.agentDied("killed");
  const fake2 = createFakeAgent({ loadSession: true, sessionCapabilities: { resume: {} } });
  const client2 = new AcpClient(fake2.app);
  await client2.initialize();
  for (const s of h.sessions) await s.attach(client2, { restart: true });
  assert.deepEqual(
    h.sessions.map((s) => s.sessionId),
    ids,
  );
  assert.deepEqual(fake2.calls, ["session/resume", "session/resume"]);
  assert.deepEqual(
    h.sessions.map((s) => s.state.entries.filter((e) => e.kind === "agent").map((e) => (e.kind === "agent" ? e.text : ""))),
    ids.map((id) => [`answer for ${id}`]),
  );
});

test("a panel that read its state before the agent connected learns the agent's name through an event", async () => {
  const [a] = dirs() as [string];
  const fake = createFakeAgent({});
  const client = new AcpClient(fake.app);
  await client.initialize();
  const s = folderSession(a, "alpha", {
    bindings: memoryBindings(),
    editor,
    terminalSandbox: async () => createNoSandbox({}, "no terminals in this test"),
  });
  // The panel's view: the snapshot it read once, then only the events it is sent.
  let view = s.state;
  const { reduceTranscript } = await import("../../../extension/common/transcript");
  s.onDidEmit((events) => {
    for (const ev of events) view = reduceTranscript(view, ev);
  });
  assert.equal(view.agentName, "");
  await s.attach(client, { restart: false });
  assert.ok(client.agentName.length > 0);
  assert.equal(view.agentName, client.agentName);
});

test("an edit reaches the panel as a summary: no event or snapshot carries its texts; Open diff gets them from the host by id", async () => {
  const [a] = dirs() as [string];
  const h = await setup([a]);
  const s = h.sessions[0]!;
  const posted: unknown[] = [];
  s.onDidEmit((events) => posted.push(...events));
  const oldText = "OLD-LINE-1\nOLD-LINE-2";
  const newText = "NEW-LINE-1\nNEW-LINE-2\nNEW-LINE-3";
  h.fake.onPrompt = async ({ params, client }) => {
    const update = (u: acp.SessionUpdate) => client.notify(acp.methods.client.session.update, { sessionId: params.sessionId, update: u });
    await update({
      sessionUpdate: "tool_call",
      toolCallId: "t1",
      title: "edit a.ts",
      kind: "edit",
      status: "pending",
      rawInput: { path: "a.ts", old_string: oldText, new_string: newText },
    });
    await update({
      sessionUpdate: "tool_call_update",
      toolCallId: "t1",
      status: "completed",
      content: [{ type: "diff", path: join(a, "a.ts"), oldText, newText }],
      rawOutput: { output: newText },
    });
    return "end_turn";
  };
  await s.prompt([{ type: "text", text: "edit" }], { text: "edit", attachments: [] });
  const seen = JSON.stringify({ posted, snapshot: s.state });
  for (const leaked of ["OLD-LINE", "NEW-LINE", "oldText", "newText"]) assert.ok(!seen.includes(leaked), `the webview would see ${leaked}`);
  const tool = s.state.entries.find((e) => e.kind === "tool");
  assert.deepEqual(tool?.kind === "tool" ? tool.content : undefined, [
    { type: "diff", path: join(a, "a.ts"), newFile: false, linesBefore: 2, linesAfter: 3 },
  ]);
  assert.deepEqual(await s.diff("t1", 0), { path: join(a, "a.ts"), oldText, newText });
  assert.equal(await s.diff("t1", 1), undefined);
});

test("the permission broker owns which requests are pending: the panel model's list is the broker's at every change", async () => {
  const [a] = dirs() as [string];
  const h = await setup([a]);
  const s = h.sessions[0]!;
  const mismatches: string[] = [];
  s.onDidEmit(() => {
    const broker = s.pending.map((p) => p.requestId);
    if (JSON.stringify(broker) !== JSON.stringify(s.state.pendingPermissions)) mismatches.push(`${broker} ≠ ${s.state.pendingPermissions}`);
  });
  h.fake.onPrompt = async ({ params, client }) => {
    await Promise.all([askPermission(h.fake, client, params.sessionId, "t1"), askPermission(h.fake, client, params.sessionId, "t2")]);
    return "end_turn";
  };
  const turn = s.prompt([{ type: "text", text: "go" }], { text: "go", attachments: [] });
  await h.when(s, (st) => st.pendingPermissions.length === 2);
  const [first, second] = s.state.pendingPermissions as [string, string];
  assert.equal(s.answerPermission(first, "allow"), true);
  assert.deepEqual(s.state.pendingPermissions, [second]);
  assert.equal(s.dismissPermission(second), true);
  await turn;
  assert.deepEqual(s.state.pendingPermissions, []);
  assert.deepEqual(
    permissions(s.state).map((p) => permissionState(s.state, p).state),
    ["selected", "selected"],
  );
  assert.deepEqual(mismatches, []);
});

test("the panel's view (its one snapshot, then only events) stays equal to the host's state: status, agent name, running, pending requests", async () => {
  const [a] = dirs() as [string];
  const fake = createFakeAgent({});
  const client = new AcpClient(fake.app);
  await client.initialize();
  const s = folderSession(a, "alpha", {
    bindings: memoryBindings(),
    editor,
    terminalSandbox: async () => createNoSandbox({}, "no terminals in this test"),
  });
  const { reduceTranscript } = await import("../../../extension/common/transcript");
  let view = s.state;
  s.onDidEmit((events) => {
    for (const ev of events) view = reduceTranscript(view, ev);
  });
  const same = (when: string) => assert.deepEqual(view, s.state, `the panel's view drifted ${when}`);
  s.setStatus("starting");
  await s.attach(client, { restart: false });
  s.setStatus("ready");
  same("after attach");
  let pendingSeen!: () => void;
  const asked = new Promise<void>((r) => (pendingSeen = r));
  s.onDidEmit((events) => events.some((e) => e.type === "permission/requested") && pendingSeen());
  fake.onPrompt = async ({ params, client: c }) => {
    await c.notify(acp.methods.client.session.update, {
      sessionId: params.sessionId,
      update: { sessionUpdate: "tool_call", toolCallId: "t1", title: "make", kind: "execute", status: "pending" },
    });
    await askPermission(fake, c, params.sessionId, "t1");
    return "cancelled";
  };
  const turn = s.prompt([{ type: "text", text: "build" }], { text: "build", attachments: [] });
  await asked;
  same("with a turn running and a request pending");
  assert.deepEqual({ running: view.running, pending: view.pendingPermissions.length }, { running: true, pending: 1 });
  await s.cancel();
  await turn;
  same("after the cancelled turn");
  s.agentDied("killed");
  s.setStatus("restarting", "the agent exited");
  same("after the agent died");
});

test("a closed panel's session, opened again, resumes with the transcript the host kept: no replay, nothing lost", async () => {
  const [a] = dirs() as [string];
  const h = await setup([a], { loadSession: true, sessionCapabilities: { resume: {}, close: {} } });
  const [s] = h.sessions as [FolderSession];
  const id = s.sessionId;
  h.fake.onPrompt = async ({ params, client }) => {
    await client.notify(acp.methods.client.session.update, {
      sessionId: params.sessionId,
      update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "kept answer" } },
    });
    return "end_turn";
  };
  await s.prompt([{ type: "text", text: "q" }], { text: "q", attachments: [] });
  await s.close();
  assert.equal(s.sessionId, undefined, "closed: detached");
  h.fake.calls.length = 0;
  await s.attach(h.client, { restart: false });
  assert.equal(s.sessionId, id);
  assert.deepEqual(h.fake.calls, ["session/resume"], "resumed, not loaded again");
  assert.deepEqual(
    s.state.entries.map((e) => (e.kind === "user" || e.kind === "agent" ? `${e.kind}: ${e.text}` : e.kind)),
    ["user: q", "agent: kept answer"],
  );
  // Another session of the folder has no history here: switching to it loads it.
  await s.newSession();
  const other = s.sessionId;
  assert.ok(other && other !== id);
  h.fake.calls.length = 0;
  await s.switchTo(id as string);
  assert.deepEqual(
    h.fake.calls.filter((c) => c !== "session/close"),
    ["session/load"],
  );
});
