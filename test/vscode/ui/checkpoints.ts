// Checkpoints in a real VS Code, in folder alpha: an agent turn that edits two files and
// creates a third with bash shows the three in the changes list with +/− counts; per-file Undo reverts
// one on disk; a click opens VS Code's diff editor (checkpoint ↔ real file) whose own "Revert Block"
// reverts one hunk; the sessions view lists the same files. The per-file Undo's banner offers "Undo
// this undo" for that file. A file the user changes on disk joins the list at once, marked as theirs.
// Restoring an older checkpoint lists every file first, the user's edits marked and keeping them the
// primary choice, and "Undo restore" brings back the exact state before. Edit and resend forks the
// conversation: the model gets the edited prompt and never the abandoned turn; its turn takes the
// banner away.
import * as assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import type { FrameLocator } from "playwright-core";
import { runCommand, screenshot } from "../support/browser";
import { byTestId, eventually, type Scenario } from "../support/scenario";
import { TEST_IDS } from "../../../extension/webview/testIds";

const lines = (prefix: string, n: number): string => Array.from({ length: n }, (_, i) => `${prefix} line ${i + 1}`).join("\n") + "\n";
const ONE = lines("one", 12);
const TWO = lines("two", 4);
// write_file changes lines 2 and 11 of one.txt: two hunks far enough apart to stay two in the diff.
const ONE_AGENT = ONE.replace("one line 2\n", "one line 2 (agent)\n").replace("one line 11\n", "one line 11 (agent)\n");
const TWO_AGENT = TWO.replace("two line 3\n", "two line 3 (agent)\n");
const THREE = "made by bash\nsecond line\n";
const ABANDONED_REPLY = "the fourth file is written";

