// Settings a workspace must not control: where the user's API key is sent (`manifold.model.baseUrl`)
// and which commands run as agents (`manifold.agents`) are machine-scoped, so the hostile values the
// runner puts in the fixture's .code-workspace are ignored. A window-scoped setting from the same file
// applies (the control: the workspace settings were read at all).
import * as assert from "node:assert/strict";
import { readAgentSettings } from "../../../extension/vscode/config";
import { activateManifold } from "./helpers";

describe("Manifold settings and the workspace", () => {
  it("a workspace cannot redirect the model endpoint or add agent commands; window settings still apply", async () => {
    await activateManifold();
    const settings = readAgentSettings();
    assert.deepEqual(
      { baseUrl: settings.modelBaseUrl, agents: settings.agents, logLevel: settings.logLevel },
      { baseUrl: undefined, agents: [], logLevel: "debug" },
    );
  });
});
