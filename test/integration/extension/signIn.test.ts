// Sign-in against the in-process fake agent, which answers `auth_required` to session/new
// and session/load until it is signed in: the owning panel's card, then each kind of method —
// agent-run (`authenticate`, then the session), env-var (values stored, agent restarted) and terminal
// (the agent's command in a terminal, a zero exit restarts it). And switching agents keeps the
// transcript under a divider, with a running turn cancelled and said so.
import assert from "node:assert/strict";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { AcpClient } from "../../../extension/agent/acpClient";
import { noEditor } from "../../../extension/client/fileService";
import { FolderSession } from "../../../extension/sessions/folderSession";
import { signIn, type SignInIO, type TerminalAuthMethod } from "../../../extension/sessions/signIn";
import { createNoSandbox } from "../../../sandbox/none";
import { ensureNoDisposablesAreLeaked } from "../../support/disposableLeaks";
import { createFakeAgent, type FakeAgent, type FakeAuth } from "./fakeAgent";
import { stateWaiters } from "./stateWaiters";

const made: FolderSession[] = [];
ensureNoDisposablesAreLeaked({ cleanup: () => Promise.all(made.splice(0).map((s) => s.shutdown())) });

const LOGIN = { id: "login", name: "Log in" };
const ENV = { type: "env_var", id: "api-key", name: "Use FAKE_API_KEY", vars: [{ name: "FAKE_API_KEY" }] };
const TUI = { type: "terminal", id: "tui", name: "Sign in in a terminal", args: ["--login"], env: { FAKE_LOGIN: "1" } };

async function connect(auth: FakeAuth): Promise<{ fake: FakeAgent; client: AcpClient }> {
  const fake = createFakeAgent({}, { auth });
  const client = new AcpClient(fake.app);
  await client.initialize();
  return { fake, client };
}

const bases: string[] = [];
after(() => {
  for (const base of bases.splice(0)) rmSync(base, { recursive: true, force: true });
});

function folders(): [string, string] {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "manifold-auth-")));
  bases.push(base);
  return [join(base, "alpha"), join(base, "beta")];
}

type Bindings = ConstructorParameters<typeof FolderSession>[2]["bindings"];

function memoryBindings(): Bindings {
  const m = new Map<string, string>();
  return { get: (f) => m.get(f), set: (f, id) => void (id ? m.set(f, id) : m.delete(f)) };
}

function folderSession(folder: string, bindings: Bindings = memoryBindings()): FolderSession {
  const s = new FolderSession(folder, folder.split("/").pop() ?? folder, {
    bindings,
    editor: noEditor,
    terminalSandbox: async () => createNoSandbox({}, "no terminals in this test"),
  });
  made.push(s);
  return s;
}

/** The editor half, scripted: what the user types, what the terminal exits with, restarts on a signed-in agent. */
function scriptedIO(o: { value?: string; exitCode?: number; restartOnto?: FolderSession[] }) {
  const log = { stored: [] as Record<string, string>[], terminals: [] as TerminalAuthMethod[], restarts: 0 };
  const io: SignInIO = {
    askValue: async () => o.value,
    storeValues: async (v) => void log.stored.push(v),
    runInTerminal: async (m) => (log.terminals.push(m), o.exitCode),
    restartAgent: async () => {
      log.restarts++;
      // Like AgentHost.restart + WindowAgent: a new process (now signed in), every open panel attaches.
      const { client } = await connect({ methods: [LOGIN, ENV, TUI], signedIn: true });
      for (const s of o.restartOnto ?? []) await s.attach(client, { restart: true });
    },
  };
  return { io, log };
}

test("auth_required on session/new shows the agent's sign-in methods as a card in the owning panel, not an error", async () => {
  const { fake, client } = await connect({ methods: [LOGIN, ENV, TUI, { type: "oauth-magic", id: "x", name: "unknown kind" }] });
  const [a] = folders();
  const alpha = folderSession(a);
  await alpha.attach(client, { restart: false, builtin: false });
  assert.deepEqual(
    {
      bound: alpha.sessionId,
      methods: alpha.state.auth?.methods.map((m) => `${m.kind}:${m.id}`),
      errors: alpha.state.entries.filter((e) => e.kind === "notice" && e.severity === "error").length,
    },
    { bound: undefined, methods: ["agent:login", "env_var:api-key", "terminal:tui"], errors: 0 },
  );
  assert.equal(fake.clientCapabilities?.auth?.terminal, true, "terminal methods are run, so auth.terminal is advertised");
});

test("an agent-run method calls authenticate and retries the session; only the panel that asked is signed in", async () => {
  const { fake, client } = await connect({ methods: [LOGIN] });
  const [a, b] = folders();
  const alpha = folderSession(a);
  const beta = folderSession(b);
  await alpha.attach(client, { restart: false });
  await beta.attach(client, { restart: false });
  const { io } = scriptedIO({});
  await signIn(alpha, "login", io);
  assert.deepEqual(
    { calls: fake.calls, alpha: [Boolean(alpha.sessionId), alpha.state.auth], beta: [beta.sessionId, Boolean(beta.state.auth)] },
    {
      calls: ["session/new", "session/new", "authenticate login", "session/new"],
      alpha: [true, undefined],
      beta: [undefined, true],
    },
  );
});

