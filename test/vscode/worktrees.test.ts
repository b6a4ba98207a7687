// needs: e2e-tools
// Worktree sessions in a real VS Code: folder alpha is a git repository; "New Session in Worktree…"
// makes two worktree sessions (fix-one, fix-two) beside alpha's own session, each with its own panel.
// All three run a turn at once: each worktree session edits the same file differently, commits in its
// worktree through git, and tries to write outside its own root (alpha's working tree, the sibling
// worktree, the shared repository's hooks and config); alpha's own session tries to write into a
// worktree. Nothing reaches alpha before Apply; Review opens the multi-file diff; Apply brings fix-one's
// change in; Discard removes fix-two's worktree and branch.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { TEST_IDS } from "../../extension/webview/testIds";
import { runCommandAndPick, screenshot, webviewFrame } from "./support/browser";
import { byTestId, startScenario, type Scenario } from "./support/scenario";

const BASE = "shared line 1\nshared line 2\n";
const git = (cwd: string, ...args: string[]): string =>
  execFileSync("git", ["-c", "user.name=Test", "-c", "user.email=test@example.invalid", ...args], { cwd, encoding: "utf8" });

/**
 * Answers the input box whose prompt says `prompt` with `text` (or keeps its suggested value) and
 * presses Enter. An input box ignores Enter while its (asynchronous) check of the value runs, so
 * Enter is pressed again until the box goes.
 */
async function answerInput(page: Page, prompt: RegExp, text?: string): Promise<void> {
  const widget = page.locator(".quick-input-widget", { hasText: prompt });
  const input = widget.locator(".quick-input-box input");
  await input.waitFor({ state: "visible", timeout: 20_000 });
  if (text !== undefined) await input.fill(text);
  for (let i = 0; ; i++) {
    await input.press("Enter");
    try {
      await widget.waitFor({ state: "hidden", timeout: 2_000 });
      return;
    } catch (error) {
      if (i >= 10) throw error;
    }
  }
}

/** Clicks `button` on the modal dialog that says `text`. */
async function confirmDialog(page: Page, text: RegExp, button: string): Promise<void> {
  const dialog = page.locator(".monaco-dialog-box", { hasText: text });
  await dialog.waitFor({ state: "visible", timeout: 30_000 });
  await dialog
    .locator(".dialog-buttons a, .dialog-buttons button", { hasText: new RegExp(`^${button}$`) })
    .first()
    .click();
}

