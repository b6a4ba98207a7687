// The extension's side of agent profiles, without VS Code: `manifold.agentProfiles` (User value only)
// → the config file → the built-in agent's `--config`, read back by the agent-server's own reader;
// a bad value reaches nothing; New Session's choice → `session/new` `_meta["manifold.dev/profile"]`.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { AcpClient } from "../../../extension/agent/acpClient";
import { resolveAgentSpec } from "../../../extension/agent/agentSpec";
import { AGENT_CONFIG_FILE, writeAgentConfig } from "../../../extension/agent/profilesConfig";
import { noEditor } from "../../../extension/client/fileService";
import { FolderSession } from "../../../extension/sessions/folderSession";
import { profileChoices } from "../../../extension/sessions/profileChoice";
import { agentProfilesFrom, type SettingsSource } from "../../../extension/sessions/settingsScope";
import { loadAgentConfig } from "../../../agent-server/configFile";
import { createNoSandbox } from "../../../sandbox/none";
import { createFakeAgent } from "./fakeAgent";

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function temp(): string {
  const d = mkdtempSync(join(tmpdir(), "manifold-profiles-"));
  dirs.push(d);
  return d;
}

const REVIEWER = { id: "reviewer", name: "Reviewer", mode: "read-only", tools: ["read_file", "grep"] };

function settings(user: unknown, workspace?: unknown): SettingsSource {
  return {
    inspect: (id) => (id === "agentProfiles" ? { defaultValue: [], globalValue: user, workspaceValue: workspace } : undefined),
  };
}

function builtinSpec(configFile: string | undefined) {
  return resolveAgentSpec({
    settings: { agent: "builtin", agents: [] },
    secrets: {},
    baseEnv: {},
    execPath: "/node",
    extensionPath: "/ext",
    dataDir: "/data/sessions",
    cwd: "/data",
    ...(configFile !== undefined ? { configFile } : {}),
  });
}

test("the User value's profiles reach the built-in agent as --config, and its reader sees the same profiles", async () => {
  const dir = temp();
  const { profiles, error } = agentProfilesFrom(settings([REVIEWER], [{ id: "evil", name: "Evil", mode: "full-access" }]));
  assert.equal(error, undefined);
  const file = await writeAgentConfig(dir, profiles);
  const spec = builtinSpec(file);
  const i = spec.args.indexOf("--config");
  assert.ok(i > 0 && spec.args[i + 1] === file, spec.args.join(" "));
  const read = loadAgentConfig(spec.args.slice(1), {});
  assert.deepEqual(read.agentProfiles, [REVIEWER], "the workspace's profile is not there");
});

test("I-10: a duplicate id in the setting is an error naming both; no profile and no --config reach the agent", async () => {
  const dir = temp();
  await writeAgentConfig(dir, [{ id: "old", name: "Old" }]);
  const { profiles, error } = agentProfilesFrom(settings([REVIEWER, { ...REVIEWER, name: "Again" }]));
  assert.match(error ?? "", /manifold\.agentProfiles\[1\]\.id: duplicate profile id: \[0\] "reviewer" and \[1\] "reviewer"/);
  assert.deepEqual(profiles, []);
  const file = await writeAgentConfig(dir, profiles);
  assert.equal(file, undefined);
  assert.equal(existsSync(join(dir, AGENT_CONFIG_FILE)), false, "the previous file is gone");
  assert.equal(builtinSpec(file).args.includes("--config"), false);
});

test("New Session's choice of a profile is sent as _meta on session/new; Default sends none", async () => {
  const folder = temp();
  const fake = createFakeAgent();
  const client = new AcpClient(fake.app);
  await client.initialize();
  const bindings = new Map<string, string>();
  const s = new FolderSession(folder, "f", {
    bindings: { get: (f) => bindings.get(f), set: (f, id) => void (id ? bindings.set(f, id) : bindings.delete(f)) },
    editor: noEditor,
    terminalSandbox: async () => createNoSandbox({}, "no terminals in this test"),
  });
  try {
    await s.attach(client, { restart: false });
    const [defaultChoice, reviewer] = profileChoices([REVIEWER as never], true);
    await s.newSession(reviewer!.profileId);
    await s.newSession(defaultChoice!.profileId);
    assert.deepEqual(
      fake.newSessions.map((n) => n.meta?.["manifold.dev/profile"]),
      [undefined, "reviewer", undefined],
    );
  } finally {
    await s.shutdown();
  }
});
