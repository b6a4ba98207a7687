// UI tests: the packaged .vsix installed into code-server, driven in headless Chromium. A two-folder
// workspace gets one chat panel per folder; a prompt in each panel is answered in that panel only.
// The model is the fake model server (real HTTP + SSE), so replies are known in advance.
// Screenshots (failures; panels in light and dark) go to test-results/screenshots/.
import * as assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { TEST_IDS } from "../../extension/protocol/webviewProtocol";
import { startFakeModelServer, type FakeModelServer } from "../support/fakeModelServer";
import { editorTab, launchBrowser, openWorkbench, runCommandAndPick, screenshot, waitForWorkbench, webviewFrame } from "./support/browser";
import { ensureBuilt, vsixPath } from "./support/build";
import { startCodeServer, type CodeServer } from "./support/codeServer";
import { createTwoFolderWorkspace, type TwoFolderWorkspace } from "./support/fixtures";
import { processesInGroup, processesMentioning } from "./support/processes";
import { ensureTools } from "./support/tools";

const OPEN_CHAT = "Manifold: Open Chat for Folder…";
const REPLIES: Record<string, string> = {
  alpha: "Alpha here: your folder has README.md and src/greet.ts.",
  beta: "Beta here: your folder has notes.txt.",
};
const byTestId = (id: string): string => `[data-testid="${id}"]`;

describe("Manifold in code-server: one chat panel per folder", () => {
  let workspace: TwoFolderWorkspace;
  let model: FakeModelServer;
  let server: CodeServer;
  let browser: Browser;
  let page: Page;

  /** Runs a step; on failure saves a screenshot named after it, then fails. */
  async function step(name: string, body: () => Promise<void>): Promise<void> {
    try {
      await body();
    } catch (error) {
      if (page) await screenshot(page, `failure-${name}`).catch(() => undefined);
      throw error;
    }
  }

  async function openChat(folder: "alpha" | "beta"): Promise<void> {
    await runCommandAndPick(page, OPEN_CHAT, folder);
    const frame = await webviewFrame(page, `Manifold: ${folder}`);
    await frame.locator(byTestId(TEST_IDS.composerInput)).waitFor({ state: "visible", timeout: 60_000 });
  }

  async function panel(folder: "alpha" | "beta") {
    await editorTab(page, `Manifold: ${folder}`).click();
    return webviewFrame(page, `Manifold: ${folder}`);
  }

  before(async () => {
    const tools = ensureTools();
    ensureBuilt({ vsix: true });
    workspace = createTwoFolderWorkspace("manifold-ui-");
    model = await startFakeModelServer();
    model.script((req) => {
      const folder = Object.keys(REPLIES).find((f) => req.lastUserText.includes(`[${f}]`));
      return { text: folder ? (REPLIES[folder] ?? "") : "ok" };
    });
    server = await startCodeServer({
      tools,
      stateDir: join(workspace.root, ".code-server"),
      vsix: vsixPath,
      env: {
        MANIFOLD_MODEL_PROVIDER: "openai-compatible",
        MANIFOLD_MODEL_BASE_URL: model.url,
        MANIFOLD_MODEL: "fake",
        MANIFOLD_DETECT_LOCAL_MODELS: "0",
        OPENAI_API_KEY: undefined,
        ANTHROPIC_API_KEY: undefined,
      },
      // Follow the browser's colour scheme, so a test can switch themes with emulateMedia.
      settings: {
        "window.autoDetectColorScheme": true,
        "workbench.preferredLightColorTheme": "Default Light Modern",
        "workbench.preferredDarkColorTheme": "Default Dark Modern",
      },
    });
    browser = await launchBrowser(tools.chromium);
    ({ page } = await openWorkbench(browser, server.url, { open: workspace.workspaceFile, colorScheme: "light" }));
  });

  after(async () => {
    await browser?.close();
    const pgid = server?.pgid;
    const stopped = await server?.stop();
    await model?.close();
    if (workspace) rmSync(workspace.root, { recursive: true, force: true });
    // Nothing may outlive the test: not code-server's group, nor anything started from its folders.
    if (pgid !== undefined) assert.deepEqual(processesInGroup(pgid), []);
    assert.deepEqual(stopped?.leftovers ?? [], [], "processes outlived code-server (an agent left running?)");
    if (workspace) assert.deepEqual(processesMentioning(workspace.root), []);
  });

  it("loads the two-folder workspace in the workbench", () =>
    step("workbench", async () => {
      await waitForWorkbench(page);
      for (const folder of ["alpha", "beta"]) {
        await page.locator(`.explorer-folders-view .monaco-list-row[aria-label^="${folder}"]`).first().waitFor({ state: "visible", timeout: 60_000 });
      }
    }));

  it("I-92: Open Chat for Folder opens a panel titled after each folder", () =>
    step("open-panels", async () => {
      await openChat("alpha");
      await openChat("beta");
      for (const folder of ["alpha", "beta"] as const) {
        await editorTab(page, `Manifold: ${folder}`).waitFor({ state: "visible" });
      }
    }));

  it("I-91: a prompt in each folder's panel is answered in that panel only", () =>
    step("prompts", async () => {
      for (const folder of ["alpha", "beta"] as const) {
        const frame = await panel(folder);
        await frame.locator(byTestId(TEST_IDS.composerInput)).fill(`[${folder}] which files are in this folder?`);
        await frame.locator(byTestId(TEST_IDS.send)).click();
        await frame.locator(byTestId(TEST_IDS.agentMessage), { hasText: REPLIES[folder] }).waitFor({ state: "visible", timeout: 60_000 });
      }
      for (const folder of ["alpha", "beta"] as const) {
        const frame = await panel(folder);
        await frame.locator(byTestId(TEST_IDS.agentMessage)).first().waitFor({ state: "visible", timeout: 30_000 });
        const agentTexts = await frame.locator(byTestId(TEST_IDS.agentMessage)).allInnerTexts();
        const userTexts = await frame.locator(byTestId(TEST_IDS.userMessage)).allInnerTexts();
        assert.deepEqual(
          { user: userTexts.map((t) => t.trim()), agent: agentTexts.map((t) => t.trim()) },
          { user: [`[${folder}] which files are in this folder?`], agent: [REPLIES[folder]] },
          `panel ${folder} shows only its own conversation`,
        );
      }
    }));

  it("renders both panels in the dark and light themes (screenshots)", () =>
    step("themes", async () => {
      for (const scheme of ["dark", "light"] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.locator(`.monaco-workbench.${scheme === "dark" ? "vs-dark" : "vs"}`).waitFor({ timeout: 30_000 });
        // The panels open side by side (ViewColumn.Beside), so one shot shows both.
        for (const folder of ["alpha", "beta"] as const) {
          const frame = await webviewFrame(page, `Manifold: ${folder}`);
          await frame.locator(`body.vscode-${scheme}`).waitFor({ timeout: 30_000 });
          await frame.locator(byTestId(TEST_IDS.agentMessage), { hasText: REPLIES[folder] }).waitFor({ state: "visible", timeout: 30_000 });
        }
        await screenshot(page, `chat-panels-${scheme}`);
      }
    }));
});
