// MCP servers in a real window. I-102: folder alpha's `.vscode/mcp.json` defines a stdio server
// ("probe", the fake server of test/support, which logs its start and cwd to a marker file); it must not
// start while the workspace is untrusted, nor after "Don't Allow", and once allowed it serves alpha's
// session only. A folder's server starts inside the session's sandbox (I-114), so its script and
// marker live in alpha (the sandbox hides the host's /tmp and writes only the folder). Then the
// diagnostics round trip: the agent writes a type error and Manifold's own MCP server
// (`mcp__manifold__diagnostics`) reports it back to the model.
// The untrusted and consent checks hook into the Restricted Mode section (the only moments the window is
// untrusted and the consent question first comes up); the rest runs after the permission section.
// The window runs TypeScript in Restricted Mode too (MCP_WINDOW_SETTINGS): code-server does not load an
// extension that declares no untrusted-workspace support when the window is trusted later, so without
// it no TypeScript would run in this window at all (see test/vscode/README.md, MCP).
import * as assert from "node:assert/strict";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { FrameLocator } from "playwright-core";
import { readLog } from "../../support/mcpFake";
import { mcpStdioEntry } from "../../support/mcpServers";
import type { TwoFolderWorkspace } from "../support/fixtures";
import { editorTab, runCommandAndPick, screenshot } from "../support/browser";
import { byTestId, eventually, lastToolResult, type Folder, type Scenario } from "../support/scenario";
import { TEST_IDS } from "../../../extension/webview/testIds";
import type { TrustHooks } from "./restrictedMode";

const SERVER = "probe";
const TOOL = `mcp__${SERVER}__echo`;
const markerOf = (alpha: string): string => join(alpha, ".mcp-probe", "started.jsonl");
const starts = (s: Scenario) => readLog(markerOf(s.workspace.alpha)).filter((e) => e.event === "start");

/**
 * User settings of the shared window: TypeScript's extension is loaded while the window is untrusted, so
 * it runs once the window is trusted (code-server only adds it to the running extension host at start).
 */
export const MCP_WINDOW_SETTINGS: Record<string, unknown> = {
  "extensions.supportUntrustedWorkspaces": { "vscode.typescript-language-features": { supported: true } },
};

/** Before code-server starts: alpha's `.vscode/mcp.json` runs the fake stdio server. */
export function prepareMcpFixture(ws: TwoFolderWorkspace): void {
  const entry = mcpStdioEntry({ name: SERVER, tools: [{ name: "echo", behaviour: "echo" }], log: markerOf(ws.alpha) });
  if (!("command" in entry)) throw new Error("expected a stdio entry");
  const script = join(ws.alpha, ".mcp-probe", "server.cjs");
  mkdirSync(join(ws.alpha, ".mcp-probe"), { recursive: true });
  // The server runs sandboxed to alpha, so its log lives there; ignored, it is no change of alpha's
  // that a checkpoint records (the checkpoint tests in the same window list alpha's changed files).
  writeFileSync(join(ws.alpha, ".mcp-probe", ".gitignore"), "*\n");
  copyFileSync(entry.args[0]!, script);
  const config = {
    servers: {
      [SERVER]: {
        type: "stdio",
        command: entry.command,
        args: [script],
        env: Object.fromEntries(entry.env.map((e) => [e.name, e.value])),
      },
    },
  };
  mkdirSync(join(ws.alpha, ".vscode"), { recursive: true });
  // JSONC, as users write it: a comment and a trailing comma.
  writeFileSync(join(ws.alpha, ".vscode/mcp.json"), `// alpha's servers\n${JSON.stringify(config, null, 2).replace(/\n}$/, ",\n}")}\n`);
}

/** The modal consent question (a workbench dialog); answers it with `button`. */
async function answerConsent(s: Scenario, button: "Allow" | "Don't Allow", shot?: string): Promise<void> {
  const { page } = s;
  const dialog = page.locator(".monaco-dialog-box", { hasText: `Start MCP server "${SERVER}" from folder alpha?` });
  await dialog.waitFor({ state: "visible", timeout: 60_000 });
  if (shot) await screenshot(page, shot);
  assert.deepEqual(starts(s), [], "the server started before the user answered");
  await dialog.locator(".monaco-button", { hasText: new RegExp(`^${button.replace("'", ".")}$`) }).click();
  await dialog.waitFor({ state: "detached", timeout: 30_000 });
}

/** The Restricted Mode section's hooks: no start while untrusted; on trust, the question, answered "Don't Allow". */
export const mcpTrustHooks: TrustHooks = {
  untrusted(s) {
    assert.deepEqual(starts(s), [], "I-102: a folder's MCP server started in an untrusted workspace");
    return Promise.resolve();
  },
  async trusting(s) {
    await answerConsent(s, "Don't Allow", "mcp-consent-modal");
  },
};

/** The panel's server rows (the list opened, so a screenshot shows it). */
async function serverRows(frame: FrameLocator): Promise<FrameLocator> {
  const list = frame.locator(byTestId("mcp-servers"));
  await list.waitFor({ state: "visible", timeout: 60_000 });
  if ((await list.getAttribute("open")) === null) await list.locator("summary").click();
  return frame;
}
const row = (frame: FrameLocator, name: string) => frame.locator(`${byTestId("mcp-server")}[data-name="${name}"]`);

