// needs: e2e-tools
// A real third-party ACP agent through Manifold's UI: opencode (pinned, installed by
// scripts/agents/install.sh) serves a two-folder code-server window, offline, against a local fake of
// its model API (OpenAI-compatible chat), and runs inside Manifold's fence (I-118): the panel says so.
// Every `manifold.*` setting is machine-scoped, so in code-server (a remote window) `manifold.agents`
// and `manifold.agent` go in the Remote (Machine) settings. Alpha streams a reply; a write asks in
// alpha's panel only and Reject writes nothing (I-93); a granted write in alpha lands; a write outside
// the folder, rejected, writes nothing, and approved is refused twice: by Manifold's fs/* (I-94) and,
// when opencode then writes the file itself, by the fence, whose error opencode shows in the panel.
// Its own shell cannot write outside, read the home folder's ssh key, or write a git hook; its state
// survives a restart (the same session comes back). Cancel ends a hanging turn; beta has its own
// session with cwd = beta at the same time, and no text crosses over. Skips (saying how to install)
// when opencode is not installed.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { TEST_IDS } from "../../extension/webview/testIds";
import { installedAgent } from "../agents/support/installed";
import { PROFILES, shellCallFor, toolsOf, writeCallFor } from "../agents/support/profiles";
import { startFakeModelServer, type FakeModelServer, type FakeRequest, type FakeTurn } from "../support/fakeModelServer";
import { runCommand, webviewFrame } from "./support/browser";
import { byTestId, startScenario, type Scenario } from "./support/scenario";

const found = installedAgent("opencode");
const profile = PROFILES.find((p) => p.id === "opencode");
/** A key in the agent's home folder that its fence must hide. */
const SECRET = "ssh-key-material-that-must-stay-hidden";

