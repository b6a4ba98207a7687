// Permission requests in a two-folder window (I-93): folder beta's turns ask (beta's approval policy is
// `untrusted`, or the write is outside its folder); alpha's panel must never show them. A request for a
// hidden panel is surfaced, never answered; dismissing the card or closing the panel rejects.
import * as assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { runCommand, screenshot, webviewFrame } from "../support/browser";
import { byTestId, closeEditor, hidePanelUntilSeen, lastToolResult, type Scenario } from "../support/scenario";
import { TEST_IDS } from "../../../extension/webview/testIds";

export function permissionTests(scenario: () => Scenario): void {
  describe("permission requests (I-93)", () => {
    let s: Scenario;
    let outside: string;

    before(async () => {
      s = scenario();
      outside = join(s.workspace.root, "outside");
      mkdirSync(outside, { recursive: true });
      await s.reveal("alpha");
      await s.reveal("beta");
    });

    it("I-93: beta's request is shown only in beta's panel; Allow once runs the tool, Reject refuses it", () =>
      s.step("perm-visible", async () => {
        // An approved write goes through the extension's fs service, which serves only the session's folder
        // (I-94); so the allowed write is inside beta, asked for because beta's approval policy is `untrusted`.
        const allowed = join(s.workspace.beta, "allowed.txt");
        const rejected = join(outside, "rejected.txt");
        s.model.route(
          "[b-allow]",
          { toolCalls: [{ name: "write_file", args: { path: allowed, content: "yes" } }] },
          { text: "beta wrote it" },
        );
        s.model.route(
          "[b-reject]",
          { toolCalls: [{ name: "write_file", args: { path: rejected, content: "no" } }] },
          { text: "beta was refused" },
        );

        const betaPanel = await s.panel("beta");
        const approval = betaPanel.locator(`select[data-config-id="approval"]`);
        await approval.selectOption("untrusted");
        await betaPanel
          .locator(`select[data-config-id="approval"] option[value="untrusted"]:checked`)
          .waitFor({ state: "attached", timeout: 30_000 });
        const beta = await s.send("beta", "[b-allow] write a file please");
        const card = beta.locator(byTestId(TEST_IDS.permissionCard)).last();
        await card.waitFor({ state: "visible", timeout: 60_000 });
        // Both panels side by side: the shots show the card in beta and none in alpha.
        for (const scheme of ["light", "dark"] as const) {
          await s.page.emulateMedia({ colorScheme: scheme });
          await s.page.locator(`.monaco-workbench.${scheme === "dark" ? "vs-dark" : "vs"}`).waitFor({ timeout: 30_000 });
          const b = await webviewFrame(s.page, "Manifold: beta");
          await b.locator(`body.vscode-${scheme}`).waitFor({ timeout: 30_000 });
          await b.locator(byTestId(TEST_IDS.permissionCard)).last().waitFor({ state: "visible", timeout: 30_000 });
          await screenshot(s.page, `permission-card-${scheme}`);
        }
        await s.page.emulateMedia({ colorScheme: "light" });
        const alpha = await webviewFrame(s.page, "Manifold: alpha");
        await alpha.locator(byTestId(TEST_IDS.composerInput)).waitFor({ state: "visible" });
        assert.equal(await alpha.locator(byTestId(TEST_IDS.permissionCard)).count(), 0, "alpha's panel shows beta's permission card");
        assert.equal(existsSync(allowed), false, "the tool ran before anyone answered");

        // Allow once → the write happens and the turn goes on.
        await beta
          .locator(byTestId(TEST_IDS.permissionOption), { hasText: /allow once/i })
          .first()
          .click();
        await beta.locator(byTestId(TEST_IDS.agentMessage), { hasText: "beta wrote it" }).waitFor({ state: "visible", timeout: 60_000 });
        assert.equal(existsSync(allowed), true, "Allow once did not run the write");

        // Reject → no file, and the model is told it was refused.
        await s.send("beta", "[b-reject] write outside again");
        const card2 = beta.locator(`${byTestId(TEST_IDS.permissionCard)}.pending`);
        await card2.waitFor({ state: "visible", timeout: 60_000 });
        assert.equal(await alpha.locator(byTestId(TEST_IDS.permissionCard)).count(), 0);
        await card2
          .locator(byTestId(TEST_IDS.permissionOption), { hasText: /reject/i })
          .first()
          .click();
        await beta.locator(byTestId(TEST_IDS.agentMessage), { hasText: "beta was refused" }).waitFor({ state: "visible", timeout: 60_000 });
        assert.equal(existsSync(rejected), false, "Reject still wrote the file");
        const after = s.model.requests.filter((r) => r.lastUserText.includes("[b-reject]") && r.afterToolResult);
        assert.equal(after.length, 1);
        assert.match(lastToolResult(after[0]!), /reject|refus|denied|declin/i);
        // alpha never saw any of it.
        await (await s.panel("alpha")).locator(byTestId(TEST_IDS.composerInput)).waitFor({ state: "visible" });
        const alphaNow = await webviewFrame(s.page, "Manifold: alpha");
        assert.equal(await alphaNow.locator(byTestId(TEST_IDS.permissionCard)).count(), 0);
      }));

    it("I-93: a request for a hidden panel is surfaced (notification, badge), never answered; dismissing or closing rejects", () =>
      s.step("perm-hidden", async () => {
        const page = s.page;
        const t1 = join(outside, "hidden-1.txt");
        const t2 = join(outside, "hidden-2.txt");
        s.model.route(
          "[b-hidden-1]",
          { hang: true, then: { toolCalls: [{ name: "write_file", args: { path: t1, content: "x" } }] } },
          { text: "first answered" },
        );
        s.model.route(
          "[b-hidden-2]",
          { hang: true, then: { toolCalls: [{ name: "write_file", args: { path: t2, content: "x" } }] } },
          { text: "second answered" },
        );
        const hideBeta = (): Promise<void> => hidePanelUntilSeen(page, "beta", "notes.txt");
        /** The "waiting for your approval" notification: a toast, or (if the toast already timed out) in the center. */
        const approvalNotification = async () => {
          try {
            await toast.first().waitFor({ state: "visible", timeout: 30_000 });
            return toast.first();
          } catch {
            await runCommand(page, "Notifications: Show Notifications");
            const item = page
              .locator(".notifications-center .notification-list-item", { hasText: "Manifold (beta) is waiting for your approval" })
              .first();
            await item.waitFor({ state: "visible", timeout: 30_000 });
            return item;
          }
        };
        const toast = page.locator(".notifications-toasts .notification-toast", {
          hasText: "Manifold (beta) is waiting for your approval",
        });
        const badge = page
          .locator(
            '.activitybar .action-item:has([aria-label^="Manifold"]) .badge-content, .activitybar .action-item[aria-label^="Manifold"] .badge-content',
          )
          .first();

        // Round 1: request arrives while hidden; "Show" opens the panel; dismissing the card rejects.
        const hangsBefore = s.model.requests.length;
        await s.send("beta", "[b-hidden-1] write outside while hidden");
        await s.model.waitForRequests(hangsBefore + 1);
        await hideBeta();
        s.model.release();
        const notification = await approvalNotification();
        await badge.waitFor({ state: "visible", timeout: 30_000 });
        assert.equal((await badge.innerText()).trim(), "1");
        await screenshot(page, "permission-hidden-notification");
        assert.equal(existsSync(t1), false, "the request was answered for the user");
        assert.equal(s.model.requests.filter((r) => r.lastUserText.includes("[b-hidden-1]") && r.afterToolResult).length, 0);
        await notification.locator(".monaco-button", { hasText: "Show" }).click();
        const beta = await webviewFrame(page, "Manifold: beta");
        const pending = beta.locator(`${byTestId(TEST_IDS.permissionCard)}.pending`);
        await pending.waitFor({ state: "visible", timeout: 60_000 });
        await pending.locator(byTestId(TEST_IDS.permissionDismiss)).click();
        await beta.locator(byTestId(TEST_IDS.agentMessage), { hasText: "first answered" }).waitFor({ state: "visible", timeout: 60_000 });
        assert.equal(existsSync(t1), false, "dismissing the card granted the write");
        const after1 = s.model.requests.filter((r) => r.lastUserText.includes("[b-hidden-1]") && r.afterToolResult);
        assert.equal(after1.length, 1);
        assert.match(lastToolResult(after1[0]!), /reject|refus|denied|declin/i);
        await badge.waitFor({ state: "hidden", timeout: 30_000 });

        // Round 2: hidden again; closing the panel answers the request (reject), never allow.
        const n = s.model.requests.length;
        await s.send("beta", "[b-hidden-2] write outside, then I close the panel");
        await s.model.waitForRequests(n + 1);
        await hideBeta();
        s.model.release();
        await badge.waitFor({ state: "visible", timeout: 60_000 });
        await approvalNotification();
        assert.equal(existsSync(t2), false);
        await closeEditor(page, "Manifold: beta");
        await badge.waitFor({ state: "hidden", timeout: 30_000 });
        assert.equal(existsSync(t2), false, "closing the panel granted the write");
        const after2 = s.model.requests.filter((r) => r.lastUserText.includes("[b-hidden-2]") && r.afterToolResult);
        // The close also cancels the turn, so the model may not be asked again; if it is, it was refused.
        for (const r of after2) assert.match(lastToolResult(r), /reject|refus|denied|declin|cancel/i);
      }));
  });
}
