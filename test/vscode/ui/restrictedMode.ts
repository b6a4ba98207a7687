// Restricted Mode: in an untrusted workspace Manifold starts no agent, even with both folders' chats
// open, and says why in each panel; trusting the workspace starts the agent and the open panels attach.
// Runs first in the shared window, which opens untrusted.
import * as assert from "node:assert/strict";
import { describe, it } from "node:test";
import { editorTab, runCommand, runCommandAndPick, screenshot, webviewFrame } from "../support/browser";
import { byTestId, eventually, OPEN_CHAT, type Scenario } from "../support/scenario";
import { TEST_IDS } from "../../../extension/webview/testIds";

/** What another section checks at the two moments only this one has (e.g. MCP servers, I-102). */
export interface TrustHooks {
  /** At the end of the untrusted test, before anything is trusted. */
  untrusted?(s: Scenario): Promise<void>;
  /** Right after "Trust" is clicked, before the trust editor is closed (a modal question may be up). */
  trusting?(s: Scenario): Promise<void>;
}

export function restrictedModeTests(scenario: () => Scenario, hooks: TrustHooks = {}): void {
  describe("an untrusted workspace (Restricted Mode)", () => {
    it("I-92: Open Chat for Folder opens a panel titled after each folder; no agent starts while untrusted", () => {
      const s = scenario();
      return s.step("untrusted", async () => {
        await s.page.locator(".statusbar-item", { hasText: "Restricted Mode" }).first().waitFor({ state: "visible", timeout: 60_000 });
        for (const folder of ["alpha", "beta"] as const) {
          await runCommandAndPick(s.page, OPEN_CHAT, folder);
          const frame = await webviewFrame(s.page, `Manifold: ${folder}`);
          await frame
            .locator(byTestId(TEST_IDS.status), { hasText: /restricted mode/i })
            .first()
            .waitFor({ state: "visible", timeout: 60_000 });
          assert.equal(
            await frame.locator(byTestId(TEST_IDS.send)).isDisabled(),
            true,
            `${folder}'s panel can send prompts in Restricted Mode`,
          );
        }
        for (const folder of ["alpha", "beta"] as const) await editorTab(s.page, `Manifold: ${folder}`).waitFor({ state: "visible" });
        await screenshot(s.page, "untrusted-workspace");
        assert.deepEqual(s.agents(), [], "an agent runs in an untrusted workspace");
        assert.equal(s.model.requests.length, 0);
        await hooks.untrusted?.(s);
      });
    });

    it("trusting the workspace starts the agent, and the panels opened before attach", () => {
      const s = scenario();
      return s.step("trust", async () => {
        await runCommand(s.page, "Workspaces: Manage Workspace Trust");
        await s.page
          .locator(".workspace-trust-editor .monaco-button", { hasText: /^Trust$/ })
          .first()
          .click({ timeout: 60_000 });
        await hooks.trusting?.(s);
        const agent = await eventually(() => s.agents()[0], "the agent after trusting the workspace");
        assert.ok(agent.pid > 0);
        // The trust editor opens as a modal editor over the panels; close it with its X, like a user.
        const modal = s.page.locator(".monaco-modal-editor-block");
        if (await modal.count()) {
          await modal.locator(".codicon-close, .codicon-x").first().click();
          await modal.waitFor({ state: "detached", timeout: 30_000 });
        }
        for (const folder of ["alpha", "beta"] as const) {
          const frame = await s.panel(folder);
          await frame.locator(`${byTestId(TEST_IDS.send)}:enabled`).waitFor({ state: "visible", timeout: 60_000 });
          assert.equal(
            await frame.locator(byTestId(TEST_IDS.status), { hasText: /restricted mode/i }).count(),
            0,
            `${folder}'s panel still says Restricted Mode`,
          );
        }
      });
    });
  });
}
