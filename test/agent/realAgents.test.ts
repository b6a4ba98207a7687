// Real third-party ACP agents served by Manifold's own client code (test/agents/support/harness.ts:
// the extension's AcpClient and SessionBinding, fs/* through SessionFileService), each against a
// local fake of its model API. The agents are pinned in scripts/agents/pins.json and installed by
// scripts/agents/install.sh; a test whose agent is not installed skips and says how to install it.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startFakeGemini, type FakeGemini, type GeminiRequest } from "../agents/support/fakeGemini";
import { startRealAgent, type RealAgent } from "../agents/support/harness";
import { installedAgent } from "../agents/support/installed";

const gemini = installedAgent("gemini");

function tempDir(prefix: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

describe("gemini-cli (real, pinned) creates files through Manifold's fs/*", { skip: "skip" in gemini ? gemini.skip : false }, () => {
  let model: FakeGemini;
  let base: string;
  let target = "";

  before(async () => {
    base = tempDir("manifold-gemini-");
    // The model asks for a write of a file that does not exist yet, then says it is done.
    model = await startFakeGemini((req: GeminiRequest) =>
      req.lastPartKind === "user:functionResponse"
        ? [{ text: "Done." }]
        : [{ text: "Writing it." }, { functionCall: { name: "write_file", args: { file_path: target, content: "created by gemini\n" } } }],
    );
  });

  after(async () => {
    await model.close();
    rmSync(base, { recursive: true, force: true });
  });

  async function start(): Promise<{ agent: RealAgent; folder: string; sessionId: string }> {
    if ("skip" in gemini) throw new Error(gemini.skip);
    const folder = join(base, `ws-${Math.random().toString(36).slice(2, 8)}`);
    const home = join(folder, "..", `${folder.split("/").pop()}-home`);
    mkdirSync(folder);
    mkdirSync(home);
    const agent = await startRealAgent({
      command: gemini.exe,
      args: ["--acp"],
      cwd: folder,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        GEMINI_API_KEY: "fake-key-for-a-local-fake",
        GOOGLE_GEMINI_BASE_URL: model.url,
        GEMINI_CLI_NO_RELAUNCH: "true",
      },
    });
    return { agent, folder, sessionId: await agent.newSession(folder) };
  }

  it("a write of a new file asks for permission and, granted, creates the file with the content", async () => {
    const { agent, folder, sessionId } = await start();
    try {
      target = join(folder, "src", "new-file.txt");
      agent.answerPermissions("allow");
      const stop = await agent.client.prompt(sessionId, [{ type: "text", text: "create src/new-file.txt" }]);
      assert.equal(stop, "end_turn", agent.stderr());
      assert.equal(agent.permissions.length, 1, `no permission was asked; the session showed: ${agent.transcript()}`);
      assert.equal(readFileSync(target, "utf8"), "created by gemini\n");
    } finally {
      await agent.close();
    }
  });

  it("rejected, the new file is not created", async () => {
    const { agent, folder, sessionId } = await start();
    try {
      target = join(folder, "rejected.txt");
      agent.answerPermissions("reject");
      await agent.client.prompt(sessionId, [{ type: "text", text: "create rejected.txt" }]);
      assert.equal(agent.permissions.length, 1, `no permission was asked; the session showed: ${agent.transcript()}`);
      assert.equal(existsSync(target), false);
    } finally {
      await agent.close();
    }
  });
});
