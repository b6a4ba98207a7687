// needs: e2e-tools
// Agent profiles through Manifold's UI: `manifold.agentProfiles` in the Remote (Machine) settings
// (every `manifold.*` setting is machine-scoped, and code-server is a remote window). New Session…
// offers Default and each profile; picking one starts a session whose id is `<label>-session-<uuid>`,
// whose header shows the profile, and which starts with the profile's mode.
import * as assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { TEST_IDS } from "../../extension/webview/testIds";
import { runCommandAndPick, webviewFrame } from "./support/browser";
import { byTestId, startScenario, type Scenario } from "./support/scenario";

describe("agent profiles through Manifold's UI", () => {
  let s: Scenario | undefined;
  const scenario = (): Scenario => {
    if (!s) throw new Error("the scenario did not start (see the before hook's error)");
    return s;
  };

  before(async () => {
    s = await startScenario("manifold-profiles-", {
      prepare: (ws) => {
        const machine = join(ws.root, ".code-server", "user-data", "Machine");
        mkdirSync(machine, { recursive: true });
        const reviewer = { id: "reviewer", name: "Reviewer", description: "reads, never writes", mode: "read-only" };
        writeFileSync(join(machine, "settings.json"), JSON.stringify({ "manifold.agentProfiles": [reviewer] }, null, 2));
      },
    });
  });

  after(async () => {
    const leftovers = (await s?.close()) ?? [];
    assert.deepEqual(leftovers, [], "processes outlived code-server");
  });

  it("I-7: New Session… offers the profile; its session is `reviewer-session-<uuid>`, the header shows it, its mode applies", () =>
    scenario().step("profiles-new-session", async () => {
      const t = scenario();
      const alpha = await t.openChat("alpha");
      const app = alpha.locator(byTestId(TEST_IDS.app));
      await app.locator(byTestId(TEST_IDS.composer)).waitFor({ state: "visible", timeout: 60_000 });
      await runCommandAndPick(t.page, "Manifold: New Session…", ["Reviewer", "alpha"]);
      const panel = await webviewFrame(t.page, "Manifold: alpha");
      const profile = panel.locator(byTestId(TEST_IDS.profile));
      await profile.waitFor({ state: "visible", timeout: 60_000 });
      assert.match(await profile.innerText(), /Reviewer/);
      assert.equal(await profile.getAttribute("data-profile"), "reviewer");
      assert.match((await panel.locator(byTestId(TEST_IDS.app)).getAttribute("data-session-id")) ?? "", /^reviewer-session-[0-9a-f-]{36}$/);
      assert.equal(await panel.locator(`${byTestId(TEST_IDS.configPicker)}[data-config-id="mode"]`).inputValue(), "read-only");
    }));
});