export function checkpointTests(scenario: () => Scenario): void {
  describe("checkpoints", () => {
    let s: Scenario;
    let dir: string;
    const file = (name: string): string => join(dir, name);
    const read = (name: string): string | undefined => (existsSync(file(name)) ? readFileSync(file(name), "utf8") : undefined);
    const state = (): Record<string, string | undefined> =>
      Object.fromEntries(["one.txt", "two.txt", "three.txt", "four.txt"].map((n) => [n, read(n)]));
    let alpha: FrameLocator;
    const userMessage = (marker: string) => alpha.locator(byTestId(TEST_IDS.userMessage), { hasText: marker }).first();
    const changed = () => alpha.locator(byTestId(TEST_IDS.changesFile));
    const changedPaths = async (): Promise<string[]> =>
      (await changed().evaluateAll((els) => els.map((e) => e.getAttribute("data-path") ?? ""))).sort();

    before(async () => {
      s = scenario();
      dir = join(s.workspace.alpha, "ck");
      mkdirSync(dir, { recursive: true });
      writeFileSync(file("one.txt"), ONE);
      writeFileSync(file("two.txt"), TWO);
      alpha = await s.reveal("alpha");
    });

    it("I-105: an agent turn's three changed files are listed with +/−; Undo reverts one and offers Undo this undo for it alone; the diff editor's Revert Block reverts one hunk", () =>
      s.step("ckpt-changes", async () => {
        s.model.route(
          "[ck-edit]",
          {
            toolCalls: [
              { name: "write_file", args: { path: file("one.txt"), content: ONE_AGENT } },
              { name: "edit_file", args: { path: file("two.txt"), old_string: "two line 3\n", new_string: "two line 3 (agent)\n" } },
              { name: "bash", args: { command: `printf 'made by bash\\nsecond line\\n' > ${file("three.txt")}` } },
            ],
          },
          { text: "three files changed" },
        );
        await s.send("alpha", "[ck-edit] change three files");
        await alpha
          .locator(byTestId(TEST_IDS.agentMessage), { hasText: "three files changed" })
          .waitFor({ state: "visible", timeout: 60_000 });
        // The turn's end is checkpointed before the panel is idle; the undos below come after it.
        await alpha.locator(`${byTestId(TEST_IDS.app)}[data-running="false"]`).waitFor({ state: "attached", timeout: 60_000 });
        assert.deepEqual(
          state(),
          { "one.txt": ONE_AGENT, "two.txt": TWO_AGENT, "three.txt": THREE, "four.txt": undefined },
          "the agent's turn did not change the files",
        );

        // The list settles on the turn's files (it can show the previous turn's row for a moment).
        const expected = ["ck/one.txt", "ck/three.txt", "ck/two.txt"];
        const settled = async () => JSON.stringify(await changedPaths()) === JSON.stringify(expected);
        await eventually(async () => ((await settled()) ? true : undefined), "the turn's three files in the changes list");
        assert.deepEqual(await changedPaths(), expected);
        const row = (p: string) => alpha.locator(`${byTestId(TEST_IDS.changesFile)}[data-path="${p}"]`);
        const counts = async (p: string): Promise<string> => (await row(p).locator(".counts").innerText()).replace(/\s+/g, " ").trim();
        assert.equal(await counts("ck/one.txt"), "+2 −2");
        assert.equal(await counts("ck/two.txt"), "+1 −1");
        assert.equal(await counts("ck/three.txt"), "+2 −0");
        assert.equal(await row("ck/three.txt").getAttribute("data-status"), "A");
        await screenshot(s.page, "checkpoint-changes");

        // Per-file Undo: two.txt goes back to the checkpoint on disk, and leaves the list; the rest stay.
        // Its banner offers "Undo this undo", which brings back that file only; then it is undone again.
        const banner = alpha.locator(byTestId(TEST_IDS.restoreDone));
        const confirm = alpha.locator(byTestId(TEST_IDS.restoreConfirm));
        await row("ck/two.txt").locator(byTestId(TEST_IDS.changesUndo)).click();
        await row("ck/two.txt").waitFor({ state: "detached", timeout: 60_000 });
        assert.equal(read("two.txt"), TWO);
        await banner.waitFor({ state: "visible", timeout: 60_000 });
        assert.equal(await banner.getAttribute("data-kind"), "undo");
        const undoUndo = banner.locator(byTestId(TEST_IDS.restoreUndo));
        assert.equal((await undoUndo.innerText()).trim(), "Undo this undo");
        await undoUndo.click();
        await confirm.waitFor({ state: "visible", timeout: 60_000 });
        assert.deepEqual(
          await confirm.locator(byTestId(TEST_IDS.restoreItem)).evaluateAll((els) => els.map((e) => e.getAttribute("data-path"))),
          ["ck/two.txt"],
          "undoing the undo changes that file only",
        );
        await confirm.locator(byTestId(TEST_IDS.restoreApply)).click();
        await row("ck/two.txt").waitFor({ state: "visible", timeout: 60_000 });
        assert.equal(read("two.txt"), TWO_AGENT);
        assert.equal(await banner.getAttribute("data-kind"), "revert");
        await row("ck/two.txt").locator(byTestId(TEST_IDS.changesUndo)).click();
        await row("ck/two.txt").waitFor({ state: "detached", timeout: 60_000 });
        assert.equal(read("two.txt"), TWO);
        assert.equal(read("one.txt"), ONE_AGENT);
        assert.equal(read("three.txt"), THREE);
        await eventually(async () => ((await changedPaths()).length === 2 ? true : undefined), "two files left in the changes list");

        // The sessions view lists the same changed files under alpha's session, +/− in the description,
        // and a click there opens the same diff.
        await s.page.locator('.activitybar [aria-label^="Manifold"]').first().click();
        const treeRow = (p: string) => s.page.locator(".sidebar .monaco-list-row", { hasText: p }).first();
        await treeRow("ck/three.txt").waitFor({ state: "visible", timeout: 60_000 });
        await treeRow("ck/two.txt").waitFor({ state: "detached", timeout: 30_000 });
        assert.match(await treeRow("ck/one.txt").innerText(), /\+2 −2/);
        await screenshot(s.page, "checkpoint-sessions-view");
        await treeRow("ck/three.txt").click();
        await s.page.locator(".editor-group-container.active .monaco-diff-editor").first().waitFor({ state: "visible", timeout: 60_000 });
        await runCommand(s.page, "View: Close Editor");
        await s.page.locator('.tabs-container .tab[data-resource-name="three.txt"]').waitFor({ state: "detached", timeout: 30_000 });
        await runCommand(s.page, "View: Show Explorer");
        alpha = await s.reveal("alpha");

        // A click opens VS Code's diff editor: the checkpoint on the left, the real (writable) file on the right.
        await row("ck/one.txt").locator("button.link").click();
        const diff = s.page.locator(".editor-group-container.active .monaco-diff-editor").first();
        await diff.waitFor({ state: "visible", timeout: 60_000 });
        // The diff editor's hunk toolbar (a gutter item per hunk, shown on hover) has its own "Revert Block".
        const gutterItems = diff.locator(".gutterItem");
        await eventually(
          async () => ((await gutterItems.count()) >= 2 ? true : undefined),
          "two hunks in the diff editor's gutter",
          30_000,
        );
        await gutterItems.first().hover();
        await gutterItems.first().locator('.action-label[aria-label^="Revert Block"]').click();
        await runCommand(s.page, "File: Save");
        await eventually(
          () => (read("one.txt") === ONE.replace("one line 11\n", "one line 11 (agent)\n") ? true : undefined),
          "one.txt saved with only its first hunk reverted",
          30_000,
        );
        // The diff's tab is not closed by its close button while the modified side keeps focus: close it by command.
        await runCommand(s.page, "View: Close Editor");
        await s.page.locator('.tabs-container .tab[data-resource-name="one.txt"]').waitFor({ state: "detached", timeout: 30_000 });
      }));

    it("I-105: the user's own edit joins the list marked; restoring lists the files first, keeping the user's edits is the primary choice; Undo restore brings back the exact state", () =>
      s.step("ckpt-restore", async () => {
        s.model.route(
          "[ck-four]",
          { toolCalls: [{ name: "write_file", args: { path: file("four.txt"), content: "four\n" } }] },
          { text: ABANDONED_REPLY },
        );
        alpha = await s.reveal("alpha");
        await s.send("alpha", "[ck-four] write a fourth file");
        await alpha.locator(byTestId(TEST_IDS.agentMessage), { hasText: ABANDONED_REPLY }).waitFor({ state: "visible", timeout: 60_000 });
        // The turn has ended once its end is checkpointed (the reply shows a moment before): only then
        // is a change the user's.
        await alpha.locator(`${byTestId(TEST_IDS.app)}[data-running="false"]`).waitFor({ state: "attached", timeout: 60_000 });
        // The user edits two.txt after the agent's turn ended (on disk, like an editor's save): the
        // changes list shows it at once, marked as the user's.
        writeFileSync(file("two.txt"), "the user's own text\n");
        const before = state();
        const mineRow = alpha.locator(`${byTestId(TEST_IDS.changesFile)}[data-path="ck/two.txt"]`);
        await mineRow.waitFor({ state: "visible", timeout: 60_000 });
        assert.equal(await mineRow.getAttribute("data-user-edit"), "true", "the user's edit is not marked in the changes list");
        await mineRow.locator(byTestId(TEST_IDS.changesUserEdit)).waitFor({ state: "visible", timeout: 10_000 });

        const first = userMessage("[ck-edit]");
        await first.hover();
        await first.locator(byTestId(TEST_IDS.restoreCheckpoint)).click();
        const confirm = alpha.locator(byTestId(TEST_IDS.restoreConfirm));
        await confirm.waitFor({ state: "visible", timeout: 60_000 });
        const items = confirm.locator(byTestId(TEST_IDS.restoreItem));
        const planned = await items.evaluateAll((els) =>
          els.map((e) => [e.getAttribute("data-path") ?? "", e.getAttribute("data-user-edit") ?? ""] as const),
        );
        const plan = Object.fromEntries(planned);
        assert.deepEqual(Object.keys(plan).sort(), ["ck/four.txt", "ck/one.txt", "ck/three.txt", "ck/two.txt"]);
        assert.equal(plan["ck/two.txt"], "true", "the user's edit of two.txt is not marked");
        assert.equal(plan["ck/three.txt"], "false");
        assert.equal(plan["ck/four.txt"], "false");
        // The safe choice is the primary button; restoring the user's edits too is the secondary one.
        const keepMine = confirm.locator(byTestId(TEST_IDS.restoreKeepMine));
        const all = confirm.locator(byTestId(TEST_IDS.restoreApply));
        assert.equal((await keepMine.innerText()).trim(), "Restore, keep my edits");
        assert.match((await keepMine.getAttribute("class")) ?? "", /\bprimary\b/);
        assert.equal((await all.innerText()).trim(), "Restore all, including my edits");
        assert.match((await all.getAttribute("class")) ?? "", /\bsecondary\b/);
        await screenshot(s.page, "restore-confirm");

        await all.click();
        const banner = alpha.locator(byTestId(TEST_IDS.restoreDone));
        await banner.waitFor({ state: "visible", timeout: 60_000 });
        await eventually(async () => ((await banner.getAttribute("data-kind")) === "restore" ? true : undefined), "the restore's banner");
        assert.deepEqual(
          state(),
          { "one.txt": ONE, "two.txt": TWO, "three.txt": undefined, "four.txt": undefined },
          "the restore did not bring back the checkpoint",
        );

        // Undo restore: its own confirmation, then exactly the state before the restore.
        await alpha.locator(byTestId(TEST_IDS.restoreUndo)).click();
        await confirm.waitFor({ state: "visible", timeout: 60_000 });
        await confirm.locator(byTestId(TEST_IDS.restoreApply)).click();
        await eventually(
          () => (JSON.stringify(state()) === JSON.stringify(before) ? true : undefined),
          "the state before the restore",
          60_000,
        );
        assert.deepEqual(state(), before);
        // The list follows the disk: the files changed since [ck-four]'s checkpoint, the user's marked.
        await eventually(
          async () =>
            (await mineRow.getAttribute("data-user-edit")) === "true" && (await changedPaths()).includes("ck/four.txt") ? true : undefined,
          "the changes list after the undo of the restore",
        );
      }));

    it("I-105: edit and resend: the model gets the edited prompt and not the abandoned turn; the later turn takes the restore's banner away", () =>
      s.step("ckpt-resend", async () => {
        s.model.route("[ck-resend]", { text: "resent and answered" });
        alpha = await s.reveal("alpha");
        const abandoned = userMessage("[ck-four]");
        await abandoned.hover();
        await abandoned.locator(byTestId(TEST_IDS.editMessage)).click();
        await alpha.locator(byTestId(TEST_IDS.editInput)).fill("[ck-resend] the edited prompt");
        await alpha.locator(byTestId(TEST_IDS.editSend)).click();
        // four.txt and the user's two.txt differ from the checkpoint before [ck-four]: confirm the restore.
        const confirm = alpha.locator(byTestId(TEST_IDS.restoreConfirm));
        await confirm.waitFor({ state: "visible", timeout: 60_000 });
        await confirm.locator(byTestId(TEST_IDS.restoreApply)).click();
        await alpha
          .locator(byTestId(TEST_IDS.agentMessage), { hasText: "resent and answered" })
          .waitFor({ state: "visible", timeout: 60_000 });

        // The resent turn is later than the restore: its banner (Undo restore) is gone.
        await alpha.locator(byTestId(TEST_IDS.restoreDone)).waitFor({ state: "detached", timeout: 60_000 });

        const reqs = s.model.requests.filter((r) => r.lastUserText.includes("[ck-resend]"));
        assert.equal(reqs.length, 1);
        const sent = JSON.stringify(reqs[0]!.messages);
        assert.ok(sent.includes("[ck-resend] the edited prompt"), "the edited prompt was not sent");
        assert.ok(sent.includes("[ck-edit]"), "the turn before the edited one was forgotten");
        assert.ok(!sent.includes("[ck-four]"), "the abandoned prompt was sent again");
        assert.ok(!sent.includes(ABANDONED_REPLY), "the abandoned turn's reply was sent again");
        assert.equal(read("four.txt"), undefined, "the abandoned turn's file is still there");
        // The panel shows the edited prompt in place of the abandoned one.
        const users = (await alpha.locator(byTestId(TEST_IDS.userMessage)).allInnerTexts()).join("\n");
        assert.ok(users.includes("[ck-resend]") && !users.includes("[ck-four]"), `the panel's prompts: ${users}`);
      }));
  });
}
