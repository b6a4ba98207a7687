// Agent questions (ACP form elicitation) in a two-folder window. I-46: a question is routed only to the
// owning session — the built-in agent's `ask_user` in alpha shows a card in alpha's panel and none in
// beta's; the answer the user submits is what the model gets back as the tool result. Declining and
// cancelling the turn settle the card without an answer. Starts from the state earlier sections left.
import * as assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { FakeRequest } from "../../support/fakeModelServer";
import { runCommandAndPick, screenshot, webviewFrame } from "../support/browser";
import { byTestId, closeEditor, hidePanelBehindFile, hidePanelUntilSeen, lastToolResult, type Scenario } from "../support/scenario";
import { TEST_IDS } from "../../../extension/webview/testIds";

/** Requests of the turn marked `marker` that carry a tool result. */
function afterToolResult(s: Scenario, marker: string): FakeRequest[] {
  return s.model.requests.filter((r) => r.lastUserText.includes(marker) && r.afterToolResult);
}

const QUESTION = 'Which colour should the <b>button</b> be? <img src=x onerror="window.__pwned=46">';

export function questionTests(scenario: () => Scenario): void {
  describe("agent questions (I-46)", () => {
    it("I-46: alpha's ask_user question is shown only in alpha's panel; the submitted answer is the tool result", () => {
      const s = scenario();
      return s.step("question-answer", async () => {
        s.model.route(
          "[ask]",
          { toolCalls: [{ name: "ask_user", args: { question: QUESTION, choices: ["blue", "green", "red"] } }] },
          { text: "Green it is." },
        );
        await s.reveal("alpha");
        const alpha = await s.send("alpha", "[ask] pick a colour for the button");
        const card = alpha.locator(`${byTestId(TEST_IDS.questionCard)}[data-state="pending"]`);
        await card.waitFor({ state: "visible", timeout: 60_000 });
        // Untrusted text is text: the markup is shown literally, no element is made from it.
        assert.equal((await card.locator(".question-message").innerText()).trim(), QUESTION);
        assert.equal(await card.locator("b, img").count(), 0, "the question's markup became elements");
        assert.deepEqual(await card.locator('input[type="radio"]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value)), [
          "blue",
          "green",
          "red",
        ]);

        // beta's panel (beside alpha's) shows no question.
        const beta = await webviewFrame(s.page, "Manifold: beta");
        await beta.locator(byTestId(TEST_IDS.composerInput)).waitFor({ state: "visible", timeout: 30_000 });
        assert.equal(await beta.locator(byTestId(TEST_IDS.questionCard)).count(), 0, "beta's panel shows alpha's question");
        await screenshot(s.page, "question-card");

        // Submitting without a choice is refused in the panel; nothing reaches the agent.
        await card.locator(byTestId(TEST_IDS.questionSubmit)).click();
        await card.locator(byTestId(TEST_IDS.questionError)).waitFor({ state: "visible", timeout: 30_000 });
        assert.equal(afterToolResult(s, "[ask]").length, 0, "an empty required answer was sent");

        await card.locator('input[type="radio"][value="green"]').check();
        await card.locator(byTestId(TEST_IDS.questionSubmit)).click();
        await alpha.locator(byTestId(TEST_IDS.agentMessage), { hasText: "Green it is." }).waitFor({ state: "visible", timeout: 60_000 });
        const settled = alpha.locator(byTestId(TEST_IDS.questionCard)).last();
        assert.equal(await settled.getAttribute("data-state"), "answered");
        assert.equal((await settled.locator(".question-outcome").innerText()).trim(), "Answered: green");
        const after = afterToolResult(s, "[ask]");
        assert.equal(after.length, 1);
        assert.equal(lastToolResult(after[0]!), "green");
        assert.equal(await beta.locator(byTestId(TEST_IDS.questionCard)).count(), 0);
        assert.equal(await s.page.evaluate("window.__pwned"), undefined);
      });
    });

    it("I-46: Decline answers `decline` (the model is told); cancelling the turn marks a pending card cancelled", () => {
      const s = scenario();
      return s.step("question-decline-cancel", async () => {
        s.model.route(
          "[ask-decline]",
          { toolCalls: [{ name: "ask_user", args: { question: "Shall I go on?" } }] },
          { text: "Understood, not going on." },
        );
        s.model.route("[ask-cancel]", { toolCalls: [{ name: "ask_user", args: { question: "Wait for me?" } }] }, { text: "never shown" });
        const alpha = await s.send("alpha", "[ask-decline] ask me something");
        const card = alpha.locator(`${byTestId(TEST_IDS.questionCard)}[data-state="pending"]`);
        await card.waitFor({ state: "visible", timeout: 60_000 });
        await card.locator(byTestId(TEST_IDS.questionDecline)).click();
        await alpha
          .locator(byTestId(TEST_IDS.agentMessage), { hasText: "Understood, not going on." })
          .waitFor({ state: "visible", timeout: 60_000 });
        const declined = afterToolResult(s, "[ask-decline]");
        assert.equal(declined.length, 1);
        assert.match(lastToolResult(declined[0]!), /declined/i);
        assert.equal(await alpha.locator(`${byTestId(TEST_IDS.questionCard)}[data-state="declined"]`).count(), 1);

        await s.send("alpha", "[ask-cancel] ask, then I cancel");
        await card.waitFor({ state: "visible", timeout: 60_000 });
        await alpha.locator(byTestId(TEST_IDS.cancel)).click();
        await alpha.locator(`${byTestId(TEST_IDS.questionCard)}[data-state="cancelled"]`).waitFor({ state: "visible", timeout: 60_000 });
        await alpha.locator(`${byTestId(TEST_IDS.app)}[data-running="false"]`).waitFor({ timeout: 60_000 });
        assert.equal(await alpha.locator(`${byTestId(TEST_IDS.questionCard)}[data-state="pending"]`).count(), 0);
        assert.equal(afterToolResult(s, "[ask-cancel]").length, 0, "a cancelled question was answered");
      });
    });

    it("I-46: a question for a hidden panel is surfaced (notification, badge, Show Pending Approvals), never answered for the user", () => {
      const s = scenario();
      return s.step("question-hidden", async () => {
        const page = s.page;
        s.model.route(
          "[ask-hidden]",
          {
            hang: true,
            then: { toolCalls: [{ name: "ask_user", args: { question: "Which file first?", choices: ["README.md", "src/greet.ts"] } }] },
          },
          { text: "Reading src/greet.ts." },
        );
        const n = s.model.requests.length;
        await s.send("alpha", "[ask-hidden] ask me while I look elsewhere");
        await s.model.waitForRequests(n + 1);
        await hidePanelUntilSeen(page, "alpha", "README.md");
        s.model.release();
        const toast = page
          .locator(".notifications-toasts .notification-toast", { hasText: "Manifold (alpha) has a question for you: Which file first?" })
          .first();
        await toast.waitFor({ state: "visible", timeout: 60_000 });
        const badge = page.locator('.activitybar .action-item:has([aria-label^="Manifold"]) .badge-content').first();
        await badge.waitFor({ state: "visible", timeout: 30_000 });
        assert.equal((await badge.innerText()).trim(), "1");
        assert.equal(afterToolResult(s, "[ask-hidden]").length, 0, "the question was answered for the user");

        // The palette's list of what waits for the user names it; picking it brings alpha's panel back.
        await runCommandAndPick(page, "Manifold: Show Pending Approvals", "Which file first?");
        const alpha = await webviewFrame(page, "Manifold: alpha");
        const card = alpha.locator(`${byTestId(TEST_IDS.questionCard)}[data-state="pending"]`);
        await card.waitFor({ state: "visible", timeout: 60_000 });
        await card.locator('input[type="radio"][value="src/greet.ts"]').check();
        // A choice made but not submitted survives hiding the panel again (its page is rebuilt).
        await hidePanelBehindFile(page, "alpha", "README.md");
        const shown = await s.reveal("alpha");
        const same = shown.locator(`${byTestId(TEST_IDS.questionCard)}[data-state="pending"]`);
        await same.waitFor({ state: "visible", timeout: 60_000 });
        assert.equal(
          await same.locator('input[type="radio"][value="src/greet.ts"]').isChecked(),
          true,
          "the choice was lost when the panel was hidden",
        );
        await same.locator(byTestId(TEST_IDS.questionSubmit)).click();
        await shown
          .locator(byTestId(TEST_IDS.agentMessage), { hasText: "Reading src/greet.ts." })
          .waitFor({ state: "visible", timeout: 60_000 });
        assert.equal(lastToolResult(afterToolResult(s, "[ask-hidden]")[0]!), "src/greet.ts");
        await badge.waitFor({ state: "hidden", timeout: 30_000 });
        // Leave the window as the section found it: the file opened to hide the panel is closed again.
        await closeEditor(page, "README.md");
      });
    });
  });
}
