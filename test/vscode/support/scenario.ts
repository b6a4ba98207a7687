// A UI scenario for the VS Code tier: the packaged .vsix in code-server, a two-folder workspace, the
// fake model server as the built-in agent's model, headless Chromium on the workbench. Plus the helpers
// the UI tests share: open a folder's panel, find the agent's process tree in /proc, hide a panel.
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, ConsoleMessage, FrameLocator, Page, Request } from "playwright-core";
import { TEST_IDS } from "../../../extension/webview/testIds";
import { startFakeModelServer, type FakeModelServer, type FakeRequest } from "../../support/fakeModelServer";
import {
  editorTab,
  launchBrowser,
  openWorkbench,
  runCommand,
  runCommandAndPick,
  screenshot,
  waitForManifold,
  waitForWorkbench,
  webviewFrame,
} from "./browser";
import { ensureBuilt, vsixPath } from "./build";
import { startCodeServer, type CodeServer } from "./codeServer";
import { withoutCloseResets } from "./hostLog";
import { createTwoFolderWorkspace, type TwoFolderWorkspace } from "./fixtures";
import { processesInGroup, processesMentioning, type ProcInfo } from "./processes";
import { ensureTools, type E2eTools } from "./tools";

export type Folder = "alpha" | "beta";
export const OPEN_CHAT = "Manifold: Open Chat for Folder…";
export const byTestId = (id: string): string => `[data-testid="${id}"]`;

/** Settings that let a test switch the workbench theme with `page.emulateMedia`. */
const THEME_SETTINGS = {
  "window.autoDetectColorScheme": true,
  "workbench.preferredLightColorTheme": "Default Light Modern",
  "workbench.preferredDarkColorTheme": "Default Dark Modern",
};

export interface Scenario {
  tools: E2eTools;
  workspace: TwoFolderWorkspace;
  model: FakeModelServer;
  server: CodeServer;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Every request the window made since it opened; `fromWebview` when a webview (or its service worker) made it. */
  requests: Array<{ url: string; fromWebview: boolean }>;
  /**
   * Errors the extension host reported so far (the workbench console's and the extension-host log's),
   * less the window-close chatter of VS Code itself.
   */
  hostErrors(): string[];
  /** Runs a step; on failure saves `failure-<name>.png`, then rethrows. */
  step(name: string, body: () => Promise<void>): Promise<void>;
  /** "Open Chat for Folder…" + pick; resolves when the panel's composer is visible. */
  openChat(folder: Folder): Promise<FrameLocator>;
  /** Brings the folder's panel to the front and returns its frame. */
  panel(folder: Folder): Promise<FrameLocator>;
  /** The folder's panel in front: its tab if it is open, else "Open Chat for Folder…". */
  reveal(folder: Folder): Promise<FrameLocator>;
  /** Types `text` into the folder's composer and sends it. */
  send(folder: Folder, text: string): Promise<FrameLocator>;
  /** Live agent-server processes of this code-server (the agent runs in its own process group). */
  agents(): ProcInfo[];
  /** Closes the browser window (its context); from then on VS Code's own socket resets are shutdown chatter. */
  closeWindow(): Promise<void>;
  /** Stops everything; returns processes that outlived code-server. */
  close(): Promise<ProcInfo[]>;
}

/** What VS Code logs while a window closes under its extensions (a closed channel, a cancelled refresh). */
const SHUTDOWN_NOISE = /Channel has been closed|: Canceled$/;

/** The model settings of the built-in agent: the fake model server, nothing from the real environment. */
export function fakeModelEnv(model: Pick<FakeModelServer, "url">): Record<string, string | undefined> {
  return {
    MANIFOLD_MODEL_PROVIDER: "openai-compatible",
    MANIFOLD_MODEL_BASE_URL: model.url,
    MANIFOLD_MODEL: "fake",
    // The fake model "sees" images, so an attached image reaches it as an image part (ui/images.ts).
    MANIFOLD_MODEL_VISION: "1",
    MANIFOLD_DETECT_LOCAL_MODELS: "0",
    MANIFOLD_MODEL_RETRY_BASE_MS: "1",
    OPENAI_API_KEY: undefined,
    ANTHROPIC_API_KEY: undefined,
  };
}

