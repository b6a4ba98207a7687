// Headless Chromium (Debian's, driven by playwright-core) on a code-server workbench: open a folder or
// workspace, run palette commands, reach into webview panels by title, take screenshots.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type FrameLocator, type Page } from "playwright-core";
import { repoRoot } from "./tools";

export const screenshotDir = join(repoRoot, "test-results/screenshots");

export async function launchBrowser(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
}

export interface WorkbenchOptions {
  /** Absolute path of a folder, or of a `.code-workspace` file. */
  open?: string;
  /** `payload` entries (need code-server's smoke-test driver), e.g. extensionTestsPath. */
  payload?: Array<[string, string]>;
  /** Called with each workbench log line (includes the extension host's console, e.g. mocha). */
  onLog?: (level: string, text: string) => void;
  /** Called when the extension host under test exits (codeAutomationExit). */
  onExit?: (code: number) => void;
  colorScheme?: "light" | "dark";
  /** Called with the new browser context before the page navigates (to record its requests from the start). */
  onContext?: (context: BrowserContext) => void;
}

/** Formats a `codeAutomationLog` call (printf-style `%s`/`%d`/`%c` arguments) as one line. */
function formatLog(args: unknown[]): string {
  const [first, ...rest] = args;
  if (typeof first !== "string") return args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" ");
  let text = first.replace(/%[sdoOic]/g, (spec) => {
    if (rest.length === 0) return spec;
    const value = rest.shift();
    return spec === "%c" ? "" : typeof value === "string" ? value : JSON.stringify(value);
  });
  if (rest.length > 0) text += " " + rest.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" ");
  return text;
}

export async function openWorkbench(
  browser: Browser,
  serverUrl: string,
  options: WorkbenchOptions,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, colorScheme: options.colorScheme ?? "light" });
  // The workbench asks the gallery and telemetry endpoints; fail those at once (the machine is offline anyway).
  await context.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) => route.abort());
  options.onContext?.(context);
  const page = await context.newPage();
  // Exposed before navigation, as the workbench looks them up while it starts.
  await page.exposeFunction("codeAutomationLog", (level: unknown, args: unknown) => {
    options.onLog?.(String(level), formatLog(Array.isArray(args) ? args : [args]));
  });
  await page.exposeFunction("codeAutomationExit", (code: unknown) => {
    options.onExit?.(typeof code === "number" ? code : 1);
  });
  const query = new URLSearchParams();
  if (options.open) query.set(options.open.endsWith(".code-workspace") ? "workspace" : "folder", options.open);
  if (options.payload) query.set("payload", JSON.stringify([...options.payload, ["skipWelcome", "true"]]));
  await page.goto(`${serverUrl}/?${query.toString()}`, { waitUntil: "domcontentloaded", timeout: 120_000 });
  return { context, page };
}

/** Waits until the workbench shell and its explorer are up. */
export async function waitForWorkbench(page: Page, timeout = 60_000): Promise<void> {
  await page.locator(".monaco-workbench").waitFor({ state: "visible", timeout });
  await page.locator(".explorer-folders-view, .explorer-viewlet").first().waitFor({ state: "visible", timeout });
}

/**
 * Waits until the workbench knows Manifold's contributions (its activity-bar entry is shown): before that
 * the palette does not list its commands, and a palette opened too early has to be closed and reopened.
 */
export async function waitForManifold(page: Page, timeout = 60_000): Promise<void> {
  await page.locator('.activitybar [aria-label^="Manifold"]').first().waitFor({ state: "visible", timeout });
}

/**
 * Runs a palette command by its full title ("Manifold: Open Chat for Folder…"). The palette lists only the
 * commands registered when it opened, so a missing row means close (Escape) and reopen, until `timeout`.
 */
