// A UI scenario for the VS Code tier: the packaged .vsix in code-server, a two-folder workspace, the
// fake model server as the built-in agent's model, headless Chromium on the workbench. Plus the helpers
// the UI tests share: open a folder's panel, find the agent's process tree in /proc, hide a panel.
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, FrameLocator, Page } from "playwright-core";
import { TEST_IDS } from "../../../extension/protocol/webviewProtocol";
import { startFakeModelServer, type FakeModelServer } from "../../support/fakeModelServer";
import { editorTab, launchBrowser, openWorkbench, runCommandAndPick, screenshot, waitForWorkbench, webviewFrame } from "./browser";
import { ensureBuilt, vsixPath } from "./build";
import { QUIET_SETTINGS, startCodeServer, type CodeServer } from "./codeServer";
import { createTwoFolderWorkspace, type TwoFolderWorkspace } from "./fixtures";
import { processesInGroup, processesMentioning, stopGroup, type ProcInfo } from "./processes";
import { ensureTools, type E2eTools } from "./tools";

export type Folder = "alpha" | "beta";
export const OPEN_CHAT = "Manifold: Open Chat for Folder…";
export const byTestId = (id: string): string => `[data-testid="${id}"]`;
export { TEST_IDS };

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
  /** Runs a step; on failure saves `failure-<name>.png`, then rethrows. */
  step(name: string, body: () => Promise<void>): Promise<void>;
  /** "Open Chat for Folder…" + pick; resolves when the panel's composer is visible. */
  openChat(folder: Folder): Promise<FrameLocator>;
  /** Brings the folder's panel to the front and returns its frame. */
  panel(folder: Folder): Promise<FrameLocator>;
  /** Types `text` into the folder's composer and sends it. */
  send(folder: Folder, text: string): Promise<FrameLocator>;
  /** Live agent-server processes of this code-server (the agent runs in its own process group). */
  agents(): ProcInfo[];
  /** Stops everything; returns processes that outlived code-server. */
  close(): Promise<ProcInfo[]>;
}

/** The model settings of the built-in agent: the fake model server, nothing from the real environment. */
export function fakeModelEnv(model: FakeModelServer): Record<string, string | undefined> {
  return {
    MANIFOLD_MODEL_PROVIDER: "openai-compatible",
    MANIFOLD_MODEL_BASE_URL: model.url,
    MANIFOLD_MODEL: "fake",
    MANIFOLD_DETECT_LOCAL_MODELS: "0",
    MANIFOLD_MODEL_RETRY_BASE_MS: "1",
    OPENAI_API_KEY: undefined,
    ANTHROPIC_API_KEY: undefined,
  };
}

export async function startScenario(prefix: string, colorScheme: "light" | "dark" = "light"): Promise<Scenario> {
  const tools = ensureTools();
  ensureBuilt({ vsix: true });
  const workspace = createTwoFolderWorkspace(prefix);
  const model = await startFakeModelServer();
  const stateDir = join(workspace.root, ".code-server");
  const server = await startCodeServer({ tools, stateDir, vsix: vsixPath, env: fakeModelEnv(model), settings: THEME_SETTINGS });
  const browser = await launchBrowser(tools.chromium);
  const { context, page } = await openWorkbench(browser, server.url, { open: workspace.workspaceFile, colorScheme });
  await waitForWorkbench(page);
  for (const folder of ["alpha", "beta"]) {
    await page.locator(`.explorer-folders-view .monaco-list-row[aria-label^="${folder}"]`).first().waitFor({ state: "visible", timeout: 60_000 });
  }

  const s: Scenario = {
    tools,
    workspace,
    model,
    server,
    browser,
    context,
    page,
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
    async send(folder, text) {
      const frame = await s.panel(folder);
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

/** pid → ppid of every live process. */
function parentMap(): Map<number, number> {
  const map = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] !== "Z") map.set(Number(name), Number(fields[1]));
    } catch {
      // gone while we looked
    }
  }
  return map;
}

