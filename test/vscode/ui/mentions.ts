// `@` mentions and slash commands in a real window, alpha's panel. (1) `@` mentions beyond files: a TypeScript file with a
// function and a type error is opened (TypeScript checks files in tabs), then the `@` button's quick
// pick attaches "Problems" and, through "Symbol…", the function found by the workspace-symbol search;
// the model's request carries the function's text and location and the problem's message.
// (2) A slash command by keyboard only: `/c` opens the combobox's listbox (aria-expanded,
// aria-activedescendant follow the arrows, wrapping), Escape closes it, typing reopens it, Enter runs
// `/compact` (it takes no input): the agent asks the model for its summary and the transcript shows it.
// Screenshots: mentions.png, slash-menu.png.
import * as assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { quickItem, screenshot } from "../support/browser";
import { byTestId, hidePanelBehindFile, type Scenario } from "../support/scenario";
import { TEST_IDS } from "../../../extension/webview/testIds";

const FILE = "mention-target.ts";
const SOURCE = [
  "export function mentionTarget(count: number): string {",
  '  return "mention items: " + count;',
  "}",
  "",
  'export const mentionBroken: number = "not a number";',
  "",
].join("\n");

export function mentionTests(scenario: () => Scenario): void {
  describe("mentions and slash commands in the composer", () => {
    it("@ attaches the folder's problems and a workspace symbol; the model's request carries both", () => {
      const s = scenario();
      return s.step("mentions", async () => {
        const { page } = s;
        writeFileSync(join(s.workspace.alpha, FILE), SOURCE);
        s.model.route("[mentions]", { text: "read the symbol and the problem" });
        await s.reveal("alpha");
        // Opening the file in a tab lets TypeScript check it; its squiggle says the problem is reported.
        await hidePanelBehindFile(page, "alpha", FILE);
        await page.locator(".editor-group-container.active .squiggly-error").first().waitFor({ state: "attached", timeout: 120_000 });
        const alpha = await s.reveal("alpha");
        const chips = alpha.locator(byTestId(TEST_IDS.attachment));
        const before = await chips.count();

        // The pick lists the folder's files once they are read, replacing its items: a click on a row
        // while that happens can land on another row, so each pick is used once its files are there.
        const openMentionPick = async () => {
          await alpha.locator(byTestId(TEST_IDS.mention)).click();
          await page
            .locator(".quick-input-widget .monaco-list-row", { hasText: "README.md" })
            .first()
            .waitFor({ state: "visible", timeout: 60_000 });
        };
        await openMentionPick();
        await quickItem(page, "Problems").click({ timeout: 60_000 });
        await alpha.locator(byTestId(TEST_IDS.attachment), { hasText: "Problems" }).waitFor({ timeout: 30_000 });

        // TypeScript names a function with its parentheses. Its workspace-symbol search can answer empty
        // while its project is still loading (a fresh window, a busy machine) and the pick asks only when
        // the query changes, as VS Code's own symbol pick does: so the query is typed again, as a user would.
        // The symbol pick's own input (the `@` pick before it used the same widget and is closing).
        // A pick closes when focus moves (a busy window can hand focus back to the panel late), and then
        // the symbol pick never opens: the two picks are asked again, as a user would.
        const queryBox = page.locator('.quick-input-widget .quick-input-box input[placeholder^="Search symbols in"]');
        for (let attempt = 1; ; attempt++) {
          await openMentionPick();
          await quickItem(page, "Symbol…").click({ timeout: 60_000 });
          const open = await queryBox.waitFor({ state: "visible", timeout: 20_000 }).then(
            () => true,
            () => false,
          );
          if (open) break;
          if (attempt === 3) throw new Error("the symbol pick never opened after Symbol…");
          await page.keyboard.press("Escape");
        }
        const target = quickItem(page, "mentionTarget()");
        for (let attempt = 1; ; attempt++) {
          await queryBox.fill("");
          await queryBox.fill("mentionTarget");
          const shown = await target.waitFor({ state: "visible", timeout: 15_000 }).then(
            () => true,
            () => false,
          );
          if (shown) break;
          if (attempt === 6) throw new Error("TypeScript never listed mentionTarget() in the symbol pick");
        }
        await target.click({ timeout: 30_000 });
        await alpha.locator(byTestId(TEST_IDS.attachment), { hasText: "mentionTarget" }).waitFor({ timeout: 30_000 });
        assert.equal(await chips.count(), before + 2);
        // Each kind has its own icon.
        assert.equal(await alpha.locator(`${byTestId(TEST_IDS.attachment)} .codicon-warning`).count(), 1);
        assert.equal(await alpha.locator(`${byTestId(TEST_IDS.attachment)} .codicon-symbol-method`).count(), 1);
        await screenshot(page, "mentions");

        const n = s.model.requests.length;
        await s.send("alpha", "[mentions] what is wrong here?");
        await alpha.locator(byTestId(TEST_IDS.agentMessage), { hasText: "read the symbol and the problem" }).waitFor({ timeout: 60_000 });
        const req = s.model.requests.slice(n).find((r) => r.lastUserText.includes("[mentions]"));
        assert.ok(req, "the model got the prompt");
        const body = JSON.stringify(req.messages);
        assert.ok(body.includes("export function mentionTarget(count: number): string {"), "the symbol's text");
        assert.ok(body.includes(`${FILE}#L1-L3`), `the symbol's location: ${body.slice(0, 2000)}`);
        assert.match(body, /mention-target\.ts:5:\d+: error: Type '(\\")?string(\\")?' is not assignable to type 'number'/, "the problem");
        assert.equal(await chips.count(), 0, "the chips went with the message");
      });
    });

    it("a slash command by keyboard only: the combobox's ARIA state follows the keys, Enter runs /compact, shown as one compaction entry", () => {
      const s = scenario();
      return s.step("slash-menu", async () => {
        const { page } = s;
        s.model.route("Summarise the conversation so far", { text: "SUMMARY-SLASH-17 the user asked about mentions" });
        const alpha = await s.reveal("alpha");
        const input = alpha.locator(byTestId(TEST_IDS.composerInput));
        const option = (name: string) => alpha.locator(`#slash-option-${name}`);
        await input.focus();
        assert.equal(await input.getAttribute("role"), "combobox");
        assert.equal(await input.getAttribute("aria-expanded"), "false");
        await page.keyboard.type("/c");
        await option("clear").waitFor({ state: "visible", timeout: 30_000 });
        assert.equal(await input.getAttribute("aria-expanded"), "true");
        assert.equal(await input.getAttribute("aria-autocomplete"), "list");
        const listId = await input.getAttribute("aria-controls");
        assert.equal(await alpha.locator(`#${listId}`).getAttribute("role"), "listbox");
        assert.equal(await input.getAttribute("aria-activedescendant"), "slash-option-compact");
        await page.keyboard.press("ArrowDown");
        assert.equal(await input.getAttribute("aria-activedescendant"), "slash-option-clear");
        assert.equal(await option("clear").getAttribute("aria-selected"), "true");
        assert.equal(await option("compact").getAttribute("aria-selected"), "false");
        await page.keyboard.press("ArrowDown"); // wraps
        assert.equal(await input.getAttribute("aria-activedescendant"), "slash-option-compact");
        await page.keyboard.press("ArrowUp"); // wraps back
        assert.equal(await input.getAttribute("aria-activedescendant"), "slash-option-clear");
        await screenshot(page, "slash-menu");
        await page.keyboard.press("Escape");
        assert.equal(await input.getAttribute("aria-expanded"), "false");
        assert.equal(await input.getAttribute("aria-activedescendant"), null);
        await page.keyboard.type("o"); // "/co": only /compact, active
        await option("compact").waitFor({ state: "visible", timeout: 30_000 });
        assert.equal(await input.getAttribute("aria-expanded"), "true");
        assert.equal(await option("clear").count(), 0);
        assert.equal(await input.getAttribute("aria-activedescendant"), "slash-option-compact");

        const n = s.model.requests.length;
        await page.keyboard.press("Enter"); // /compact takes no input: it runs
        await alpha.locator(byTestId(TEST_IDS.userMessage), { hasText: "/compact" }).waitFor({ timeout: 60_000 });
        await alpha.locator(byTestId(TEST_IDS.transcript), { hasText: "SUMMARY-SLASH-17" }).waitFor({ timeout: 60_000 });
        const summarise = s.model.requests.slice(n).find((r) => r.lastUserText.startsWith("Summarise the conversation so far"));
        assert.ok(summarise, "the agent ran /compact: it asked the model for a summary");
        // the compaction is one marked entry, not a tool card.
        const compaction = alpha.locator(byTestId(TEST_IDS.compaction)).last();
        await compaction.waitFor({ state: "visible", timeout: 60_000 });
        assert.equal(await compaction.getAttribute("data-status"), "completed");
        assert.match(await compaction.innerText(), /Conversation compacted \(manual\)/);
        assert.equal(await alpha.locator(`${byTestId(TEST_IDS.toolCard)}`, { hasText: "Compact conversation" }).count(), 0);
        await compaction.scrollIntoViewIfNeeded();
        await screenshot(page, "compaction");
        assert.equal(await input.inputValue(), "");
        assert.equal(await input.getAttribute("aria-expanded"), "false");
        await alpha.locator(`${byTestId(TEST_IDS.app)}[data-running="false"]`).waitFor({ timeout: 60_000 });
      });
    });
  });
}