export async function runCommand(page: Page, title: string, timeout = 60_000): Promise<void> {
  const deadline = Date.now() + timeout;
  const input = page.locator(".quick-input-widget .quick-input-box input");
  for (;;) {
    try {
      await page.keyboard.press("F1");
      await input.waitFor({ state: "visible", timeout: 5_000 });
      await input.fill(`>${title}`);
      await page.locator(".quick-input-widget .monaco-list-row", { hasText: title }).first().waitFor({ state: "visible", timeout: 3_000 });
      await input.press("Enter");
      return;
    } catch (error) {
      // Retries are the slow path: say so, so a slow run shows where its time went.
      console.error(`palette: "${title}" not ready, retrying (${String(error).split("\n")[0]})`);
      await page.keyboard.press("Escape");
      if (Date.now() > deadline) throw new Error(`command "${title}" not found in the palette`, { cause: error });
    }
  }
}

/**
 * Types `text` into the open quick pick's filter. Its list is virtualised: with more rows than fit on
 * screen (20 folders), a row further down is not in the DOM until the list is filtered or scrolled.
 */
export async function filterQuickPick(page: Page, text: string): Promise<void> {
  await page.locator(".quick-input-widget .quick-input-box input").fill(text, { timeout: 10_000 });
}

/** The quick-pick row whose label is exactly `label`. */
export function quickItem(page: Page, label: string) {
  const exact = new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*$`);
  return page
    .locator(".quick-input-widget .monaco-list-row")
    .filter({ has: page.locator(".label-name", { hasText: exact }) })
    .first();
}

/**
 * Runs a palette command that asks with a quick pick, and picks the row labelled `label` (e.g.
 * "Manifold: Open Chat for Folder…" then a folder name). A command that asks more than once takes the
 * labels in order (e.g. a profile, then a folder). A quick pick closes when focus moves (a webview
 * that just opened takes focus a moment later), and a closed pick cancels the command, so the whole
 * sequence is retried until `timeout`.
 */
export async function runCommandAndPick(
  page: Page,
  title: string,
  label: string | readonly string[],
  timeout = 90_000,
  opts: { filter?: boolean } = {},
): Promise<void> {
  const labels = typeof label === "string" ? [label] : label;
  const deadline = Date.now() + timeout;
  for (;;) {
    await runCommand(page, title, Math.max(deadline - Date.now(), 10_000));
    let current = labels[0] ?? "";
    try {
      for (const each of labels) {
        current = each;
        if (opts.filter) await filterQuickPick(page, each);
        await quickItem(page, each).click({ timeout: 10_000 });
      }
      return;
    } catch (error) {
      console.error(`palette: no "${current}" row after "${title}", retrying (${String(error).split("\n")[0]})`);
      await page.keyboard.press("Escape");
      if (Date.now() > deadline) throw new Error(`no quick-pick item "${current}" after "${title}"`, { cause: error });
    }
  }
}

/**
 * The content frame of the visible webview whose title is `title` (a WebviewPanel's title or a WebviewView's
 * name). Webview iframes are same-origin with the workbench, so the page can see which outer
 * `iframe.webview` holds an `iframe#active-frame` with that title; the locator then goes through both.
 */
export async function webviewFrame(page: Page, title: string, timeout = 60_000): Promise<FrameLocator> {
  const handle = await page.waitForFunction(
    `(() => {
      for (const outer of document.querySelectorAll("iframe.webview.ready")) {
        const doc = outer.contentDocument;
        const inner = doc && doc.querySelector("iframe#active-frame");
        if (inner && inner.getAttribute("title") === ${JSON.stringify(title)}) return outer.getAttribute("name");
      }
      return null;
    })()`,
    undefined,
    { timeout },
  );
  const name = await handle.jsonValue();
  if (typeof name !== "string") throw new Error(`webview "${title}" has no frame name`);
  return page.frameLocator(`iframe.webview.ready[name="${name}"]`).frameLocator("iframe#active-frame");
}

/** The editor tab whose label starts with `title` (to bring a panel to the front). */
export function editorTab(page: Page, title: string) {
  return page.locator(".tabs-container .tab", { hasText: title }).first();
}

/** Saves a full-page screenshot to test-results/screenshots/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(screenshotDir, { recursive: true });
  const path = join(screenshotDir, `${name.replace(/[^\w.-]+/g, "-")}.png`);
  await page.screenshot({ path });
  return path;
}