export interface ScenarioOptions {
  colorScheme?: "light" | "dark";
  /** Open the workspace in Restricted Mode (workspace trust on); the test trusts it when it wants. */
  untrusted?: boolean;
  /** Adds files to the fresh workspace before code-server opens it (e.g. a folder's `.vscode/mcp.json`). */
  prepare?: (workspace: TwoFolderWorkspace) => void;
  /** User settings, merged over the theme settings. */
  settings?: Record<string, unknown>;
}

export async function startScenario(prefix: string, options: ScenarioOptions = {}): Promise<Scenario> {
  const tools = ensureTools();
  ensureBuilt({ vsix: true });
  const workspace = createTwoFolderWorkspace(prefix);
  options.prepare?.(workspace);
  const model = await startFakeModelServer();
  const stateDir = join(workspace.root, ".code-server");
  const server = await startCodeServer({
    tools,
    stateDir,
    vsix: vsixPath,
    env: fakeModelEnv(model),
    settings: { ...THEME_SETTINGS, ...options.settings },
    workspaceTrust: options.untrusted ?? false,
  });
  const browser = await launchBrowser(tools.chromium);
  const requests: Scenario["requests"] = [];
  const consoleErrors: string[] = [];
  const { context, page } = await openWorkbench(browser, server.url, {
    open: workspace.workspaceFile,
    colorScheme: options.colorScheme ?? "light",
    onContext: (c) =>
      c
        .on("console", (m: ConsoleMessage) => {
          // The workbench prints the extension host's uncaught errors; Manifold's name them (built-in
          // extensions have their own start-up chatter, e.g. "already registered").
          if (m.type() === "error" && /manifold/i.test(m.text())) consoleErrors.push(m.text().slice(0, 500));
        })
        .on("request", (r: Request) => {
          let fromWebview = false;
          try {
            fromWebview = /\/webview\/browser\/pre\//.test(r.frame().url());
          } catch {
            fromWebview = true; // a service worker's request: only the webviews have one
          }
          requests.push({ url: r.url(), fromWebview });
        }),
  });
  await waitForWorkbench(page);
  for (const folder of ["alpha", "beta"]) {
    await page
      .locator(`.explorer-folders-view .monaco-list-row[aria-label^="${folder}"]`)
      .first()
      .waitFor({ state: "visible", timeout: 60_000 });
  }
  await waitForManifold(page);

  let windowClosedAt: number | undefined;
  const s: Scenario = {
    tools,
    workspace,
    model,
    server,
    browser,
    context,
    page,
    requests,
    hostErrors: () =>
      withoutCloseResets([...consoleErrors, ...server.extensionHostErrors()], windowClosedAt).filter((line) => !SHUTDOWN_NOISE.test(line)),
    async closeWindow() {
      windowClosedAt = Date.now();
      await context.close();
    },
    async step(name, body) {
      try {
        await body();
      } catch (error) {
        await screenshot(page, `failure-${name}`).catch(() => undefined);
        throw error;
      }
    },
    async openChat(folder) {
      await runCommandAndPick(page, OPEN_CHAT, folder);
      const frame = await webviewFrame(page, `Manifold: ${folder}`);
      await frame.locator(byTestId(TEST_IDS.composerInput)).waitFor({ state: "visible", timeout: 60_000 });
      return frame;
    },
    async panel(folder) {
      await editorTab(page, `Manifold: ${folder}`).click();
      return webviewFrame(page, `Manifold: ${folder}`);
    },
    async reveal(folder) {
      if ((await editorTab(page, `Manifold: ${folder}`).count()) === 0) return s.openChat(folder);
      const frame = await s.panel(folder);
      await frame.locator(byTestId(TEST_IDS.composerInput)).waitFor({ state: "visible", timeout: 60_000 });
      return frame;
    },
    async send(folder, text) {
      const frame = await s.panel(folder);
      // A toast left by an earlier step sits over the right-hand panel's Send button until it times out.
      await dismissToasts(page);
      await frame.locator(byTestId(TEST_IDS.composerInput)).fill(text);
      await frame.locator(byTestId(TEST_IDS.send)).click();
      return frame;
    },
    agents: () => processesMentioning(stateDir).filter((p) => p.command.includes("agent-server.js")),
    async close() {
      await browser.close().catch(() => undefined);
      const stopped = await server.stop();
      await model.close();
      rmSync(workspace.root, { recursive: true, force: true });
      return stopped.leftovers;
    },
  };
  return s;
}

