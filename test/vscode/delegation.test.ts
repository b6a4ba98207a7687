// needs: e2e-tools
// Delegation to another ACP agent through Manifold's UI: the built-in agent (on the scenario's fake
// model) hands a task to the pinned opencode (`manifold.delegation.agents`), which runs as a child in
// alpha's folder, inside Manifold's fence for that folder, against a fake model of its own. The
// delegation is asked in alpha's panel; opencode's own write request appears there too and never in
// beta's; its calls nest under the delegate card; Cancel ends opencode's whole process. Skips (saying
// how to install) when opencode is not installed.
import * as assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { TEST_IDS } from "../../extension/webview/testIds";
import { installedAgent } from "../agents/support/installed";
import { PROFILES, writeCallFor } from "../agents/support/profiles";
import { startFakeModelServer, type FakeModelServer, type FakeRequest, type FakeTurn } from "../support/fakeModelServer";
import { screenshot, webviewFrame } from "./support/browser";
import { processesMentioning, waitUntilGone } from "./support/processes";
import { byTestId, startScenario, type Scenario } from "./support/scenario";

const found = installedAgent("opencode");
const profile = PROFILES.find((p) => p.id === "opencode");
const exe = "exe" in found ? found.exe : "(not installed)";

/** opencode's model: a `[write:<path>]` task writes there, `[hang]` never answers. */
function childReply(req: FakeRequest): FakeTurn {
  const text = req.lastUserText;
  if (text.includes("[hang]")) return { hang: true };
  const target = /\[write:([^\]]+)\]/.exec(text)?.[1];
  if (target && !req.afterToolResult) {
    const call = writeCallFor(req, target, "written by opencode\n");
    return call ? { toolCalls: [call] } : { text: `no write tool among ${req.toolNames.join(", ")}` };
  }
  return { text: "opencode is done" };
}

/** The built-in agent's model: `[delegate:<task>]` hands <task> to opencode, then reports. */
function parentReply(req: FakeRequest): FakeTurn {
  const task = /\[delegate:(.+)\]\s*$/.exec(req.lastUserText)?.[1];
  if (task && !req.afterToolResult) return { toolCalls: [{ name: "delegate", args: { agent: "opencode", task } }] };
  return { text: "parent heard back" };
}

describe("delegation to opencode through Manifold's UI", { skip: "skip" in found ? found.skip : false }, () => {
  let s: Scenario | undefined;
  let childModel: FakeModelServer | undefined;
  const scenario = (): Scenario => {
    if (!s) throw new Error("the scenario did not start (see the before hook's error)");
    return s;
  };
  const idle = async (folder: "alpha" | "beta") =>
    (await webviewFrame(scenario().page, `Manifold: ${folder}`))
      .locator(`${byTestId(TEST_IDS.app)}[data-running="false"]`)
      .waitFor({ state: "attached", timeout: 90_000 });

  before(async () => {
    if ("skip" in found || !profile) return;
    childModel = await startFakeModelServer();
    childModel.script(childReply);
    const origin = childModel.origin;
    s = await startScenario("manifold-delegate-", {
      prepare: (ws) => {
        const home = join(ws.root, "opencode-home");
        mkdirSync(home, { recursive: true });
        const machine = join(ws.root, ".code-server", "user-data", "Machine");
        mkdirSync(machine, { recursive: true });
        const env = Object.fromEntries(Object.entries(profile.env(origin, home)).filter((e): e is [string, string] => e[1] !== undefined));
        writeFileSync(
          join(machine, "settings.json"),
          JSON.stringify(
            {
              "manifold.agents": [{ name: "opencode", command: exe, args: profile.args, env }],
              "manifold.delegation.agents": ["opencode"],
            },
            null,
            2,
          ),
        );
      },
    });
    s.model.script(parentReply);
  });

  after(async () => {
    const leftovers = (await s?.close()) ?? [];
    await childModel?.close();
    assert.deepEqual(leftovers, [], "processes outlived code-server (opencode left running?)");
  });

  it("I-121: the delegation and opencode's own write request are asked in alpha's panel only; its call nests under the delegate card", () =>
    scenario().step("delegate-nested", async () => {
      const t = scenario();
      await t.openChat("alpha");
      await t.openChat("beta");
      const target = join(t.workspace.alpha, "child.txt");
      const alpha = await t.send("alpha", `[delegate:[write:${target}] write it]`);
      const ask = alpha.locator(`${byTestId(TEST_IDS.permissionCard)}.pending`, { hasText: /Delegate to opencode/ }).first();
      await ask.waitFor({ state: "visible", timeout: 90_000 });
      await ask
        .locator(byTestId(TEST_IDS.permissionOption), { hasText: /allow once/i })
        .first()
        .click();
      // The delegation's own card may still be marked pending for a moment after the click.
      const childAsk = alpha.locator(`${byTestId(TEST_IDS.permissionCard)}.pending`, { hasNotText: /Delegate to opencode/ }).first();
      await childAsk.waitFor({ state: "visible", timeout: 90_000 });
      const beta = await webviewFrame(t.page, "Manifold: beta");
      assert.equal(await beta.locator(byTestId(TEST_IDS.permissionCard)).count(), 0, "beta's panel shows alpha's child's request");
      await screenshot(t.page, "delegation");
      // Alpha's panel in front again: a hidden webview's frames get no animation frames, so no click lands.
      const front = await t.panel("alpha");
      await front
        .locator(`${byTestId(TEST_IDS.permissionCard)}.pending`, { hasNotText: /Delegate to opencode/ })
        .first()
        .locator(byTestId(TEST_IDS.permissionOption), { hasText: /reject/i })
        .first()
        .click();
      await idle("alpha");
      assert.equal(existsSync(target), false, "a rejected write of the child was carried out");
      const card = alpha.locator(byTestId(TEST_IDS.toolCard), { hasText: /Delegate to opencode/ }).first();
      const nested = card.locator(byTestId(TEST_IDS.toolNested));
      await nested.first().waitFor({ state: "attached", timeout: 30_000 });
      assert.ok(Number(await nested.first().getAttribute("data-count")) >= 1, "no call nested under the delegate card");
      await alpha.locator(byTestId(TEST_IDS.agentMessage), { hasText: "parent heard back" }).first().waitFor({ state: "visible" });
      assert.equal(await beta.locator(byTestId(TEST_IDS.toolCard), { hasText: /opencode/ }).count(), 0, "the child's cards in beta");
      await waitUntilGone(() => processesMentioning(exe), 20_000);
    }));

  it("I-121: Cancel ends opencode's whole process tree", () =>
    scenario().step("delegate-cancel", async () => {
      const t = scenario();
      const before = childModel?.requests.length ?? 0;
      const alpha = await t.send("alpha", "[delegate:[hang] take your time]");
      const ask = alpha.locator(`${byTestId(TEST_IDS.permissionCard)}.pending`, { hasText: /Delegate to opencode/ }).first();
      await ask.waitFor({ state: "visible", timeout: 90_000 });
      await ask
        .locator(byTestId(TEST_IDS.permissionOption), { hasText: /allow once/i })
        .first()
        .click();
      await childModel?.waitForRequests(before + 1);
      assert.ok(processesMentioning(exe).length > 0, "opencode is not running");
      await alpha.locator(byTestId(TEST_IDS.cancel)).click();
      await idle("alpha");
      const left = await waitUntilGone(() => processesMentioning(exe), 20_000);
      assert.deepEqual(left, [], "opencode outlived the cancel");
      childModel?.release();
    }));
});
