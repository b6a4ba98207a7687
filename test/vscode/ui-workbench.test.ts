// needs: e2e-tools
// UI tests in one real VS Code window: the packaged .vsix in code-server, a two-folder workspace, the
// built-in agent on the fake model server (real HTTP + SSE), headless Chromium on the workbench.
// Starting code-server, the workbench and the agent is most of a UI test's cost, so the sections share
// one window and run in this order (each uses its own prompts and model routes; the last closes the
// window). The window opens untrusted (Restricted Mode); the first section trusts it. Screenshots
// (failures; panels in light and dark) go to test-results/screenshots/.
import * as assert from "node:assert/strict";
import { after, before, describe } from "node:test";
import { startScenario, type Scenario } from "./support/scenario";
import { processesInGroup, processesMentioning } from "./support/processes";
import { agentLifecycleTests } from "./ui/agentLifecycle";
import { chatPanelTests } from "./ui/chatPanels";
import { checkpointTests } from "./ui/checkpoints";
import { MCP_WINDOW_SETTINGS, mcpServerTests, mcpTrustHooks, prepareMcpFixture } from "./ui/mcpServers";
import { permissionTests } from "./ui/permissions";
import { questionTests } from "./ui/questions";
import { queueSteerTests } from "./ui/queueSteer";
import { mentionTests } from "./ui/mentions";
import { restrictedModeTests } from "./ui/restrictedMode";
import { webviewSafetyTests } from "./ui/webviewSafety";
import { imageTests } from "./ui/images";

describe("Manifold in code-server: one window, two folders", () => {
  let s: Scenario | undefined;
  const scenario = (): Scenario => {
    if (!s) throw new Error("the scenario did not start (see the before hook's error)");
    return s;
  };

  before(async () => {
    s = await startScenario("manifold-ui-", { untrusted: true, prepare: prepareMcpFixture, settings: MCP_WINDOW_SETTINGS });
  });

  after(async () => {
    if (!s) return;
    const { pgid } = s.server;
    const root = s.workspace.root;
    const hostErrors = s.hostErrors();
    const leftovers = await s.close();
    // Nothing failed silently in the extension host (e.g. the activation recursion once logged 27 RangeErrors).
    assert.deepEqual(hostErrors, [], "the extension host logged errors");
    // Nothing may outlive the window: not code-server's group, nor anything started from its folders.
    assert.deepEqual(processesInGroup(pgid), []);
    assert.deepEqual(leftovers, [], "processes outlived code-server (an agent left running?)");
    assert.deepEqual(processesMentioning(root), []);
  });

  restrictedModeTests(scenario, mcpTrustHooks);
  chatPanelTests(scenario);
  webviewSafetyTests(scenario);
  questionTests(scenario);
  permissionTests(scenario);
  mcpServerTests(scenario);
  checkpointTests(scenario);
  queueSteerTests(scenario);
  imageTests(scenario);
  mentionTests(scenario);
  agentLifecycleTests(scenario);
});