test("an agent-run method that fails says so on the card and keeps it", async () => {
  const { client } = await connect({ methods: [LOGIN, TUI] });
  const [a] = folders();
  const alpha = folderSession(a);
  await alpha.attach(client, { restart: false });
  // A terminal method is the client's to run: never passed to authenticate.
  await assert.rejects(client.authenticate("tui"), /not a sign-in method the agent runs itself/);
  await signIn(alpha, "nope", scriptedIO({}).io);
  assert.equal(alpha.state.auth?.busy, undefined);
  assert.equal(alpha.sessionId, undefined);
});

test("an env-var method asks for the value, stores it and restarts the agent; the panel then gets its session", async () => {
  const { client } = await connect({ methods: [ENV] });
  const [a] = folders();
  const alpha = folderSession(a);
  await alpha.attach(client, { restart: false });
  const { io, log } = scriptedIO({ value: "s3cret", restartOnto: [alpha] });
  await signIn(alpha, "api-key", io);
  assert.deepEqual(
    { stored: log.stored, restarts: log.restarts, bound: Boolean(alpha.sessionId), card: alpha.state.auth },
    { stored: [{ FAKE_API_KEY: "s3cret" }], restarts: 1, bound: true, card: undefined },
  );
});

test("an env-var method the user cancels stores nothing, restarts nothing and leaves the card", async () => {
  const { client } = await connect({ methods: [ENV] });
  const [a] = folders();
  const alpha = folderSession(a);
  await alpha.attach(client, { restart: false });
  const { io, log } = scriptedIO({ value: undefined, restartOnto: [alpha] });
  await signIn(alpha, "api-key", io);
  assert.deepEqual(
    { stored: log.stored, restarts: log.restarts, card: alpha.state.auth?.methods.length, busy: alpha.state.auth?.busy },
    { stored: [], restarts: 0, card: 1, busy: undefined },
  );
});

test("a terminal method runs the agent's command with the method's args; exit 0 restarts the agent, another exit keeps the card", async () => {
  const { client } = await connect({ methods: [TUI] });
  const [a] = folders();
  const alpha = folderSession(a);
  await alpha.attach(client, { restart: false });
  const failed = scriptedIO({ exitCode: 1, restartOnto: [alpha] });
  await signIn(alpha, "tui", failed.io);
  assert.deepEqual(
    {
      restarts: failed.log.restarts,
      message: alpha.state.auth?.message,
      args: failed.log.terminals[0]?.args,
      env: failed.log.terminals[0]?.env,
    },
    { restarts: 0, message: "The sign-in in the terminal did not succeed (exit code 1).", args: ["--login"], env: { FAKE_LOGIN: "1" } },
  );
  const ok = scriptedIO({ exitCode: 0, restartOnto: [alpha] });
  await signIn(alpha, "tui", ok.io);
  assert.deepEqual(
    { restarts: ok.log.restarts, bound: Boolean(alpha.sessionId), card: alpha.state.auth },
    { restarts: 1, bound: true, card: undefined },
  );
});

test("logout is called only where the agent advertises it", async () => {
  const plain = await connect({ methods: [LOGIN], signedIn: true });
  await assert.rejects(plain.client.logout(), /does not support signing out/);
  const withLogout = await connect({ methods: [LOGIN], signedIn: true, logout: true });
  await withLogout.client.logout();
  assert.deepEqual([withLogout.fake.calls, withLogout.fake.signedIn], [["logout"], false]);
});

test("I-95: switching agents re-attaches like a restart: a running turn is cancelled and says why; the transcript stays above a divider; the new agent's session follows", async () => {
  const first = await connect({ methods: [], signedIn: true });
  const [a] = folders();
  // One binding map per agent, as SessionManager keeps them.
  const perAgent = { first: memoryBindings(), second: memoryBindings() };
  let agent: keyof typeof perAgent = "first";
  const alpha = folderSession(a, { get: (f) => perAgent[agent].get(f), set: (f, id) => perAgent[agent].set(f, id) });
  const waiters = stateWaiters();
  alpha.onDidEmit(() => waiters.changed(alpha));
  await alpha.attach(first.client, { restart: false, builtin: true });
  first.fake.onPrompt = ({ cancelled }) => new Promise((resolve) => cancelled.addEventListener("abort", () => resolve("cancelled")));
  const turn = alpha.prompt([{ type: "text", text: "long job" }], { text: "long job", attachments: [] });
  await waiters.when(alpha, (st) => st.running);
  const oldId = alpha.sessionId;
  await alpha.leaveForSwitch("other");
  await turn;
  agent = "second";
  const second = await connect({ methods: [], signedIn: true });
  await alpha.attach(second.client, { restart: false, builtin: false, switchedTo: "other" });
  const st = alpha.state;
  assert.deepEqual(
    {
      calls: first.fake.calls.filter((c) => c.startsWith("session/cancel")).length,
      entries: st.entries.map((e) =>
        e.kind === "notice" ? `${e.divider ? "divider" : e.severity}: ${e.text}` : `${e.kind}: ${"text" in e ? e.text : ""}`,
      ),
      running: st.running,
      newSession: [oldId, alpha.sessionId, second.fake.calls],
      builtin: st.builtin,
    },
    {
      calls: 1,
      entries: [
        "user: long job",
        "warning: The running turn is cancelled: the agent is being switched to other.",
        "info: Turn cancelled.",
        "divider: Agent switched to fake-agent",
      ],
      running: false,
      newSession: ["s1", "s1", ["session/new"]],
      builtin: false,
    },
  );
});
