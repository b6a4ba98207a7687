// Real third-party ACP agents served by Manifold's own client code (test/agents/support/harness.ts:
// the extension's AcpClient and BoundSession, fs/* through SessionFileService), each against a
// local fake of its model API. The agents are pinned in scripts/agents/pins.json and installed by
// scripts/agents/install.sh; a test whose agent is not installed skips and says how to install it.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { advertised, startRealAgent, type RealAgent } from "../agents/support/harness";
import { installedAgent } from "../agents/support/installed";
import { argsFor, PROFILES } from "../agents/support/profiles";
import { contentFor, startScenarioModel, type ScenarioModel } from "../agents/support/scenarioModel";

function tempDir(prefix: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

// The common scenario, against every pinned agent that is installed. gemini-cli reads a write's
// target through fs/read_text_file first: its write steps are the proof that a missing file's answer
// lets it create files (with an error answer it asked nothing and failed "Error checking existing file").
for (const profile of PROFILES) {
  const found = installedAgent(profile.id);
  const skip = "skip" in found ? found.skip : false;
  const writes = { skip: profile.noWrites ?? false };

  describe(`${profile.id} (real, pinned) with Manifold's client: stream, ask, reject, cancel`, { skip }, () => {
    let base = "";
    let folder = "";
    let model: ScenarioModel;
    let agent: RealAgent;
    let sessionId = "";

    before(async () => {
      if ("skip" in found) throw new Error(found.skip);
      base = tempDir(`manifold-${profile.id}-`);
      folder = join(base, "ws");
      const home = join(base, "home");
      mkdirSync(folder);
      mkdirSync(home);
      model = await startScenarioModel(profile.api, folder);
      agent = await startRealAgent({
        command: found.exe,
        args: argsFor(profile, model.origin),
        cwd: folder,
        env: profile.env(model.origin, home),
      });
      const session = await agent.newSession(folder);
      sessionId = session.sessionId;
      // What it advertises (for the report's table); shown with --test-reporter=spec.
      console.log(`advertised: ${JSON.stringify(advertised(agent.init, session))}`);
    });

    after(async () => {
      await agent?.close();
      await model?.close();
      rmSync(base, { recursive: true, force: true });
    });

    it("streams a reply", async () => {
      const stop = await agent.client.prompt(sessionId, [{ type: "text", text: "[hello] say hello" }]);
      assert.deepEqual({ stop, text: agent.text().includes("Hello there") }, { stop: "end_turn", text: true }, agent.transcript());
    });

    it("a write of a new file asks for permission; rejected, nothing is written", writes, async () => {
      agent.answerPermissions("reject");
      const asked = agent.permissions.length;
      await agent.client.prompt(sessionId, [{ type: "text", text: "[write:rejected.txt] write it" }]);
      assert.equal(
        agent.permissions.length,
        asked + 1,
        `no permission was asked; the session showed: ${agent.transcript()}\n${agent.stderr().slice(-3000)}`,
      );
      assert.equal(existsSync(join(folder, "rejected.txt")), false);
    });

    it("a write of a new file, granted, creates it with the content", writes, async () => {
      agent.answerPermissions("allow");
      const asked = agent.permissions.length;
      const stop = await agent.client.prompt(sessionId, [{ type: "text", text: "[write:granted.txt] write it" }]);
      assert.equal(agent.permissions.length, asked + 1, `no permission was asked; the session showed: ${agent.transcript()}`);
      assert.deepEqual(
        { stop, content: readFileSync(join(folder, "granted.txt"), "utf8") },
        { stop: "end_turn", content: contentFor("granted.txt") },
      );
      console.log(`fs/* served by Manifold: ${JSON.stringify(agent.fsCalls.map((c) => c.replace(folder, ".")))}`);
    });

    it("a cancel while the model is answering ends the prompt `cancelled`", async () => {
      const hung = model.nextHang();
      const prompt = agent.client.prompt(sessionId, [{ type: "text", text: "[hang] take your time" }]);
      await hung;
      await agent.client.cancel(sessionId);
      assert.equal(await prompt, "cancelled");
    });
  });
}