/** The tool result the model got back in `req` (OpenAI format: the last `role: "tool"` message). */
export function lastToolResult(req: FakeRequest): string {
  const tools = (req.messages as Array<{ role?: unknown; content?: unknown }>).filter((m) => m.role === "tool");
  const last = tools[tools.length - 1];
  return typeof last?.content === "string" ? last.content : JSON.stringify(last?.content ?? "");
}

/** Resolves with `probe()`'s first non-undefined value (polled: /proc and the DOM have no events here). */
export async function eventually<T>(probe: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Hides a folder's panel by opening a workspace file in its editor group (a click in the explorer, like
 * a user): the panel stays open as a background tab. Resolves when the panel's webview is not visible.
 */
export async function hidePanelBehindFile(page: Page, folder: Folder, file: string): Promise<void> {
  await editorTab(page, `Manifold: ${folder}`).click();
  await page
    .locator(`.editor-group-container.active .tabs-container .tab.active`, { hasText: `Manifold: ${folder}` })
    .waitFor({ state: "visible", timeout: 30_000 });
  await page.locator(`.explorer-folders-view .monaco-list-row[aria-label^="${file}"]`).first().click();
  await page
    .locator(".editor-group-container.active .tabs-container .tab.active", { hasText: file })
    .first()
    .waitFor({ state: "visible", timeout: 30_000 });
  await page.waitForFunction(
    `(() => {
      for (const outer of document.querySelectorAll("iframe.webview.ready")) {
        const inner = outer.contentDocument && outer.contentDocument.querySelector("iframe#active-frame");
        if (inner && inner.getAttribute("title") === ${JSON.stringify(`Manifold: ${folder}`)} && outer.offsetParent !== null && getComputedStyle(outer).visibility !== "hidden") return false;
      }
      return true;
    })()`,
    undefined,
    { timeout: 30_000 },
  );
}

/** Closes the editor tab whose label starts with `title` (its close button, like a user). */
export async function closeEditor(page: Page, title: string): Promise<void> {
  const tab = editorTab(page, title);
  await tab.hover();
  await tab.locator(".tab-actions .action-label").first().click();
  await tab.waitFor({ state: "detached", timeout: 30_000 });
}

/**
 * Closes every notification toast on screen (closing one answers nothing: "Show" is never clicked).
 * Toasts come and go on their own (a new one replaces, an old one fades out), so each is held by its
 * element, and one that vanished while being closed is simply looked for again.
 */
export async function dismissToasts(page: Page): Promise<void> {
  const visible = page.locator(".notifications-toasts .notification-toast").filter({ visible: true });
  const deadline = Date.now() + 60_000;
  while ((await visible.count()) > 0) {
    if (Date.now() > deadline) throw new Error(`${await visible.count()} notification toast(s) would not close`);
    const toast = await visible
      .first()
      .elementHandle({ timeout: 5_000 })
      .catch(() => null);
    if (!toast) continue;
    try {
      await toast.hover({ timeout: 5_000 });
      const close = await toast.$(".codicon-notifications-clear, .codicon-close");
      await close?.click({ timeout: 5_000 });
      await toast.waitForElementState("hidden", { timeout: 10_000 });
    } catch {
      // It went away (or was replaced) meanwhile: count again.
    } finally {
      await toast.dispose();
    }
  }
}

/**
 * Hides a folder's panel behind a file (hidePanelBehindFile), then waits until the extension host has
 * seen it hidden: the answer of a Manifold command (Show Pending Approvals, with nothing pending)
 * travels the same ordered channel after the panel's view-state change. Closes the toasts after.
 */
export async function hidePanelUntilSeen(page: Page, folder: Folder, file: string): Promise<void> {
  await hidePanelBehindFile(page, folder, file);
  await runCommand(page, "Manifold: Show Pending Approvals");
  await page
    .locator(".notifications-toasts .notification-toast", { hasText: "no approvals are pending" })
    .first()
    .waitFor({ state: "visible", timeout: 60_000 });
  await dismissToasts(page);
}

export { processesInGroup, processesMentioning };
