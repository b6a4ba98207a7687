// What the client offers an agent in `initialize`, and holds it to: an agent entry with
// `clientFs`/`clientTerminal` false is neither offered nor served `fs/*`/`terminal/*` (it runs
// elsewhere), and boolean config options are offered and set with a boolean value.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import * as acp from "@agentclientprotocol/sdk";
import { AcpClient, type ClientOffer } from "../../../extension/agent/acpClient";
import { noEditor } from "../../../extension/client/fileService";
import { FolderSession } from "../../../extension/sessions/folderSession";
import { parseWebviewMessage } from "../../../extension/common/webviewMessages";
import { createFakeAgent, type FakeAgent } from "./fakeAgent";
import { createNoSandbox } from "../../../sandbox/none";
import { ensureNoDisposablesAreLeaked } from "../../support/disposableLeaks";

const made: FolderSession[] = [];
ensureNoDisposablesAreLeaked({ cleanup: () => Promise.all(made.splice(0).map((s) => s.shutdown())) });

async function attached(
  offer?: ClientOffer,
  configOptions: acp.SessionConfigOption[] = [],
): Promise<{ fake: FakeAgent; session: FolderSession; file: string }> {
  const folder = join(realpathSync(mkdtempSync(join(tmpdir(), "manifold-offer-"))), "ws");
  mkdirSync(folder);
  const file = join(folder, "a.txt");
  writeFileSync(file, "hello\n");
  const fake = createFakeAgent();
  fake.configOptions = configOptions;
  const client = new AcpClient(fake.app, undefined, offer);
  await client.initialize();
  const m = new Map<string, string>();
  const session = new FolderSession(folder, "ws", {
    bindings: { get: (f: string) => m.get(f), set: (f: string, id: string | undefined) => void (id ? m.set(f, id) : m.delete(f)) },
    editor: noEditor,
    terminalSandbox: async () => createNoSandbox({}, "no terminals in this test"),
  });
  made.push(session);
  await session.attach(client, { restart: false });
  return { fake, session, file };
}

async function errorOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "ok";
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

test("by default fs and terminals are offered and an fs/read_text_file is served", async () => {
  const { fake, session, file } = await attached();
  assert.deepEqual(fake.clientCapabilities?.fs, { readTextFile: true, writeTextFile: true });
  assert.equal(fake.clientCapabilities?.terminal, true);
  const sessionId = session.sessionId ?? "";
  const res = await fake.client().request(acp.methods.client.fs.readTextFile, { sessionId, path: file });
  assert.equal(res.content, "hello\n");
});

test("an agent entry with clientFs and clientTerminal false is offered neither, and its fs/terminal requests are refused", async () => {
  const { fake, session, file } = await attached({ fs: false, terminal: false });
  assert.deepEqual(fake.clientCapabilities?.fs, { readTextFile: false, writeTextFile: false });
  assert.equal(fake.clientCapabilities?.terminal, false);
  const sessionId = session.sessionId ?? "";
  const ctx = fake.client();
  const read = await errorOf(ctx.request(acp.methods.client.fs.readTextFile, { sessionId, path: file }));
  assert.match(read, /did not offer fs\/\* to this agent \(clientFs is false/);
  const write = await errorOf(ctx.request(acp.methods.client.fs.writeTextFile, { sessionId, path: file, content: "x" }));
  assert.match(write, /clientFs is false/);
  const term = await errorOf(ctx.request(acp.methods.client.terminal.create, { sessionId, command: "echo", args: ["hi"] }));
  assert.match(term, /did not offer terminal\/\* to this agent \(clientTerminal is false/);
});

test("only terminals withheld: fs is still offered and served", async () => {
  const { fake, session, file } = await attached({ terminal: false });
  assert.deepEqual(fake.clientCapabilities?.fs, { readTextFile: true, writeTextFile: true });
  assert.equal(fake.clientCapabilities?.terminal, false);
  const res = await fake.client().request(acp.methods.client.fs.readTextFile, { sessionId: session.sessionId ?? "", path: file });
  assert.equal(res.content, "hello\n");
});

const FAST: acp.SessionConfigOption = {
  id: "fast",
  name: "Fast mode",
  description: "Answer quickly",
  type: "boolean",
  currentValue: false,
};
const MODEL: acp.SessionConfigOption = {
  id: "model",
  name: "Model",
  type: "select",
  currentValue: "m1",
  options: [
    { value: "m1", name: "One" },
    { value: "m2", name: "Two" },
  ],
};

test("boolean config options are advertised; toggling one sends session/set_config_option with a boolean value", async () => {
  const { fake, session } = await attached(undefined, [FAST, MODEL]);
  assert.deepEqual(fake.clientCapabilities?.session?.configOptions, { boolean: {} });
  assert.deepEqual(session.state.configOptions, [FAST, MODEL]);
  // The panel's checkbox posts this message; the host parses it before acting on it.
  const msg = parseWebviewMessage({ type: "config/set", configId: "fast", value: true });
  assert.ok(msg?.type === "config/set");
  await session.setConfigOption(msg.configId, msg.value);
  assert.deepEqual(fake.configSets, [{ sessionId: session.sessionId, configId: "fast", type: "boolean", value: true }]);
  assert.deepEqual(
    session.state.configOptions.find((o) => o.id === "fast"),
    { ...FAST, currentValue: true },
  );
});

test("a value of the wrong type for a config option is refused before anything is sent", async () => {
  const { fake, session } = await attached(undefined, [FAST, MODEL]);
  assert.match(await errorOf(session.setConfigOption("fast", "yes")), /"fast" takes a true\/false value/);
  assert.match(await errorOf(session.setConfigOption("model", true)), /"model" takes a choice value/);
  assert.match(await errorOf(session.setConfigOption("nope", true)), /no config option "nope"/);
  assert.deepEqual(fake.configSets, []);
});
