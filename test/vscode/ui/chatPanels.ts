// One chat panel per folder (I-91): a prompt in each folder's panel is answered in that panel only, and
// both panels render in the light and dark themes (screenshots). The panels were opened (with "Open Chat
// for Folder…") by the Restricted Mode section; no prompt was sent before, so each panel's conversation
// is exactly its own. A draft typed in the composer survives hiding the panel.
import * as assert from "node:assert/strict";
import { describe, it } from "node:test";
import { screenshot, webviewFrame } from "../support/browser";
import { byTestId, closeEditor, hidePanelBehindFile, type Folder, type Scenario } from "../support/scenario";
import { TEST_IDS } from "../../../extension/webview/testIds";

const REPLIES: Record<Folder, string> = {
  alpha: "Alpha here: your folder has README.md and src/greet.ts.",
  beta: "Beta here: your folder has notes.txt.",
};
const question = (folder: Folder): string => `[${folder}] which files are in this folder?`;

export function chatPanelTests(scenario: () => Scenario): void {
  describe("one chat panel per folder", () => {
    it("I-91: a prompt in each folder's panel is answered in that panel only", () => {
      const s = scenario();
      return s.step("prompts", async () => {
        for (const folder of ["alpha", "beta"] as const) {
          await s.reveal(folder);
          s.model.route(`[${folder}]`, { text: REPLIES[folder] });
          const frame = await s.send(folder, question(folder));
          await frame.locator(byTestId(TEST_IDS.agentMessage), { hasText: REPLIES[folder] }).waitFor({ state: "visible", timeout: 60_000 });
        }
        for (const folder of ["alpha", "beta"] as const) {
          const frame = await s.panel(folder);
          await frame.locator(byTestId(TEST_IDS.agentMessage)).first().waitFor({ state: "visible", timeout: 30_000 });
          const agentTexts = await frame.locator(byTestId(TEST_IDS.agentMessage)).allInnerTexts();
          const userTexts = await frame.locator(byTestId(TEST_IDS.userMessage)).allInnerTexts();
          assert.deepEqual(
            { user: userTexts.map((t) => t.trim()), agent: agentTexts.map((t) => t.trim()) },
            { user: [question(folder)], agent: [REPLIES[folder]] },
            `panel ${folder} shows only its own conversation`,
          );
        }
      });
    });

    it("renders both panels in the dark and light themes (screenshots)", () => {
      const s = scenario();
      return s.step("themes", async () => {
        for (const scheme of ["dark", "light"] as const) {
          await s.page.emulateMedia({ colorScheme: scheme });
          await s.page.locator(`.monaco-workbench.${scheme === "dark" ? "vs-dark" : "vs"}`).waitFor({ timeout: 30_000 });
          // The panels open side by side (ViewColumn.Beside), so one shot shows both.
          for (const folder of ["alpha", "beta"] as const) {
            const frame = await webviewFrame(s.page, `Manifold: ${folder}`);
            await frame.locator(`body.vscode-${scheme}`).waitFor({ timeout: 30_000 });
            await frame
              .locator(byTestId(TEST_IDS.agentMessage), { hasText: REPLIES[folder] })
              .waitFor({ state: "visible", timeout: 30_000 });
          }
          await screenshot(s.page, `chat-panels-${scheme}`);
        }
      });
    });

    it("a draft typed in a panel survives hiding the panel (its page is rebuilt when shown)", () => {
      const s = scenario();
      return s.step("draft", async () => {
        const draft = "a draft I am not done with\nsecond line";
        const alpha = await s.reveal("alpha");
        await alpha.locator(byTestId(TEST_IDS.composerInput)).fill(draft);
        await hidePanelBehindFile(s.page, "alpha", "README.md");
        const again = await s.reveal("alpha");
        await again.locator(byTestId(TEST_IDS.composerInput)).waitFor({ state: "visible", timeout: 30_000 });
        assert.equal(await again.locator(byTestId(TEST_IDS.composerInput)).inputValue(), draft);
        await again.locator(byTestId(TEST_IDS.composerInput)).fill("");
        await closeEditor(s.page, "README.md");
      });
    });
  });
}
