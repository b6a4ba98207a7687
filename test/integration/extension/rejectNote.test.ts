// "Reject with a note…": the folder session's broker answers the agent's reject option and carries the
// user's note in `_meta["manifold.dev/note"]`, to the session that asked only. An allow never carries a
// note, and an empty one is a plain reject.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { AcpClient } from "../../../extension/agent/acpClient";
import { noEditor } from "../../../extension/client/fileService";
import { FolderSession } from "../../../extension/sessions/folderSession";
import type { PermissionEntry, TranscriptState } from "../../../extension/common/transcript";
import { askPermission, createFakeAgent, type FakeAgent } from "./fakeAgent";
import { stateWaiters } from "./stateWaiters";
import { createNoSandbox } from "../../../sandbox/none";
import { ensureNoDisposablesAreLeaked } from "../../support/disposableLeaks";

const made: FolderSession[] = [];
ensureNoDisposablesAreLeaked({ cleanup: () => Promise.all(made.splice(0).map((s) => s.shutdown())) });

function permissions(st: TranscriptState): PermissionEntry[] {
  return st.entries.filter((e): e is PermissionEntry => e.kind === "permission");
}

/** Two folder sessions on one fake agent whose every prompt asks one permission and ends. */
async function twoSessions(): Promise<{
  fake: FakeAgent;
  sessions: [FolderSession, FolderSession];
  waiters: ReturnType<typeof stateWaiters>;
}> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "manifold-note-")));
  const folders = [join(base, "alpha"), join(base, "beta")];
  for (const f of folders) mkdirSync(f);
  const fake = createFakeAgent({});
  const client = new AcpClient(fake.app);
  await client.initialize();
  const waiters = stateWaiters();
  const bindings = new Map<string, string>();
  const sessions = folders.map((f) => {
    const s = new FolderSession(f, f.split("/").pop() ?? f, {
      bindings: { get: (k) => bindings.get(k), set: (k, id) => void (id ? bindings.set(k, id) : bindings.delete(k)) },
      editor: noEditor,
      terminalSandbox: async () => createNoSandbox({}, "no terminals in this test"),
    });
    made.push(s);
    s.onDidEmit(() => waiters.changed(s));
    return s;
  }) as [FolderSession, FolderSession];
  for (const s of sessions) await s.attach(client, { restart: false });
  fake.onPrompt = async ({ params, client: c }) => {
    await askPermission(fake, c, params.sessionId, `tool-${params.sessionId}`);
    return "end_turn";
  };
  return { fake, sessions, waiters };
}

test("I-93: a rejection with a note answers the reject option with the note in _meta, to the asking session only", async () => {
  const { fake, sessions, waiters } = await twoSessions();
  const [sa, sb] = sessions;
  const turns = sessions.map((s) => s.prompt([{ type: "text", text: "go" }], { text: "go", attachments: [] }));
  await waiters.when(sa, (st) => permissions(st).length === 1);
  await waiters.when(sb, (st) => permissions(st).length === 1);
  const aReq = permissions(sa.state)[0]!.requestId;
  const bReq = permissions(sb.state)[0]!.requestId;
  // B's panel cannot reject A's request, note or not.
  assert.equal(sb.answerPermission(aReq, "reject", "not from here"), false);
  assert.equal(sa.answerPermission(aReq, "reject", "Use the staging database instead."), true);
  // A note sent with an allow is dropped: an allow has nothing to explain.
  assert.equal(sb.answerPermission(bReq, "allow", "stray"), true);
  await Promise.all(turns);
  // Keyed by session: the two agents' answers may arrive in either order.
  const [aId, bId] = [sa.sessionId, sb.sessionId];
  assert.ok(aId !== undefined && bId !== undefined);
  assert.deepEqual(Object.fromEntries(fake.permissionAnswers.map((x) => [x.sessionId, x.response])), {
    [aId]: {
      outcome: { outcome: "selected", optionId: "reject" },
      _meta: { "manifold.dev/note": "Use the staging database instead." },
    },
    [bId]: { outcome: { outcome: "selected", optionId: "allow" } },
  });
  assert.equal(permissions(sa.state)[0]!.outcome?.state, "selected");
});

test("I-93: an empty note is a plain reject, with no _meta", async () => {
  const { fake, sessions, waiters } = await twoSessions();
  const [sa] = sessions;
  const turn = sa.prompt([{ type: "text", text: "go" }], { text: "go", attachments: [] });
  await waiters.when(sa, (st) => permissions(st).length === 1);
  assert.equal(sa.answerPermission(permissions(sa.state)[0]!.requestId, "reject", ""), true);
  await turn;
  assert.deepEqual(
    fake.permissionAnswers.map((x) => x.response),
    [{ outcome: { outcome: "selected", optionId: "reject" } }],
  );
});
