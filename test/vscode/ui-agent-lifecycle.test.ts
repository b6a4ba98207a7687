// UI tests of the agent process's life in a real VS Code (packaged .vsix in code-server, headless
// Chromium, fake model server): SIGKILL mid-turn → restart and re-attach (I-95); closing the window
// ends the whole agent tree, background tasks included (I-96). The tests run in this order.
import * as assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import type { FakeRequest } from "../support/fakeModelServer";
import { screenshot } from "./support/browser";
import { alive, byTestId, eventually, processesInGroup, processTree, startScenario, TEST_IDS, type Folder, type Scenario } from "./support/scenario";

const FIRST: Record<Folder, string> = { alpha: "alpha's first turn is done", beta: "beta's first turn is done" };

/** Every text the model was sent in `req` (to see which history a session carries). */
const sentText = (req: FakeRequest): string => JSON.stringify(req.messages);

describe("Manifold in code-server: the agent process (I-95, I-96)", () => {
  let s: Scenario;

  before(async () => {
    s = await startScenario("manifold-ui-life-");
    await s.openChat("alpha");
    await s.openChat("beta");
  });

  after(async () => {
    const leftovers = await s?.close();
    assert.deepEqual(leftovers ?? [], [], "processes outlived code-server");
  });

  it("I-95: SIGKILL mid-turn restarts the agent; each panel re-attaches to its own session with its history", () =>
    s.step("restart", async () => {
      for (const folder of ["alpha", "beta"] as const) {
        s.model.route(`[${folder}-1]`, { text: FIRST[folder] });
        const f = await s.send(folder, `[${folder}-1] first question`);
        await f.locator(byTestId(TEST_IDS.agentMessage), { hasText: FIRST[folder] }).waitFor({ state: "visible", timeout: 60_000 });
      }
      const [agent, ...others] = s.agents();
      assert.ok(agent, "no agent process");
      assert.deepEqual(others, [], "one agent per window");
      s.model.route("[alpha-2]", { hang: true });
      await s.send("alpha", "[alpha-2] this turn is running when the agent dies");
      await s.model.waitForHang(1);

      process.kill(agent.pid, "SIGKILL");
      const restarted = await eventually(() => s.agents().find((p) => p.pid !== agent.pid), "a new agent process");
      assert.notEqual(restarted.pid, agent.pid);

      for (const folder of ["alpha", "beta"] as const) {
        const f = await s.panel(folder);
        await f.locator(byTestId(TEST_IDS.notice), { hasText: /restarted/i }).first().waitFor({ state: "visible", timeout: 60_000 });
        const texts = {
          user: (await f.locator(byTestId(TEST_IDS.userMessage)).allInnerTexts()).map((t) => t.trim()),
          agent: (await f.locator(byTestId(TEST_IDS.agentMessage)).allInnerTexts()).map((t) => t.trim()),
        };
        const other = folder === "alpha" ? "beta" : "alpha";
        assert.equal(texts.user[0], `[${folder}-1] first question`, `${folder}'s panel lost its first turn: ${JSON.stringify(texts)}`);
        assert.deepEqual(texts.agent, [FIRST[folder]], `${folder}'s panel shows another history: ${JSON.stringify(texts)}`);
        assert.ok(!texts.user.some((t) => t.includes(`[${other}-`)), `${folder}'s panel shows ${other}'s turns`);
      }
      const alpha = await s.panel("alpha");
      await alpha.locator(byTestId(TEST_IDS.notice), { hasText: /interrupted/i }).first().waitFor({ state: "visible", timeout: 30_000 });
      await screenshot(s.page, "agent-restarted");

      // Same sessions: the next turn in each panel reaches the model with that folder's own history.
      for (const folder of ["alpha", "beta"] as const) {
        s.model.route(`[${folder}-3]`, { text: `${folder} after restart` });
        const f = await s.send(folder, `[${folder}-3] still there?`);
        await f.locator(byTestId(TEST_IDS.agentMessage), { hasText: `${folder} after restart` }).waitFor({ state: "visible", timeout: 60_000 });
        const req = s.model.requests.find((r) => r.lastUserText.includes(`[${folder}-3]`));
        assert.ok(req);
        const other = folder === "alpha" ? "beta" : "alpha";
        assert.ok(sentText(req).includes(FIRST[folder]), `${folder}'s session lost its completed turn`);
        assert.ok(!sentText(req).includes(FIRST[other]), `${folder}'s panel is bound to ${other}'s session`);
      }
    }));

  it("I-96: closing the window ends the whole agent tree, background tasks included", () =>
    s.step("shutdown", async () => {
      s.model.route("[bg]", { toolCalls: [{ name: "bash", args: { command: "sleep 300", background: true } }] }, { text: "started in the background" });
      const beta = await s.send("beta", "[bg] start a long task");
      const done = beta.locator(byTestId(TEST_IDS.agentMessage), { hasText: "started in the background" });
      const ask = beta.locator(`${byTestId(TEST_IDS.permissionCard)}.pending`);
      await done.or(ask).first().waitFor({ state: "visible", timeout: 60_000 });
      if (await ask.count()) await ask.locator(byTestId(TEST_IDS.permissionOption), { hasText: /allow once/i }).first().click();
      await done.waitFor({ state: "visible", timeout: 60_000 });

      const [agent] = s.agents();
      assert.ok(agent, "no agent process");
      const tree = processTree(agent.pid);
      const sleeper = await eventually(() => processTree(agent.pid).find((pid) => {
        try {
          return /\bsleep\b.*\b300\b/.test(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" "));
        } catch {
          return false;
        }
      }), "the background task's process");
      const all = [...new Set([...tree, ...processTree(agent.pid), sleeper])];
      const hosts = processesInGroup(s.server.pgid).filter((p) => /extensionHost/.test(p.command)).map((p) => p.pid);
      assert.ok(hosts.length > 0, "no extension host found");

      // Close the window: after the reconnection grace (5 s) the server ends the extension host, which deactivates.
      await s.context.close();
      await eventually(() => (alive(hosts).length === 0 ? true : undefined), "the extension host to exit", 120_000);
      await new Promise((r) => setTimeout(r, 5_000));
      assert.deepEqual(alive(all), [], "processes of the agent tree are alive 5 s after the window closed");
    }));
});
