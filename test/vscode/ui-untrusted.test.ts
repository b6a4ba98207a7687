// UI test: in an untrusted workspace (Restricted Mode) Manifold starts no agent, even when a folder's
// chat is opened; trusting the workspace starts it (the control that shows the probe can see an agent).
// code-server runs WITH workspace trust here (the harness's starter always disables it).
import * as assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { startFakeModelServer, type FakeModelServer } from "../support/fakeModelServer";
import { launchBrowser, openWorkbench, runCommand, runCommandAndPick, screenshot, waitForWorkbench, webviewFrame } from "./support/browser";
import { ensureBuilt } from "./support/build";
import { createTwoFolderWorkspace, type TwoFolderWorkspace } from "./support/fixtures";
import { byTestId, eventually, fakeModelEnv, OPEN_CHAT, processesMentioning, startUntrustedCodeServer, TEST_IDS } from "./support/scenario";
import { waitUntilGone } from "./support/processes";
import { ensureTools } from "./support/tools";

describe("Manifold in code-server: untrusted workspace", () => {
  let workspace: TwoFolderWorkspace;
  let model: FakeModelServer;
  let server: Awaited<ReturnType<typeof startUntrustedCodeServer>>;
  let browser: Browser;
  let page: Page;
  let stateDir: string;
  const agents = () => processesMentioning(stateDir).filter((p) => p.command.includes("agent-server.js"));

  before(async () => {
    const tools = ensureTools();
    ensureBuilt({ vsix: true });
    workspace = createTwoFolderWorkspace("manifold-ui-untrusted-");
    stateDir = join(workspace.root, ".code-server");
    model = await startFakeModelServer();
    model.script(() => ({ text: "ok" }));
    server = await startUntrustedCodeServer(tools, stateDir, fakeModelEnv(model));
    browser = await launchBrowser(tools.chromium);
    ({ page } = await openWorkbench(browser, server.url, { open: workspace.workspaceFile }));
    await waitForWorkbench(page);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    await model?.close();
    if (stateDir) {
      // The agent runs in its own process group: it exits when its extension host goes (stdin EOF,
      // after code-server's reconnection grace). Wait for that, bounded; kill any survivor.
      const left = await waitUntilGone(agents, 15_000);
      for (const p of left) process.kill(p.pid, "SIGKILL");
      assert.deepEqual(left, [], "an agent outlived code-server");
    }
    if (workspace) rmSync(workspace.root, { recursive: true, force: true });
  });

  it("an untrusted workspace starts no agent, even with both folders' chats open; trusting it does", async () => {
    try {
      await page.locator(".statusbar-item", { hasText: "Restricted Mode" }).first().waitFor({ state: "visible", timeout: 60_000 });
      for (const folder of ["alpha", "beta"]) {
        await runCommandAndPick(page, OPEN_CHAT, folder);
        const frame = await webviewFrame(page, `Manifold: ${folder}`);
        await frame.locator(byTestId(TEST_IDS.status), { hasText: /untrusted|restricted/i }).first().waitFor({ state: "visible", timeout: 60_000 });
      }
      await screenshot(page, "untrusted-workspace");
      assert.deepEqual(agents(), [], "an agent runs in an untrusted workspace");
      assert.equal(model.requests.length, 0);

      // Control: trust the workspace; now the agent starts and the panels attach.
      await runCommand(page, "Workspaces: Manage Workspace Trust");
      await page.locator(".workspace-trust-editor .monaco-button", { hasText: /^Trust$/ }).first().click({ timeout: 60_000 });
      const agent = await eventually(() => agents()[0], "the agent after trusting the workspace");
      assert.ok(agent.pid > 0);
    } catch (error) {
      await screenshot(page, "failure-untrusted").catch(() => undefined);
      throw error;
    }
  });
});
