// codex-acp (real, pinned) with its stock provider and no key answers `session/new` with
// `-32000 Authentication required`: the folder's panel shows its sign-in methods as a card (agent-run
// "Login with ChatGPT", env-var CODEX_API_KEY / OPENAI_API_KEY), offline, and no session is bound.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { noEditor } from "../../extension/client/fileService";
import { FolderSession } from "../../extension/sessions/folderSession";
import { createNoSandbox } from "../../sandbox/none";
import { startRealAgent, type RealAgent } from "../agents/support/harness";
import { installedAgent } from "../agents/support/installed";

const found = installedAgent("codex");
let agent: RealAgent | undefined;
let session: FolderSession | undefined;
const base = realpathSync(mkdtempSync(join(tmpdir(), "manifold-codex-auth-")));
after(async () => {
  await session?.shutdown();
  await agent?.close();
  rmSync(base, { recursive: true, force: true });
});

test(
  "codex-acp with its stock provider: auth_required becomes the sign-in card in the owning panel",
  { skip: "skip" in found ? found.skip : false },
  async () => {
    if ("skip" in found) return;
    const home = join(base, "home");
    const folder = join(base, "ws");
    mkdirSync(join(home, ".codex"), { recursive: true });
    mkdirSync(folder);
    agent = await startRealAgent({
      command: found.exe,
      args: [],
      cwd: folder,
      env: { PATH: process.env.PATH, HOME: home, CODEX_HOME: join(home, ".codex") },
    });
    const m = new Map<string, string>();
    session = new FolderSession(folder, "ws", {
      bindings: { get: (f) => m.get(f), set: (f, id) => void (id ? m.set(f, id) : m.delete(f)) },
      editor: noEditor,
      terminalSandbox: async () => createNoSandbox({}, "none"),
    });
    await session.attach(agent.client, { restart: false, builtin: false });
    assert.deepEqual(
      {
        bound: session.sessionId,
        message: session.state.auth?.message,
        methods: session.state.auth?.methods.map((x) => `${x.kind}:${x.id}`),
        signOut: agent.client.features.logout,
      },
      {
        bound: undefined,
        message: "Authentication required",
        methods: ["agent:chatgpt", "env_var:codex-api-key", "env_var:openai-api-key"],
        signOut: true,
      },
      agent.stderr().slice(-2000),
    );
  },
);
