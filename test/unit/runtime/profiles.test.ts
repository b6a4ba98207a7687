// Unit: the agent-profile schema (base/agentProfiles.ts), the config file reader and what a profile
// changes in a session (agent-server/runtime/profiles.ts).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseAgentConfig, parseAgentProfiles, profileSessionId } from "../../../base/agentProfiles";
import { AgentConfigError, configPathOf, loadAgentConfig } from "../../../agent-server/configFile";
import { profileSwitches, sessionProfileOf, toolAllowed } from "../../../agent-server/runtime/profiles";

const messageOf = (r: { ok: boolean; message?: string }): string => (r.ok ? "" : (r.message ?? ""));

describe("agent profile schema", () => {
  it("accepts labels of a-z, 0-9, _ and - up to 40, starting with a letter or digit", () => {
    for (const id of ["reviewer", "a", "0x", "read_only-2", "a".repeat(40)])
      assert.equal(parseAgentProfiles([{ id, name: "N" }], "p").ok, true, id);
    for (const id of ["", "-x", "_x", "Reviewer", "a b", "a.b", "a/b", "a".repeat(41), "é"])
      assert.equal(parseAgentProfiles([{ id, name: "N" }], "p").ok, false, JSON.stringify(id));
  });

  it("reserves the id default", () => {
    const r = parseAgentProfiles([{ id: "default", name: "D" }], "manifold.agentProfiles");
    assert.match(messageOf(r), /^manifold\.agentProfiles\[0\]\.id: .*reserved/);
  });

  it("refuses unknown keys and values outside the policy lists", () => {
    assert.equal(parseAgentProfiles([{ id: "x", name: "X", tool: ["read_file"] }], "p").ok, false);
    assert.equal(parseAgentProfiles([{ id: "x", name: "X", mode: "yolo" }], "p").ok, false);
    assert.equal(parseAgentProfiles([{ id: "x", name: "X", sandbox: "workspace-write", approval: "never", mode: "agent" }], "p").ok, true);
  });

  it("I-10: two profiles with one id are refused, naming both entries by index and id", () => {
    const r = parseAgentProfiles(
      [
        { id: "a", name: "A" },
        { id: "b", name: "B" },
        { id: "a", name: "A again" },
      ],
      "manifold.agentProfiles",
    );
    assert.equal(r.ok, false);
    assert.match(messageOf(r), /\[0\] "a"/);
    assert.match(messageOf(r), /\[2\] "a"/);
    const c = parseAgentConfig(
      {
        agentProfiles: [
          { id: "z", name: "Z" },
          { id: "z", name: "Z" },
        ],
      },
      "config f: ",
    );
    assert.match(messageOf(c), /^config f: agentProfiles\[1\]\.id: duplicate profile id: \[0\] "z" and \[1\] "z"/);
  });

  it("I-7: a profile session id is <label>-session-<uuid>", () => {
    assert.equal(profileSessionId("rev", "0b5e7c1e-1f0a-4c3b-9d2e-5a6b7c8d9e0f"), "rev-session-0b5e7c1e-1f0a-4c3b-9d2e-5a6b7c8d9e0f");
  });
});

describe("agent config file", () => {
  it("--config wins over MANIFOLD_CONFIG; neither means no profiles", () => {
    assert.equal(configPathOf(["--config", "/a.json"], { MANIFOLD_CONFIG: "/b.json" }), "/a.json");
    assert.equal(configPathOf(["--config=/c.json"], {}), "/c.json");
    assert.equal(configPathOf([], { MANIFOLD_CONFIG: "/b.json" }), "/b.json");
    assert.deepEqual(
      loadAgentConfig([], {}, () => assert.fail("nothing to read")),
      { agentProfiles: [] },
    );
    assert.throws(() => configPathOf(["--config"], {}), AgentConfigError);
  });

  it("bad JSON and bad content are AgentConfigErrors naming the file", () => {
    assert.throws(
      () => loadAgentConfig(["--config", "/x.json"], {}, () => "{"),
      (e: unknown) => e instanceof AgentConfigError && e.message.startsWith("config /x.json: "),
    );
    assert.throws(() => loadAgentConfig(["--config", "/x.json"], {}, () => '{"profiles": []}'), /config \/x\.json: /);
  });
});

describe("what a profile changes in a session", () => {
  it("keeps the label, tools and instructions; applies mode, then sandbox and approval, then model", () => {
    const p = { id: "rev", name: "R", mode: "read-only", approval: "never", model: "m", tools: ["read_file"], instructions: "hi" } as const;
    assert.deepEqual(sessionProfileOf({ ...p, tools: [...p.tools] }), { id: "rev", tools: ["read_file"], instructions: "hi" });
    assert.deepEqual(profileSwitches({ ...p, tools: [...p.tools] }), [
      ["mode", "read-only"],
      ["approval", "never"],
      ["model", "m"],
    ]);
  });

  it("a tool is allowed without a profile or a list, else only if listed", () => {
    assert.equal(toolAllowed(undefined, "bash"), true);
    assert.equal(toolAllowed({ id: "x" }, "bash"), true);
    assert.equal(toolAllowed({ id: "x", tools: ["read_file"] }, "bash"), false);
    assert.equal(toolAllowed({ id: "x", tools: ["read_file"] }, "read_file"), true);
  });
});
