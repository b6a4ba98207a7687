// The panel benchmark's stage, built from the VS Code tier's harness (test/vscode/support): the
// packaged .vsix in code-server (and the bare-webview floor's extension beside it), a workspace of N
// folders, headless Chromium with the probe in every frame, the bench SSE fake as the model. Panels are driven like a user would: palette commands by
// title, quick picks by label, editor tabs by the panel title "Manifold: <folder>".
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildSync } from "esbuild";
import type { Browser, BrowserContext, FrameLocator, Page } from "playwright-core";
import {
  filterQuickPick,
  launchBrowser,
  openWorkbench,
  quickItem,
  runCommand,
  runCommandAndPick,
  waitForManifold,
  waitForWorkbench,
  webviewFrame,
} from "../../test/vscode/support/browser";
import { ensureBuilt, vsixPath } from "../../test/vscode/support/build";
import { startCodeServer, type CodeServer } from "../../test/vscode/support/codeServer";
import { processesMentioning } from "../../test/vscode/support/processes";
import { byTestId, closeEditor, eventually, fakeModelEnv, OPEN_CHAT } from "../../test/vscode/support/scenario";
import { TEST_IDS } from "../../extension/webview/testIds";
import { ensureTools } from "../../test/vscode/support/tools";
import { firstMessageMarker, historyTitle, lastMessageMarker } from "./panelHistory";
import { contentFrame, probeScript, probeState } from "./panelProbe";
import { repoRoot, tempDir } from "./paths";

const SWITCH_SESSION = "Manifold: Switch Session…";
export const panelTitle = (folder: string): string => `Manifold: ${folder}`;
const composer = byTestId(TEST_IDS.composerInput);

export interface PanelRig {
  page: Page;
  context: BrowserContext;
  server: CodeServer;
  /** Folder name → absolute path. */
  folders: Map<string, string>;
  /** Where the built-in agent keeps its session logs (its `--data-dir`). */
  dataDir: string;
  /** The remote extension host's pid (the one Manifold runs in). */
  hostPid(): number;
  agentPids(): number[];
  close(): Promise<void>;
}

/** Bundles and packs bench/fixtures/bareWebview (the floor's extension, bench/lib/panelFloor.ts) in `dir`. */
function packBareWebview(dir: string): string {
  const fixture = join(repoRoot, "bench/fixtures/bareWebview");
  const ext = join(dir, "bare-webview");
  mkdirSync(ext, { recursive: true });
  copyFileSync(join(fixture, "package.json"), join(ext, "package.json"));
  buildSync({
    entryPoints: [join(fixture, "extension.ts")],
    outfile: join(ext, "extension.js"),
    bundle: true,
    platform: "node",
    format: "cjs",
    external: ["vscode"],
    logLevel: "warning",
  });
  const out = join(dir, "bare-webview.vsix");
  const vsce = join(repoRoot, "node_modules/@vscode/vsce/vsce");
  const args = [vsce, "package", "--no-dependencies", "--allow-missing-repository", "--skip-license", "--out", out];
  execFileSync(process.execPath, args, { cwd: ext, stdio: ["ignore", "ignore", "inherit"] });
  return out;
}

function createWorkspace(root: string, names: readonly string[]): { file: string; folders: Map<string, string> } {
  const folders = new Map<string, string>();
  for (const name of names) {
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "README.md"), `# ${name}\n`);
    folders.set(name, dir);
  }
  const file = join(root, "panel.code-workspace");
  writeFileSync(file, JSON.stringify({ folders: names.map((path) => ({ path })) }, null, 2));
  return { file, folders };
}

/**
 * Starts everything; `seed(dataDir, folders)` runs before code-server does, so the agent finds the
 * session logs it writes as if an earlier window had left them.
 */
export async function startRig(
  names: readonly string[],
  modelUrl: string,
  seed: (dataDir: string, folders: Map<string, string>) => void,
): Promise<PanelRig> {
  const tools = ensureTools();
  ensureBuilt({ vsix: true });
  const root = tempDir("panel");
  const { file, folders } = createWorkspace(root, names);
  const stateDir = join(root, ".code-server");
  // The extension's globalStorageUri under code-server's user data (publisher.name, lower case).
  const dataDir = join(stateDir, "user-data/User/globalStorage/manifold-dev.manifold/sessions");
  seed(dataDir, folders);
  const server = await startCodeServer({
    tools,
    stateDir,
    vsix: vsixPath,
    extraVsix: [packBareWebview(root)],
    env: fakeModelEnv({ url: modelUrl }),
    settings: { "workbench.editor.enablePreview": false },
  });
  let browser: Browser | undefined;
  try {
    browser = await launchBrowser(tools.chromium);
    const { context, page } = await openWorkbench(browser, server.url, {
      open: file,
      onContext: (c) => void c.addInitScript({ content: probeScript(composer) }),
    });
    await waitForWorkbench(page, 180_000);
    await waitForManifold(page, 180_000);
    const opened = browser;
    return {
      page,
      context,
      server,
      folders,
      dataDir,
      hostPid() {
        const host = server.processes().find((p) => p.command.includes("--type=extensionHost"));
        if (!host) throw new Error("no extension host process in code-server's group");
        return host.pid;
      },
      agentPids: () =>
        processesMentioning(stateDir)
          .filter((p) => p.command.includes("agent-server.js"))
          .map((p) => p.pid),
      async close() {
        await opened.close().catch(() => undefined);
        await server.stop();
      },
    };
  } catch (error) {
    await browser?.close().catch(() => undefined);
    await server.stop();
    throw error;
  }
}