/** `pid` and all its live descendants. */
export function processTree(pid: number): number[] {
  const parents = parentMap();
  const tree = new Set<number>([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [child, parent] of parents) {
      if (tree.has(parent) && !tree.has(child)) {
        tree.add(child);
        grew = true;
      }
    }
  }
  return [...tree].filter((p) => parents.has(p));
}

/** Which of `pids` are alive (not zombies). */
export function alive(pids: number[]): number[] {
  const parents = parentMap();
  return pids.filter((p) => parents.has(p));
}

/**
 * Hides a folder's panel by opening a workspace file in its editor group (a click in the explorer, like
 * a user): the panel stays open as a background tab. Resolves when the panel's webview is not visible.
 */
export async function hidePanelBehindFile(page: Page, folder: Folder, file: string): Promise<void> {
  await editorTab(page, `Manifold: ${folder}`).click();
  await page.locator(`.editor-group-container.active .tabs-container .tab.active`, { hasText: `Manifold: ${folder}` }).waitFor({ state: "visible", timeout: 30_000 });
  await page.locator(`.explorer-folders-view .monaco-list-row[aria-label^="${file}"]`).first().click();
  await page.locator(".editor-group-container.active .tabs-container .tab.active", { hasText: file }).first().waitFor({ state: "visible", timeout: 30_000 });
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

/**
 * code-server WITH workspace trust (the harness always passes --disable-workspace-trust): same state
 * layout as startCodeServer, the .vsix installed, trust enabled and its start-up prompt off, so the
 * workbench opens the workspace in Restricted Mode.
 */
export async function startUntrustedCodeServer(tools: E2eTools, stateDir: string, env: Record<string, string | undefined>): Promise<{ url: string; pgid: number; stop(): Promise<void> }> {
  const userDataDir = join(stateDir, "user-data");
  const extensionsDir = join(stateDir, "extensions");
  for (const dir of [stateDir, join(userDataDir, "User"), extensionsDir]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(stateDir, "config.yaml"), "");
  const settings = { ...QUIET_SETTINGS, "security.workspace.trust.enabled": true, "security.workspace.trust.startupPrompt": "never", "security.workspace.trust.untrustedFiles": "open" };
  writeFileSync(join(userDataDir, "User/settings.json"), JSON.stringify(settings, null, 2));
  const childEnv: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith("VSCODE_") || k === "ELECTRON_RUN_AS_NODE" || k === "NODE_OPTIONS" || k.startsWith("NODE_TEST")) continue;
    childEnv[k] = v;
  }
  Object.assign(childEnv, { XDG_DATA_HOME: join(stateDir, "xdg-data"), XDG_CONFIG_HOME: join(stateDir, "xdg-config"), XDG_CACHE_HOME: join(stateDir, "xdg-cache") });
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete childEnv[k];
    else childEnv[k] = v;
  }
  const base = [tools.codeServerEntry, "--config", join(stateDir, "config.yaml"), "--user-data-dir", userDataDir, "--extensions-dir", extensionsDir];
  await new Promise<void>((resolve, reject) => {
    const p = spawn(tools.node, [...base, "--install-extension", vsixPath, "--force"], { env: childEnv, stdio: "ignore" });
    p.once("error", reject);
    p.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`--install-extension exited ${code}`))));
  });
  const args = [...base, "--bind-addr", "127.0.0.1:0", "--auth", "none", "--disable-telemetry", "--disable-update-check", "--disable-getting-started-override", "--reconnection-grace-time", "5"];
  const child = spawn(tools.node, args, { env: childEnv, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const pgid = child.pid;
  if (pgid === undefined) throw new Error("code-server did not start");
  const killOnExit = (): void => {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // gone
    }
  };
  process.on("exit", killOnExit);
  const url = await new Promise<string>((resolve, reject) => {
    let buf = "";
    const onData = (chunk: Buffer): void => {
      buf += chunk.toString("utf8");
      const m = /HTTP server listening on (http:\/\/[^\s/]+)/.exec(buf);
      if (m?.[1]) resolve(m[1]);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => reject(new Error(`code-server exited before listening (${code})`)));
  });
  return {
    url,
    pgid,
    async stop() {
      await stopGroup(pgid);
      process.off("exit", killOnExit);
    },
  };
}

export { processesInGroup, processesMentioning };
