// The agent process's life in a real VS Code: SIGKILL mid-turn → restart, and every panel re-attaches to
// its own session with its whole history (I-95); closing the window ends the whole agent tree, background
// tasks included (I-96). Runs last in the shared window: the second test closes it.
import * as assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { before, describe, it } from "node:test";
import type { FrameLocator } from "playwright-core";
import type { FakeRequest } from "../../support/fakeModelServer";
import { screenshot } from "../support/browser";
import { descendantsOf, processRef, stillAlive, type ProcessRef } from "../../../sandbox/procfs";
import { byTestId, eventually, processesInGroup, type Folder, type Scenario } from "../support/scenario";
import { TEST_IDS } from "../../../extension/webview/testIds";

const FIRST: Record<Folder, string> = { alpha: "alpha's first turn is done", beta: "beta's first turn is done" };
const other = (folder: Folder): Folder => (folder === "alpha" ? "beta" : "alpha");

/** Every text the model was sent in `req` (to see which history a session carries). */
const sentText = (req: FakeRequest): string => JSON.stringify(req.messages);

/** The user and agent messages a panel shows, in order. */
async function transcript(frame: FrameLocator): Promise<{ user: string[]; agent: string[] }> {
  return {
    user: (await frame.locator(byTestId(TEST_IDS.userMessage)).allInnerTexts()).map((t) => t.trim()),
    agent: (await frame.locator(byTestId(TEST_IDS.agentMessage)).allInnerTexts()).map((t) => t.trim()),
  };
}

export function agentLifecycleTests(scenario: () => Scenario): void {
  describe("the agent process (I-95, I-96)", () => {
    let s: Scenario;

    before(async () => {
      s = scenario();
      // waitForHang counts since the last reset: earlier sections' hangs must not count here.
      s.model.reset();
      // Earlier sections may have closed a panel: Open Chat for Folder… re-attaches it to its folder's session.
      await s.reveal("alpha");
      await s.reveal("beta");
    });

    it("I-95: SIGKILL mid-turn restarts the agent; each panel re-attaches to its own session with its history", () =>
      s.step("restart", async () => {
        const before: Partial<Record<Folder, { user: string[]; agent: string[] }>> = {};
        for (const folder of ["alpha", "beta"] as const) {
          s.model.route(`[${folder}-1]`, { text: FIRST[folder] });
          const f = await s.send(folder, `[${folder}-1] first question`);
          await f.locator(byTestId(TEST_IDS.agentMessage), { hasText: FIRST[folder] }).waitFor({ state: "visible", timeout: 60_000 });
          before[folder] = await transcript(f);
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
          await f
            .locator(byTestId(TEST_IDS.notice), { hasText: /restarted/i })
            .first()
            .waitFor({ state: "visible", timeout: 60_000 });
          const now = await transcript(f);
          const was = before[folder];
          assert.ok(was);
          // The same history as before the kill (plus alpha's interrupted question), none of the other folder's.
          assert.deepEqual(now.agent, was.agent, `${folder}'s panel shows another history: ${JSON.stringify(now)}`);
          assert.deepEqual(now.user.slice(0, was.user.length), was.user, `${folder}'s panel lost turns: ${JSON.stringify(now)}`);
          assert.ok(!now.user.some((t) => t.includes(`[${other(folder)}-`)), `${folder}'s panel shows ${other(folder)}'s turns`);
        }
        const alpha = await s.panel("alpha");
        await alpha
          .locator(byTestId(TEST_IDS.notice), { hasText: /interrupted/i })
          .first()
          .waitFor({ state: "visible", timeout: 30_000 });
        await screenshot(s.page, "agent-restarted");

        // Same sessions: the next turn in each panel reaches the model with that folder's own history.
        for (const folder of ["alpha", "beta"] as const) {
          s.model.route(`[${folder}-3]`, { text: `${folder} after restart` });
          const f = await s.send(folder, `[${folder}-3] still there?`);
          await f
            .locator(byTestId(TEST_IDS.agentMessage), { hasText: `${folder} after restart` })
            .waitFor({ state: "visible", timeout: 60_000 });
          const req = s.model.requests.find((r) => r.lastUserText.includes(`[${folder}-3]`));
          assert.ok(req);
          assert.ok(sentText(req).includes(FIRST[folder]), `${folder}'s session lost its completed turn`);
          assert.ok(!sentText(req).includes(FIRST[other(folder)]), `${folder}'s panel is bound to ${other(folder)}'s session`);
        }
      }));

    it("I-96: closing the window ends the whole agent tree, background tasks included", () =>
      s.step("shutdown", async () => {
        s.model.route(
          "[bg]",
          { toolCalls: [{ name: "bash", args: { command: "sleep 300", background: true } }] },
          { text: "started in the background" },
        );
        const beta = await s.send("beta", "[bg] start a long task");
        const done = beta.locator(byTestId(TEST_IDS.agentMessage), { hasText: "started in the background" });
        const ask = beta.locator(`${byTestId(TEST_IDS.permissionCard)}.pending`);
        await done.or(ask).first().waitFor({ state: "visible", timeout: 60_000 });
        if (await ask.count())
          await ask
            .locator(byTestId(TEST_IDS.permissionOption), { hasText: /allow once/i })
            .first()
            .click();
        await done.waitFor({ state: "visible", timeout: 60_000 });

        const [agent] = s.agents();
        assert.ok(agent, "no agent process");
        // The background task's `sleep 300` runs in the agent's tree (inside its sandbox).
        const isSleeper = (pid: number): boolean => {
          try {
            return /\bsleep\b.*\b300\b/.test(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" "));
          } catch {
            return false;
          }
        };
        await eventually(() => descendantsOf(agent.pid).find((r) => isSleeper(r.pid)), "the background task's process");
        const tree = [processRef(agent.pid), ...descendantsOf(agent.pid)].filter((r): r is ProcessRef => r !== undefined);
        assert.ok(
          tree.some((r) => isSleeper(r.pid)),
          "the background task is not in the agent's tree",
        );
        const hosts = processesInGroup(s.server.pgid)
          .filter((p) => /extensionHost/.test(p.command))
          .flatMap((p) => processRef(p.pid) ?? []);
        assert.ok(hosts.length > 0, "no extension host found");

        // Close the window: after the reconnection grace (5 s) the server ends the extension host, which deactivates.
        await s.closeWindow();
        await eventually(() => (stillAlive(hosts).length === 0 ? true : undefined), "the extension host to exit", 120_000);
        // The agent ends its tasks, then exits; the kernel reaps a sandbox's PID namespace just after its
        // leader, and /proc has no event for that. A survivor (an orphaned `sleep 300`) fails the bound.
        const survivors = await eventually(() => (stillAlive(tree).length === 0 ? [] : undefined), "the agent tree to end", 15_000).catch(
          () => stillAlive(tree),
        );
        assert.deepEqual(survivors, [], "processes of the agent tree outlived the window");
      }));
  });
}
