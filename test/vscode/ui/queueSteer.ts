// Queue and steer in the composer (I-104), in the beta panel: while a turn hangs on the fake
// model, two messages typed + Enter are listed as queued; one is edited, the second moved up; steering
// one puts it into the running turn (the next model request carries it); when the turn ends, the
// one left in the queue is sent as the next prompt. Screenshot: queue.png.
import * as assert from "node:assert/strict";
import { describe, it } from "node:test";
import { screenshot } from "../support/browser";
import { byTestId, type Scenario } from "../support/scenario";
import { TEST_IDS } from "../../../extension/webview/testIds";

export function queueSteerTests(scenario: () => Scenario): void {
  describe("queue and steer in the composer", () => {
    it("I-104: Enter queues while a turn runs; edit, reorder, steer one into the turn, the other is sent when it ends", () => {
      const s = scenario();
      return s.step("queue-steer", async () => {
        s.model.route("[qs-first]", { hang: true, then: { text: "first turn, first step" } });
        s.model.route("[qs-steer]", { text: "took the steer" });
        s.model.route("[qs-later]", { text: "the queued one arrived" });
        const before = s.model.requests.length;
        // An earlier section may have closed beta's panel.
        await s.reveal("beta");
        const beta = await s.send("beta", "[qs-first] start a long task");
        // The first step's request has arrived (it hangs) and the panel shows the turn running.
        await s.model.waitForRequests(before + 1);
        await beta.locator(`${byTestId(TEST_IDS.app)}[data-running="true"]`).waitFor({ timeout: 30_000 });
        const input = beta.locator(byTestId(TEST_IDS.composerInput));
        await input.fill("[qs-later] queued message");
        await input.press("Enter");
        await input.fill("[qs-steer] steer message");
        await input.press("Enter");
        const items = beta.locator(byTestId(TEST_IDS.queueItem));
        await items.nth(1).waitFor({ state: "visible", timeout: 30_000 });
        assert.deepEqual(
          (await items.allInnerTexts()).map((t) => t.trim()),
          ["[qs-later] queued message", "[qs-steer] steer message"],
        );
        // Edit the first, then move the second up (keyboard: focus the button, press Enter).
        await items.nth(0).locator(byTestId(TEST_IDS.queueEdit)).click();
        const edit = beta.locator(byTestId(TEST_IDS.queueEditInput));
        await edit.fill("[qs-later] queued message, edited");
        await edit.press("Enter");
        await beta.locator(byTestId(TEST_IDS.queueItem), { hasText: "edited" }).waitFor({ timeout: 30_000 });
        await items.nth(1).locator(byTestId(TEST_IDS.queueUp)).focus();
        await items.nth(1).locator(byTestId(TEST_IDS.queueUp)).press("Enter");
        await items.nth(0).filter({ hasText: "[qs-steer]" }).waitFor({ timeout: 30_000 });
        assert.deepEqual(
          (await items.allInnerTexts()).map((t) => t.trim()),
          ["[qs-steer] steer message", "[qs-later] queued message, edited"],
        );
        await screenshot(s.page, "queue");
        // Steer the first: it leaves the queue at once; the agent shows it where it lands, at the next model step.
        await items.nth(0).locator(byTestId(TEST_IDS.queueSteer)).click();
        await beta.locator(byTestId(TEST_IDS.queueItem), { hasText: "[qs-steer]" }).waitFor({ state: "detached", timeout: 30_000 });
        assert.equal(await items.count(), 1);
        s.model.release();
        await beta.locator(byTestId(TEST_IDS.steeredLabel)).waitFor({ state: "visible", timeout: 60_000 });
        // The step after the hang carries the steer; then the turn ends and the queued one is sent.
        await beta.locator(byTestId(TEST_IDS.agentMessage), { hasText: "the queued one arrived" }).waitFor({ timeout: 60_000 });
        const texts = s.model.requests.slice(before).map((r) => r.lastUserText);
        assert.ok(texts[1]?.includes("[qs-steer] steer message"), `the request after the hang carries the steer: ${JSON.stringify(texts)}`);
        assert.ok(
          texts.some((t) => t.includes("[qs-later] queued message, edited")),
          "the queued message was sent",
        );
        assert.equal(await items.count(), 0);
        await beta.locator(`${byTestId(TEST_IDS.app)}[data-running="false"]`).waitFor({ timeout: 60_000 });
      });
    });
  });
}
