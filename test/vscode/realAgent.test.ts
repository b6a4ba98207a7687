// needs: e2e-tools
// A real third-party ACP agent through Manifold's UI: opencode (pinned, installed by
// scripts/agents/install.sh) serves a two-folder code-server window, offline, against a local fake of
// its model API (OpenAI-compatible chat). Every `manifold.*` setting is machine-scoped, so in
// code-server (a remote window) `manifold.agents` and `manifold.agent` go in the Remote (Machine) settings. Alpha streams a reply; a write asks in
// alpha's panel only and Reject writes nothing (I-93); a write outside the folder, rejected, writes
// nothing, and approved is written by opencode itself (it answers its own permission after handing
// the edit to fs/*, which Manifold refuses outside the folder, I-94: the panel says "runs as you");
// Cancel ends a hanging turn; beta has its own session with
// cwd = beta at the same time, and no text crosses over. Skips (saying how to install) when opencode
// is not installed.
import * as assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { TEST_IDS } from "../../extension/webview/testIds";
import { installedAgent } from "../agents/support/installed";
import { PROFILES, writeCallFor } from "../agents/support/profiles";
import { startFakeModelServer, type FakeModelServer, type FakeRequest, type FakeTurn } from "../support/fakeModelServer";
import { webviewFrame } from "./support/browser";
import { byTestId, startScenario, type Scenario } from "./support/scenario";

const found = installedAgent("opencode");
const profile = PROFILES.find((p) => p.id === "opencode");

/** The model's answer: the prompt's marker decides; a write targets the path after `[write:`. */
function reply(req: FakeRequest): FakeTurn {
  const text = req.lastUserText;
  if (text.includes("[hang]")) return { hang: true };
  const hello = /\[hello:(\w+)\]/.exec(text);
  if (hello) return { text: ["Hello ", `from ${hello[1]}`] };
  const target = /\[write:([^\]]+)\]/.exec(text)?.[1];
  if (target && !req.afterToolResult) {
    const call = writeCallFor(req, target, "written by opencode\n");
    return call ? { toolCalls: [call] } : { text: `no write tool among ${req.toolNames.join(", ")}` };
  }
  return { text: "done" };
}