export function mcpServerTests(scenario: () => Scenario): void {
  describe("MCP servers (I-102) and Manifold's own server", () => {
    it("I-102: after Don't Allow the folder's server did not start; alpha's panel lists it as not allowed, beta's not at all", () => {
      const s = scenario();
      return s.step("mcp-declined", async () => {
        const alpha = await serverRows(await s.reveal("alpha"));
        await row(alpha, SERVER).and(alpha.locator('[data-state="declined"]')).waitFor({ state: "visible", timeout: 60_000 });
        await row(alpha, "manifold").and(alpha.locator('[data-state="ready"]')).waitFor({ state: "visible", timeout: 60_000 });
        await screenshot(s.page, "mcp-servers-declined");
        const beta = await serverRows(await s.reveal("beta"));
        await row(beta, "manifold").waitFor({ state: "visible", timeout: 60_000 });
        assert.equal(await row(beta, SERVER).count(), 0, "beta's panel lists alpha's folder server");
        assert.deepEqual(starts(s), [], "the server started after Don't Allow");
      });
    });

    it("I-102: Restart MCP Server… asks again; after Allow it starts for alpha only, and only alpha's model requests list its tools", () => {
      const s = scenario();
      return s.step("mcp-allowed", async () => {
        await runCommandAndPick(s.page, "Manifold: Restart MCP Server…", SERVER);
        await answerConsent(s, "Allow");
        const started = await eventually(() => (starts(s).length > 0 ? starts(s) : undefined), "the probe server's start marker");
        assert.deepEqual(
          started.map((e) => e.cwd),
          [s.workspace.alpha],
          "the server started once, for alpha",
        );
        const alpha = await serverRows(await s.reveal("alpha"));
        const ready = row(alpha, SERVER).and(alpha.locator('[data-state="ready"]'));
        await ready.waitFor({ state: "visible", timeout: 60_000 });
        assert.match(await ready.innerText(), /ready, 1 tool\b/);
        await screenshot(s.page, "mcp-servers-ready");

        const asked = async (folder: Folder) => {
          const marker = `[mcp-${folder}]`;
          s.model.route(marker, { text: `${folder}: tools listed` });
          const frame = await s.send(folder, `${marker} which tools do you have?`);
          await frame
            .locator(byTestId(TEST_IDS.agentMessage), { hasText: `${folder}: tools listed` })
            .waitFor({ state: "visible", timeout: 60_000 });
          const reqs = s.model.requests.filter((r) => r.lastUserText.includes(marker));
          assert.equal(reqs.length, 1);
          return reqs[0]!.toolNames;
        };
        const alphaTools = await asked("alpha");
        assert.ok(alphaTools.includes(TOOL), `alpha's request lacks ${TOOL}: ${alphaTools.join(", ")}`);
        assert.ok(alphaTools.includes("mcp__manifold__diagnostics"), "alpha's request lacks Manifold's own tools");
        const betaTools = await asked("beta");
        assert.deepEqual(
          betaTools.filter((t) => t.startsWith(`mcp__${SERVER}__`)),
          [],
          "beta's request lists alpha's folder server",
        );
        assert.ok(betaTools.includes("mcp__manifold__diagnostics"), "beta's request lacks Manifold's own tools");
        assert.equal(starts(s).length, 1, "the server started again (for beta?)");
      });
    });

    it("the agent sees the type error its own edit caused (write_file, then mcp__manifold__diagnostics); the file's tab opened for it closes again", () => {
      const s = scenario();
      return s.step("mcp-diagnostics", async () => {
        const bad = join(s.workspace.alpha, "src/bad.ts");
        s.model.route(
          "[diag]",
          { toolCalls: [{ name: "write_file", args: { path: bad, content: 'export const n: number = "x";\n' } }] },
          { toolCalls: [{ name: "mcp__manifold__diagnostics", args: { path: "src/bad.ts" } }] },
          { text: "I see the type error." },
        );
        const alpha = await s.send("alpha", "[diag] add src/bad.ts, then check it");
        const done = alpha.locator(byTestId(TEST_IDS.agentMessage), { hasText: "I see the type error." });
        // MCP calls ask (I-100), a write may too: allow each card as the user would, until the turn ends.
        const pending = alpha.locator(`${byTestId(TEST_IDS.permissionCard)}.pending`);
        await eventually(
          async () => {
            if (await done.isVisible()) return true;
            // A card answered between the count and the click is no failure: the loop looks again.
            if (await pending.count())
              await pending
                .first()
                .locator(byTestId(TEST_IDS.permissionOption), { hasText: /allow once/i })
                .first()
                .click({ timeout: 5_000 })
                .catch(() => undefined);
            return undefined;
          },
          "the [diag] turn to end",
          120_000,
        );
        const after = s.model.requests.filter((r) => r.lastUserText.includes("[diag]") && r.afterToolResult);
        assert.equal(after.length, 2);
        const result = lastToolResult(after[1]!);
        assert.match(result, /src\/bad\.ts:1:\d+ error \[ts 2322\]: Type 'string' is not assignable to type 'number'/);
        // TypeScript checks only files in tabs: the tool opened one in the background and closed it after.
        assert.equal(await editorTab(s.page, "bad.ts").count(), 0, "the tab opened for the analysis is still open");
      });
    });
  });
}
