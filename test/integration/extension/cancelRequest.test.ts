// Requests the client gives up on are cancelled with `$/cancel_request` (the SDK's cancellation signal):
// a `session/load` still replaying when its folder leaves the session, and a running prompt whose
// session is closed. The agent's handler sees its signal abort; the folder's state is as before.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { AcpClient } from "../../../extension/agent/acpClient";
import { noEditor } from "../../../extension/client/fileService";
import { FolderSession } from "../../../extension/sessions/folderSession";
import { createFakeAgent, type FakeAgent } from "./fakeAgent";
import { createNoSandbox } from "../../../sandbox/none";
import { ensureNoDisposablesAreLeaked } from "../../support/disposableLeaks";

const made: FolderSession[] = [];
ensureNoDisposablesAreLeaked({ cleanup: () => Promise.all(made.splice(0).map((s) => s.shutdown())) });

async function folder(fake: FakeAgent, bound?: string): Promise<{ s: FolderSession; client: AcpClient }> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "manifold-cancel-req-")));
  const dir = join(base, "alpha");
  mkdirSync(dir);
  const client = new AcpClient(fake.app);
  await client.initialize();
  const bindings = new Map<string, string>(bound ? [[dir, bound]] : []);
  const s = new FolderSession(dir, "alpha", {
    bindings: { get: (k) => bindings.get(k), set: (k, id) => void (id ? bindings.set(k, id) : bindings.delete(k)) },
    editor: noEditor,
    terminalSandbox: async () => createNoSandbox({}, "no terminals in this test"),
  });
  made.push(s);
  return { s, client };
}

/** Resolves when `signal` aborts. */
const aborted = (signal: AbortSignal) => new Promise<void>((r) => signal.addEventListener("abort", () => r(), { once: true }));

test("a session/load still running when the folder leaves the session is cancelled with $/cancel_request", async () => {
  // A sign-in method only to have a request to make after the dispose: messages arrive in order.
  const fake = createFakeAgent({ loadSession: true }, { auth: { methods: [{ id: "ping", name: "Ping", type: "agent" }], signedIn: true } });
  let loading!: () => void;
  const started = new Promise<void>((r) => (loading = r));
  fake.onLoad = async (_params, _client, signal) => {
    loading();
    await aborted(signal);
  };
  const { s, client } = await folder(fake, "old-session");
  const attach = s.attach(client, { restart: false }).catch((err: unknown) => err);
  await started;
  assert.deepEqual(fake.requestCancels, []);
  s.dispose();
  await client.authenticate("ping");
  const seen = [...fake.requestCancels];
  client.close(); // ends a load nobody cancelled, so that a broken client fails here instead of hanging
  await attach;
  assert.deepEqual(seen, ["session/load"]);
});

test("the prompt of a session the folder closes is cancelled with $/cancel_request; a finished one is not", async () => {
  const fake = createFakeAgent({ sessionCapabilities: { close: {} } });
  const { s, client } = await folder(fake);
  await s.attach(client, { restart: false });
  await s.prompt([{ type: "text", text: "quick" }], { text: "quick", attachments: [] });
  assert.deepEqual(fake.requestCancels, [], "an answered prompt is not cancelled");
  let running!: () => void;
  const started = new Promise<void>((r) => (running = r));
  // An agent that ignores session/cancel: the turn ends only because the client gave its prompt up.
  fake.onPrompt = async ({ request }) => {
    running();
    await aborted(request);
    return "cancelled";
  };
  const turn = s.prompt([{ type: "text", text: "long" }], { text: "long", attachments: [] });
  await started;
  await s.close(); // its session/close is answered after the cancel was read: messages arrive in order
  const seen = [...fake.requestCancels];
  client.close(); // ends a prompt nobody cancelled, so that a broken client fails here instead of hanging
  await turn;
  assert.deepEqual(seen, ["session/prompt"]);
});