describe("a real third-party agent (opencode) through Manifold's UI", { skip: "skip" in found ? found.skip : false }, () => {
  let s: Scenario | undefined;
  let model: FakeModelServer | undefined;
  const scenario = (): Scenario => {
    if (!s) throw new Error("the scenario did not start (see the before hook's error)");
    return s;
  };
  /** Waits until the folder's panel has no turn running. */
  const idle = async (folder: "alpha" | "beta") =>
    (await webviewFrame(scenario().page, `Manifold: ${folder}`))
      .locator(`${byTestId(TEST_IDS.app)}[data-running="false"]`)
      .waitFor({ state: "attached", timeout: 90_000 });

  before(async () => {
    if ("skip" in found || !profile) return;
    model = await startFakeModelServer();
    model.script(reply);
    const origin = model.origin;
    s = await startScenario("manifold-real-", {
      // A remote window reads machine-scoped settings from the Remote settings only (README).
      prepare: (ws) => {
        const home = join(ws.root, "opencode-home");
        mkdirSync(home, { recursive: true });
        const machine = join(ws.root, ".code-server", "user-data", "Machine");
        mkdirSync(machine, { recursive: true });
        const env = Object.fromEntries(Object.entries(profile.env(origin, home)).filter((e): e is [string, string] => e[1] !== undefined));
        writeFileSync(
          join(machine, "settings.json"),
          JSON.stringify(
            { "manifold.agent": "opencode", "manifold.agents": [{ name: "opencode", command: found.exe, args: profile.args, env }] },
            null,
            2,
          ),
        );
      },
    });
  });

  after(async () => {
    const leftovers = (await s?.close()) ?? [];
    await model?.close();
    // The agent is a third-party process tree: nothing of it may outlive the window (I-96).
    assert.deepEqual(leftovers, [], "processes outlived code-server (opencode left running?)");
  });

  it("I-93: alpha streams a reply while beta has its own session (cwd = beta), at the same time, no cross-talk; the panel says it runs as you", () =>
    scenario().step("real-stream", async () => {
      const t = scenario();
      const alpha = await t.openChat("alpha");
      const beta = await t.openChat("beta");
      const kind = alpha.locator(`${byTestId(TEST_IDS.protection)}[data-kind="runs-as-you"]`);
      await kind.waitFor({ state: "visible", timeout: 90_000 });
      assert.match(await kind.innerText(), /Runs as you: only its fs\/\* and terminal\/\* requests through Manifold are confined to alpha/);
      await t.send("alpha", "[hello:alpha] say hello");
      await t.send("beta", "[hello:beta] say hello");
      const a = await webviewFrame(t.page, "Manifold: alpha");
      const b = await webviewFrame(t.page, "Manifold: beta");
      await a.locator(byTestId(TEST_IDS.agentMessage), { hasText: "Hello from alpha" }).waitFor({ state: "visible", timeout: 90_000 });
      await b.locator(byTestId(TEST_IDS.agentMessage), { hasText: "Hello from beta" }).waitFor({ state: "visible", timeout: 90_000 });
      assert.equal(await a.locator(byTestId(TEST_IDS.agentMessage), { hasText: "from beta" }).count(), 0, "beta's reply in alpha");
      assert.equal(await b.locator(byTestId(TEST_IDS.agentMessage), { hasText: "from alpha" }).count(), 0, "alpha's reply in beta");
      const sessionIds = [
        await a.locator(byTestId(TEST_IDS.app)).getAttribute("data-session-id"),
        await beta.locator(byTestId(TEST_IDS.app)).getAttribute("data-session-id"),
      ];
      assert.notEqual(sessionIds[0], sessionIds[1]);
      // opencode tells its model the session's working directory: beta's request names beta's folder.
      // (its title request, the first one, carries no environment; the turn's request does).
      const betaReqs = (model?.requests ?? []).filter((r) => r.lastUserText.includes("[hello:beta]")).map((r) => JSON.stringify(r.body));
      assert.ok(
        betaReqs.some((b) => b.includes(`Working directory: ${t.workspace.beta}`)),
        "beta's session does not run in beta",
      );
      assert.ok(!betaReqs.some((b) => b.includes(t.workspace.alpha)), "beta's session was told alpha's folder");
    }));

  it("I-93: a write asks in alpha's panel only; Reject writes nothing", () =>
    scenario().step("real-reject", async () => {
      const t = scenario();
      const target = join(t.workspace.alpha, "rejected.txt");
      const alpha = await t.send("alpha", `[write:${target}] write it`);
      const card = alpha.locator(`${byTestId(TEST_IDS.permissionCard)}.pending`).first();
      await card.waitFor({ state: "visible", timeout: 90_000 });
      const beta = await webviewFrame(t.page, "Manifold: beta");
      assert.equal(await beta.locator(byTestId(TEST_IDS.permissionCard)).count(), 0, "beta's panel shows alpha's request");
      await card
        .locator(byTestId(TEST_IDS.permissionOption), { hasText: /reject/i })
        .first()
        .click();
      await idle("alpha");
      assert.equal(existsSync(target), false, "Reject still wrote the file");
    }));

  it("I-94 with an agent that runs as you: a write outside the folder, rejected, writes nothing; approved, Manifold's fs/* refuses it (said in alpha's panel only) and opencode writes it itself", () =>
    scenario().step("real-outside", async () => {
      const t = scenario();
      const outside = join(t.workspace.root, "outside.txt");
      const target = join(t.workspace.alpha, "..", "outside.txt");
      const alpha = await webviewFrame(t.page, "Manifold: alpha");
      const running = alpha.locator(`${byTestId(TEST_IDS.app)}[data-running="true"]`);
      const pending = alpha.locator(`${byTestId(TEST_IDS.permissionCard)}.pending`);
      /** Answers every card of the running turn with `choice` until the turn ends. */
      const answerAll = async (choice: RegExp) => {
        while ((await running.count()) > 0) {
          if ((await pending.count()) > 0)
            await pending
              .first()
              .locator(byTestId(TEST_IDS.permissionOption), { hasText: choice })
              .first()
              .click()
              .catch(() => undefined);
          await Promise.race([pending.first().waitFor({ state: "visible", timeout: 1_000 }), idle("alpha")]).catch(() => undefined);
        }
      };
      await t.send("alpha", `[write:${target}] write outside`);
      await pending.first().waitFor({ state: "visible", timeout: 90_000 });
      await answerAll(/reject/i);
      assert.equal(existsSync(outside), false, "a rejected write outside the folder was carried out");
      // Approved: opencode first hands the edit to the client (fs/write_text_file, which Manifold refuses
      // outside the folder, I-94), ignores the answer and writes the file itself. That is what the
      // panel's "runs as you" line says; only the built-in agent is confined by Manifold.
      await t.send("alpha", `[write:${target}] write outside again`);
      await pending.first().waitFor({ state: "visible", timeout: 90_000 });
      await answerAll(/allow once|allow/i);
      assert.equal(existsSync(outside), true, "opencode no longer writes approved files itself: revisit the protection line's wording");
      // What Manifold served stayed confined: its fs/write_text_file refused the path, and alpha's panel
      // (only alpha's) says so, since opencode swallows the error.
      const refused = (frame: typeof alpha) =>
        frame.locator(byTestId(TEST_IDS.notice), { hasText: /Manifold refused the agent's write of .*outside\.txt/ });
      await refused(alpha).first().waitFor({ state: "visible", timeout: 30_000 });
      assert.equal(await refused(await webviewFrame(t.page, "Manifold: beta")).count(), 0, "beta's panel shows alpha's refusal");
    }));

  it("Cancel ends a hanging turn; the panel is idle again", () =>
    scenario().step("real-cancel", async () => {
      const t = scenario();
      const hangs = model?.requests.length ?? 0;
      const alpha = await t.send("alpha", "[hang] take your time");
      await model?.waitForRequests(hangs + 1);
      await alpha.locator(byTestId(TEST_IDS.cancel)).click();
      await idle("alpha");
      model?.release();
    }));
});