/** "Open Chat for Folder…" + the folder; resolves when the composer shows. */
export async function openPanel(rig: PanelRig, folder: string): Promise<FrameLocator> {
  await runCommandAndPick(rig.page, OPEN_CHAT, folder, 90_000, { filter: true });
  const frame = await webviewFrame(rig.page, panelTitle(folder), 120_000);
  await frame.locator(composer).waitFor({ state: "visible", timeout: 120_000 });
  return frame;
}

/**
 * Binds the open panel of `folder` to its seeded session (Switch Session… → folder → title): a
 * `session/load`, the history replayed. Returns ms from the click on the title to the last message
 * painted, and the click's epoch ms.
 */
export async function switchToSeeded(rig: PanelRig, folder: string, frame: FrameLocator): Promise<{ at: number; painted: number }> {
  let t0 = 0;
  await untilPicked(rig, async () => {
    await runCommandAndPick(rig.page, SWITCH_SESSION, folder, 90_000, { filter: true });
    await filterQuickPick(rig.page, historyTitle(folder));
    const row = quickItem(rig.page, historyTitle(folder));
    await row.waitFor({ state: "visible", timeout: 15_000 });
    t0 = Date.now();
    await row.click({ timeout: 15_000 });
  });
  const inner = await contentFrame(frame);
  const marker = lastMessageMarker(folder);
  const painted = await eventually(async () => (await probeState(inner)).painted[marker], `${folder}'s history in its panel`, 300_000);
  return { at: t0, painted: painted - t0 };
}

/**
 * Runs a palette-and-pick sequence until its last click lands: a quick pick closes when focus moves
 * (a webview that just opened takes it a moment later), like the harness's runCommandAndPick.
 */
async function untilPicked(rig: PanelRig, pick: () => Promise<void>, timeout = 180_000): Promise<void> {
  const deadline = Date.now() + timeout;
  for (;;) {
    try {
      return await pick();
    } catch (error) {
      await rig.page.keyboard.press("Escape");
      if (Date.now() > deadline) throw error;
      console.error(`panel: quick pick closed before its row was clicked, retrying (${String(error).split("\n")[0]})`);
    }
  }
}

export interface OpenTiming {
  /** Epoch ms of the click (the zero of the other numbers). */
  at: number;
  /** ms from the click on the folder's row to the last message in the DOM, painted, composer enabled. */
  firstInDom: number;
  inDom: number;
  painted: number;
  composer: number;
  /** max(painted, composer): the panel shows the latest message and takes input. */
  ready: number;
  frame: FrameLocator;
}

/**
 * Opens `folder`'s panel (closed, bound to a seeded session, so opening re-attaches it) and times it
 * from the click that picks the folder to what the probe saw inside the new webview.
 */
export async function timedOpen(rig: PanelRig, folder: string): Promise<OpenTiming> {
  let t0 = 0;
  await untilPicked(rig, async () => {
    await runCommand(rig.page, OPEN_CHAT);
    await filterQuickPick(rig.page, folder);
    const row = quickItem(rig.page, folder);
    await row.waitFor({ state: "visible", timeout: 15_000 });
    t0 = Date.now();
    await row.click({ timeout: 15_000 });
  });
  const frame = await webviewFrame(rig.page, panelTitle(folder), 300_000);
  const inner = await contentFrame(frame);
  const marker = lastMessageMarker(folder);
  const first = firstMessageMarker(folder);
  const state = await eventually(
    async () => {
      const s = await probeState(inner);
      return s.painted[marker] !== undefined && s.composer !== null ? s : undefined;
    },
    `${folder}'s panel to show its last message`,
    300_000,
  );
  const painted = (state.painted[marker] ?? Number.NaN) - t0;
  const composerAt = (state.composer ?? Number.NaN) - t0;
  return {
    at: t0,
    firstInDom: (state.seen[first] ?? Number.NaN) - t0,
    inDom: (state.seen[marker] ?? Number.NaN) - t0,
    painted,
    composer: composerAt,
    ready: Math.max(painted, composerAt),
    frame,
  };
}

export async function closePanel(rig: PanelRig, folder: string): Promise<void> {
  await closeEditor(rig.page, panelTitle(folder));
}