describe("worktree sessions through Manifold's UI", () => {
  let s: Scenario | undefined;
  const scenario = (): Scenario => {
    if (!s) throw new Error("the scenario did not start (see the before hook's error)");
    return s;
  };
  let alpha = "";
  let common = "";
  const wt = (branch: string): string => join(`${alpha}.worktrees`, branch);

  before(async () => {
    s = await startScenario("manifold-worktrees-", {
      prepare: (ws) => {
        writeFileSync(join(ws.alpha, "shared.txt"), BASE);
        git(ws.alpha, "init", "-q", "-b", "main");
        git(ws.alpha, "add", "-A");
        git(ws.alpha, "commit", "-qm", "base");
      },
    });
    alpha = s.workspace.alpha;
    common = join(alpha, ".git");
  });

  after(async () => {
    const leftovers = (await s?.close()) ?? [];
    assert.deepEqual(leftovers, [], "processes outlived code-server");
  });

  const newWorktreeSession = async (task: string, branch: string) => {
    const t = scenario();
    await runCommandAndPick(t.page, "Manifold: New Session in Worktree…", "alpha");
    await answerInput(t.page, /What is the task\?/, task);
    // The suggested branch name is the task's slug.
    await answerInput(t.page, /The new branch, from alpha's HEAD/);
    const frame = await webviewFrame(t.page, `Manifold: alpha ▸ ${branch}`, 90_000);
    await frame.locator(byTestId(TEST_IDS.composerInput)).waitFor({ state: "visible", timeout: 60_000 });
    return frame;
  };

  it("I-122: two worktree sessions and alpha's own run at once; each writes only its own root, and nothing reaches alpha unconfirmed", () =>
    scenario().step("worktree-run", async () => {
      const t = scenario();
      const before = {
        head: git(alpha, "rev-parse", "HEAD"),
        branch: git(alpha, "branch", "--show-current"),
        status: git(alpha, "status", "--porcelain"),
      };
      const one = await newWorktreeSession("fix one", "fix-one");
      const two = await newWorktreeSession("fix two", "fix-two");
      assert.ok(
        existsSync(join(wt("fix-one"), "shared.txt")) && existsSync(join(wt("fix-two"), "shared.txt")),
        "the worktrees were not created",
      );

      const escape = (from: string) =>
        [
          `echo ${from} > ${join(alpha, `escape-${from}.txt`)}`,
          `echo ${from} > ${join(wt(from === "fix-one" ? "fix-two" : "fix-one"), `escape-${from}.txt`)}`,
          `echo ${from} > ${join(common, "hooks", `post-commit-${from}`)}`,
          `echo '[core]' >> ${join(common, "config")}`,
        ]
          .map((c) => `(${c}) 2>/dev/null`)
          .join("; ");
      for (const [branch, text] of [
        ["fix-one", "shared line 1 (one)\nshared line 2\n"],
        ["fix-two", "shared line 1 (two)\nshared line 2\n"],
      ] as const) {
        t.model.route(
          `[${branch}]`,
          {
            toolCalls: [
              { name: "write_file", args: { path: join(wt(branch), "shared.txt"), content: text } },
              {
                name: "bash",
                args: {
                  command: `${escape(branch)}; git add -A && git -c user.name=A -c user.email=a@b.invalid commit -qm ${branch} && echo committed`,
                },
              },
            ],
          },
          { text: `${branch} done` },
        );
      }
      t.model.route(
        "[folder-own]",
        {
          toolCalls: [
            { name: "bash", args: { command: `(echo folder > ${join(wt("fix-one"), "from-folder.txt")}) 2>/dev/null; echo tried` } },
          ],
        },
        { text: "folder done" },
      );
      const own = await t.openChat("alpha");
      // Sent one after another without waiting: the three turns overlap.
      for (const [frame, text] of [
        [one, "[fix-one] change shared.txt"],
        [two, "[fix-two] change shared.txt"],
        [own, "[folder-own] try the worktree"],
      ] as const) {
        await frame.locator(byTestId(TEST_IDS.composerInput)).fill(text);
        await frame.locator(byTestId(TEST_IDS.send)).click();
      }
      for (const [frame, done] of [
        [one, "fix-one done"],
        [two, "fix-two done"],
        [own, "folder done"],
      ] as const)
        await frame.locator(byTestId(TEST_IDS.agentMessage), { hasText: done }).first().waitFor({ state: "visible", timeout: 90_000 });

      assert.equal(readFileSync(join(wt("fix-one"), "shared.txt"), "utf8"), "shared line 1 (one)\nshared line 2\n");
      assert.equal(readFileSync(join(wt("fix-two"), "shared.txt"), "utf8"), "shared line 1 (two)\nshared line 2\n");
      // Each committed to its own branch through git, inside its sandbox.
      assert.match(git(alpha, "log", "-1", "--format=%s", "fix-one"), /fix-one/);
      assert.match(git(alpha, "log", "-1", "--format=%s", "fix-two"), /fix-two/);
      for (const from of ["fix-one", "fix-two"]) {
        assert.equal(existsSync(join(alpha, `escape-${from}.txt`)), false, `${from} wrote into alpha's working tree`);
        assert.equal(
          existsSync(join(wt(from === "fix-one" ? "fix-two" : "fix-one"), `escape-${from}.txt`)),
          false,
          `${from} wrote into the other worktree`,
        );
        assert.equal(existsSync(join(common, "hooks", `post-commit-${from}`)), false, `${from} wrote a hook of the shared repository`);
      }
      assert.doesNotMatch(
        readFileSync(join(common, "config"), "utf8"),
        /\[core\]\n\[core\]/,
        "a worktree session appended to the shared config",
      );
      assert.equal(existsSync(join(wt("fix-one"), "from-folder.txt")), false, "alpha's own session wrote into a worktree");
      // Nothing of either reached alpha: its file, branch, HEAD and status are as before.
      assert.equal(readFileSync(join(alpha, "shared.txt"), "utf8"), BASE);
      assert.deepEqual(
        {
          head: git(alpha, "rev-parse", "HEAD"),
          branch: git(alpha, "branch", "--show-current"),
          status: git(alpha, "status", "--porcelain"),
        },
        before,
      );
    }));

  it("the Sessions view lists both worktrees under alpha; Review opens the worktree's changes in the multi-file diff editor", () =>
    scenario().step("worktree-review", async () => {
      const t = scenario();
      await t.page.locator('.activitybar [aria-label^="Manifold"]').first().click();
      for (const branch of ["fix-one", "fix-two"])
        await t.page.locator(".sidebar .monaco-list-row", { hasText: branch }).first().waitFor({ state: "visible", timeout: 30_000 });
      await screenshot(t.page, "worktree-sessions");
      await runCommandAndPick(t.page, "Manifold: Review Worktree Changes", "alpha ▸ fix-one");
      const tab = t.page.locator(".tabs-container .tab", { hasText: /alpha ▸ fix-one ↔/ }).first();
      await tab.waitFor({ state: "visible", timeout: 30_000 });
      await t.page
        .locator(".multiDiffEditor, .multi-diff-editor", { hasText: "shared.txt" })
        .first()
        .waitFor({ state: "visible", timeout: 30_000 });
      await screenshot(t.page, "worktree-review");
    }));

  it("I-122: Apply brings fix-one's change into alpha after confirming; Discard removes fix-two's worktree and its branch", () =>
    scenario().step("worktree-apply-discard", async () => {
      const t = scenario();
      const branchBefore = git(alpha, "branch", "--show-current");
      await runCommandAndPick(t.page, "Manifold: Apply Worktree to Folder…", "alpha ▸ fix-one");
      // Until the user confirms, nothing is written.
      const dialog = t.page.locator(".monaco-dialog-box", { hasText: /Apply 1 changed file of fix-one to alpha\?/ });
      await dialog.waitFor({ state: "visible", timeout: 30_000 });
      assert.equal(readFileSync(join(alpha, "shared.txt"), "utf8"), BASE, "applied before the user confirmed");
      await confirmDialog(t.page, /Apply 1 changed file of fix-one to alpha\?/, "Apply");
      const own = await webviewFrame(t.page, "Manifold: alpha");
      await own
        .locator(`${byTestId(TEST_IDS.changesFile)}[data-path="shared.txt"]`)
        .first()
        .waitFor({ state: "attached", timeout: 30_000 });
      assert.equal(readFileSync(join(alpha, "shared.txt"), "utf8"), "shared line 1 (one)\nshared line 2\n");
      // Uncommitted edits: alpha's branch is the same and its index untouched.
      assert.equal(git(alpha, "branch", "--show-current"), branchBefore);
      assert.equal(git(alpha, "diff", "--cached", "--name-only"), "");

      await runCommandAndPick(t.page, "Manifold: Discard Worktree…", "alpha ▸ fix-two");
      // The question lists what was never brought back.
      await t.page
        .locator(".monaco-dialog-box", { hasText: /were never applied or merged:[\s\S]*shared\.txt/ })
        .waitFor({ state: "visible", timeout: 30_000 });
      await confirmDialog(t.page, /Discard the worktree fix-two\?/, "Discard");
      // The notice comes once the worktree and branch are removed.
      await t.page
        .locator(".notifications-toasts", { hasText: "Manifold: discarded the worktree fix-two" })
        .first()
        .waitFor({ state: "visible", timeout: 60_000 });
      assert.equal(
        await t.page.locator(".tabs-container .tab", { hasText: "Manifold: alpha ▸ fix-two" }).count(),
        0,
        "its panel is still open",
      );
      assert.equal(existsSync(wt("fix-two")), false, "the discarded worktree's folder is still there");
      assert.equal(git(alpha, "branch", "--list", "fix-two").trim(), "", "the discarded worktree's branch is still there");
      assert.doesNotMatch(git(alpha, "worktree", "list", "--porcelain"), /fix-two/, "git still lists the discarded worktree");
      assert.equal(existsSync(join(common, "worktrees", "fix-two")), false, "the discarded worktree's metadata is still there");
      // The applied one is still listed, marked applied.
      assert.ok(existsSync(wt("fix-one")), "Apply removed the applied worktree");
    }));
});