/** The model's answer: the prompt's marker decides; a write targets the path after `[write:`. */
function reply(req: FakeRequest): FakeTurn {
  const text = req.lastUserText;
  if (text.includes("[hang]")) return { hang: true };
  const hello = /\[hello:(\w+)\]/.exec(text);
  if (hello) return { text: ["Hello ", `from ${hello[1]}`] };
  const command = /\[shell:([^\]]+)\]/.exec(text)?.[1];
  if (command && !req.afterToolResult) {
    const call = shellCallFor(toolsOf(req), command);
    return call ? { toolCalls: [call] } : { text: `no shell tool among ${req.toolNames.join(", ")}` };
  }
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
  /** Answers every card of alpha's running turn with `choice` until the turn ends. */
  const answerAll = async (alpha: Awaited<ReturnType<typeof webviewFrame>>, choice: RegExp) => {
    const running = alpha.locator(`${byTestId(TEST_IDS.app)}[data-running="true"]`);
    const pending = alpha.locator(`${byTestId(TEST_IDS.permissionCard)}.pending`);
    await pending.first().waitFor({ state: "visible", timeout: 90_000 });
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
        mkdirSync(join(home, ".ssh"), { recursive: true });
        writeFileSync(join(home, ".ssh", "id_test"), SECRET);
        execFileSync("git", ["init", "-q", ws.alpha]);
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

  it("I-93, I-118: alpha streams a reply while beta has its own session (cwd = beta), at the same time, no cross-talk; the panel says opencode runs in Manifold's fence", () =>
    scenario().step("real-stream", async () => {
      const t = scenario();
      const alpha = await t.openChat("alpha");
      const beta = await t.openChat("beta");
      const kind = alpha.locator(`${byTestId(TEST_IDS.protection)}[data-kind="confined"]`);
      await kind.waitFor({ state: "visible", timeout: 90_000 });
      assert.match(
        await kind.innerText(),
        /Confined by Manifold: writes only in alpha, beta and its own state folders; network on; home secrets hidden\./,
      );
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

  it("I-118: a granted write in alpha lands", () =>
    scenario().step("real-granted", async () => {
      const t = scenario();
      const target = join(t.workspace.alpha, "granted.txt");
      const alpha = await t.send("alpha", `[write:${target}] write it`);
      await answerAll(alpha, /allow once|allow/i);
      assert.equal(readFileSync(target, "utf8"), "written by opencode\n");
    }));

  it("I-94, I-118: a write outside the folder, rejected, writes nothing; approved, Manifold's fs/* refuses it and so does the fence when opencode writes it itself: its own error shows in alpha's panel", () =>
    scenario().step("real-outside", async () => {
      const t = scenario();
      const outside = join(t.workspace.root, "outside.txt");
      const target = join(t.workspace.alpha, "..", "outside.txt");
      const alpha = await t.send("alpha", `[write:${target}] write outside`);
      await answerAll(alpha, /reject/i);
      assert.equal(existsSync(outside), false, "a rejected write outside the folder was carried out");
      // Approved: opencode first hands the edit to the client (fs/write_text_file, which Manifold
      // refuses outside the folder, I-94), then writes the file itself: the fence refuses that (I-118).
      await t.send("alpha", `[write:${target}] write outside again`);
      await answerAll(alpha, /allow once|allow/i);
      assert.equal(existsSync(outside), false, "opencode wrote outside every folder through its fence");
      const refused = (frame: typeof alpha) =>
        frame.locator(byTestId(TEST_IDS.notice), { hasText: /Manifold refused the agent's write of .*outside\.txt/ });
      await refused(alpha).first().waitFor({ state: "visible", timeout: 30_000 });
      // opencode 1.18's own words for the fence's EROFS: "Unknown: FileSystem.writeFile (<path>)", on a failed card.
      await alpha
        .locator(byTestId(TEST_IDS.toolCard), { hasText: /FileSystem\.writeFile \(.*outside\.txt\)|read-only file system|EROFS/i })
        .filter({ hasText: /failed/ })
        .first()
        .waitFor({ state: "visible", timeout: 30_000 });
      assert.equal(await refused(await webviewFrame(t.page, "Manifold: beta")).count(), 0, "beta's panel shows alpha's refusal");
    }));

  it("I-118: opencode's own shell cannot write outside the folders, read the home folder's ssh key, or write a git hook", () =>
    scenario().step("real-shell", async () => {
      const t = scenario();
      const home = join(t.workspace.root, "opencode-home");
      const outside = join(t.workspace.root, "shell-outside.txt");
      const hook = join(t.workspace.alpha, ".git", "hooks", "pre-commit");
      const cmd = `echo pwned > ${outside}; cat ${home}/.ssh/id_test; echo pwned > ${hook}; echo inside > ${t.workspace.alpha}/shell-inside.txt`;
      const alpha = await t.send("alpha", `[shell:${cmd}] run it`);
      await answerAll(alpha, /allow once|allow/i);
      assert.equal(readFileSync(join(t.workspace.alpha, "shell-inside.txt"), "utf8"), "inside\n", "the shell ran, and wrote inside");
      assert.equal(existsSync(outside), false, "the shell wrote outside every folder");
      assert.equal(existsSync(hook), false, "the shell wrote a git hook");
      const shown = await alpha.locator("body").innerText();
      assert.ok(!shown.includes(SECRET), "the ssh key reached the panel");
      assert.ok(!(model?.requests ?? []).some((r) => JSON.stringify(r.body).includes(SECRET)), "the ssh key reached the model");
      // The command's output goes back to the model as the tool result: the shell's own errors, no key.
      const results = (model?.requests ?? []).filter((r) => r.afterToolResult).map((r) => JSON.stringify(r.body));
      assert.ok(
        results.some((b) => b.includes("shell-outside.txt: Read-only file system") && b.includes("pre-commit: Read-only file system")),
        "the shell's own errors did not reach the model",
      );
    }));

  it("I-118: opencode's state survives a restart: the same session comes back, and its state lives in its own folder", () =>
    scenario().step("real-restart", async () => {
      const t = scenario();
      const alpha = await webviewFrame(t.page, "Manifold: alpha");
      const before = await alpha.locator(byTestId(TEST_IDS.app)).getAttribute("data-session-id");
      await runCommand(t.page, "Manifold: Restart Agent");
      const again = await t.send("alpha", "[hello:again] say hello");
      await again.locator(byTestId(TEST_IDS.agentMessage), { hasText: "Hello from again" }).waitFor({ state: "visible", timeout: 90_000 });
      assert.equal(await again.locator(byTestId(TEST_IDS.app)).getAttribute("data-session-id"), before, "a new session replaced alpha's");
      assert.equal(await again.locator(byTestId(TEST_IDS.notice), { hasText: /could not reopen/i }).count(), 0);
      assert.ok(
        readdirSync(join(t.workspace.root, "opencode-home", ".local", "share", "opencode")).length > 0,
        "no state in its own folder",
      );
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
