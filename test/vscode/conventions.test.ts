// needs: e2e-tools
// The big adapters' conventions through Manifold's UI, from a scripted third-party agent over stdio
// (test/vscode/fixtures/conventionsAgent.mjs) that sends exactly their shapes: a subagent's calls
// (claude-agent-acp's `parentToolUseId`) nest under the Task card, collapsed as a count; a compaction
// is one marked entry, not a tool card; a `switch_mode` plan shows on its approval card, Approve
// answers the agent's allow option and the new mode shows in the picker. Screenshots of each.
import * as assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { TEST_IDS } from "../../extension/webview/testIds";
import { screenshot } from "./support/browser";
import { byTestId, startScenario, type Scenario } from "./support/scenario";

const AGENT = resolve(__dirname, "fixtures", "conventionsAgent.mjs");

describe("the adapters' conventions through Manifold's UI", () => {
  let s: Scenario | undefined;
  const scenario = (): Scenario => {
    if (!s) throw new Error("the scenario did not start (see the before hook's error)");
    return s;
  };

  before(async () => {
    s = await startScenario("manifold-conventions-", {
      prepare: (ws) => {
        const machine = join(ws.root, ".code-server", "user-data", "Machine");
        mkdirSync(machine, { recursive: true });
        writeFileSync(
          join(machine, "settings.json"),
          JSON.stringify(
            {
              "manifold.agent": "conventions",
              "manifold.agents": [{ name: "conventions", command: process.execPath, args: [AGENT] }],
              // The fixture needs nothing but the repository's own files, so it may run as the user.
              "manifold.agentSandbox.unconfined": ["conventions"],
            },
            null,
            2,
          ),
        );
      },
    });
  });

  after(async () => {
    const leftovers = (await s?.close()) ?? [];
    assert.deepEqual(leftovers, [], "processes outlived code-server");
  });

  it("a subagent's calls nest under their Task card, collapsed as a count; a compaction is one entry", () =>
    scenario().step("conventions-subagent", async () => {
      const t = scenario();
      await t.openChat("alpha");
      const alpha = await t.send("alpha", "[subagent] find the bug");
      await alpha
        .locator(byTestId(TEST_IDS.agentMessage), { hasText: "The subagent found it." })
        .waitFor({ state: "visible", timeout: 60_000 });
      const task = alpha.locator(byTestId(TEST_IDS.toolCard), { hasText: "Task: find the login bug" }).first();
      const nested = task.locator(byTestId(TEST_IDS.toolNested));
      assert.equal(await nested.getAttribute("data-count"), "3");
      assert.match((await nested.locator("summary").textContent()) ?? "", /3 tool calls/);
      // Collapsed: the nested cards are not built until it is opened.
      assert.equal(await nested.locator(byTestId(TEST_IDS.toolCard)).count(), 0);
      assert.equal(
        await alpha.locator(byTestId(TEST_IDS.toolCard), { hasText: "Read src/token.ts" }).count(),
        0,
        "a nested call at the top level",
      );
      await task.locator("summary").first().click();
      await nested.locator("summary").click();
      await nested.locator(byTestId(TEST_IDS.toolCard), { hasText: "Read src/token.ts" }).waitFor({ state: "visible" });
      const compaction = alpha.locator(byTestId(TEST_IDS.compaction));
      await compaction.waitFor({ state: "visible" });
      assert.match(await compaction.innerText(), /48[,.\s]?000|48k/i);
      assert.equal(
        await alpha.locator(byTestId(TEST_IDS.toolCard), { hasText: "Compact conversation" }).count(),
        0,
        "the compaction as a tool card",
      );
      await screenshot(t.page, "subagent-nested");
    }));

  it("a switch_mode plan shows on its approval card; Approve answers the agent's allow option and the mode picker shows the new mode", () =>
    scenario().step("conventions-plan", async () => {
      const t = scenario();
      const alpha = await t.send("alpha", "[plan] plan the fix");
      const card = alpha.locator(`${byTestId(TEST_IDS.permissionCard)}.pending`).first();
      await card.waitFor({ state: "visible", timeout: 60_000 });
      const plan = card.locator(byTestId(TEST_IDS.planApproval));
      await plan.waitFor({ state: "visible" });
      assert.match(await plan.innerText(), /Fix the expired-token check/);
      const mode = alpha.locator(`${byTestId(TEST_IDS.configPicker)}[data-config-id="mode"]`);
      assert.equal(await mode.inputValue(), "plan");
      await screenshot(t.page, "plan-approval");
      await card
        .locator(byTestId(TEST_IDS.permissionOption), { hasText: /Approve/ })
        .first()
        .click();
      await alpha.locator(byTestId(TEST_IDS.agentMessage), { hasText: "Plan approved." }).waitFor({ state: "visible", timeout: 30_000 });
      assert.equal(await mode.inputValue(), "default");
    }));
});
