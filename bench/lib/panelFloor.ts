// The panel benchmark's floor: what a bare VS Code webview panel costs the renderer, measured in the
// same run as Manifold's panels. A tiny second extension (bench/fixtures/bareWebview), which the rig
// installs beside the packaged .vsix, opens webview panels each in a new editor group after the last,
// each holding an empty document under a CSP that allows nothing, and no script. Nothing of it is in
// the shipped extension.
import { runCommand, webviewFrame } from "../../test/vscode/support/browser";
import { closeEditor } from "../../test/vscode/support/scenario";
import type { PanelRig } from "./panelRig";
import { memory, visibleWebviews, type MemoryResult, type Stage } from "./panelPhases";

const OPEN_BARE = "Bench: Open Bare Webview";
const bareTitle = (n: number): string => `Bare webview ${n}`;

/**
 * Opens bare webview number `n` (1-based: the extension counts its panels) and waits for its document
 * by a locator, as the rig waits for a chat panel's composer: Playwright then holds the same
 * instrumentation (its injected script, about 330 KB of source per frame, outer and content) in the
 * bare frames as in Manifold's, and the floor counts it too.
 */
export async function openBareWebview(rig: PanelRig, n: number): Promise<void> {
  await runCommand(rig.page, OPEN_BARE);
  const frame = await webviewFrame(rig.page, bareTitle(n), 120_000);
  await frame.locator("body").waitFor({ state: "attached", timeout: 60_000 });
}

/** Closes bare webviews `count` down to 1 (highest first: a tab is found by the start of its label). */
export async function closeBareWebviews(rig: PanelRig, count: number): Promise<void> {
  for (let n = count; n >= 1; n--) await closeEditor(rig.page, bareTitle(n));
}

/**
 * Opens `count` bare webviews one by one, memory after each (the rows read like the memory scenario's),
 * then closes them again.
 */
export async function floorScenario(s: Stage, count: number): Promise<MemoryResult> {
  const rows: MemoryResult["rows"] = [{ panels: 0, visible: await visibleWebviews(s), ...(await memory(s)) }];
  let opened = 0;
  try {
    for (let n = 1; n <= count; n++) {
      await openBareWebview(s.rig, n);
      opened = n;
      rows.push({ panels: n, visible: await visibleWebviews(s), ...(await memory(s)) });
    }
    s.log(`panel: ${count} bare webviews open`);
    return { rows };
  } catch (error) {
    return { rows, error: `stopped after ${opened} bare webviews: ${String(error).split("\n")[0]}` };
  } finally {
    await closeBareWebviews(s.rig, opened);
  }
}
