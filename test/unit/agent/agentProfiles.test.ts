// I-118, the extension's half of the agent fence: which profile an agent gets (scripts/agents/
// profiles.json), how its paths expand, and the fence that follows: its own state writable and
// its own credentials readable, every other agent's credentials, the home folder's secrets and
// Manifold's storage hidden.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import pins from "../../../scripts/agents/pins.json";
import { expandPath, fenceFor, PROFILE_TABLE, profileFor, type FenceInputs } from "../../../extension/agent/agentProfiles";

const HOME = "/home/u";

describe("I-118: agent profiles", { skip: process.platform === "win32" && "POSIX paths" }, () => {
  it("I-118: every pinned real agent has a profile, found by its id and by its executable's name", () => {
    assert.ok(pins.agents.length > 0);
    for (const pin of pins.agents) {
      assert.ok(
        PROFILE_TABLE.agents.some((p) => p.id === pin.id),
        `no profile for ${pin.id}`,
      );
      assert.equal(profileFor({ command: `/x/node_modules/.bin/${pin.bin}`, args: [] }).id, pin.id, pin.bin);
      assert.equal(profileFor({ command: "npx", args: ["-y", `${pin.package}@${pin.version}`] }).id, pin.id, pin.package);
    }
  });

  it("I-118: matched by registry id, by command basename, by the package npx runs", () => {
    assert.equal(profileFor({ registryId: "claude-code-acp", command: "/opt/bin/whatever", args: [] }).id, "claude");
    assert.equal(profileFor({ registryId: "gemini", command: "npx", args: ["--yes", "x"] }).id, "gemini");
    assert.equal(profileFor({ command: "/x/node_modules/.bin/opencode", args: ["acp"] }).id, "opencode");
    assert.equal(profileFor({ command: "C:\\tools\\codex-acp.exe".replaceAll("\\", "/"), args: [] }).id, "codex");
    assert.equal(profileFor({ command: "npx", args: ["-y", "@google/gemini-cli@0.61.0", "--acp"] }).id, "gemini");
    assert.equal(profileFor({ command: "npm", args: ["exec", "@zed-industries/codex-acp"] }).id, "codex");
  });

  it("I-118: an unknown registry agent gets the default profile named after its id (~/.<name> and the XDG dirs)", () => {
    const p = profileFor({ registryId: "acme-agent", command: "npx", args: ["-y", "@acme/agent@1.0.0"] });
    assert.equal(p.id, "acme-agent");
    assert.deepEqual(p.credentials, []);
    assert.deepEqual(
      p.state.map((s) => expandPath(s, {}, HOME)),
      [
        "/home/u/.acme-agent",
        "/home/u/.config/acme-agent",
        "/home/u/.local/share/acme-agent",
        "/home/u/.cache/acme-agent",
        "/home/u/.local/state/acme-agent",
      ],
    );
    assert.deepEqual(p.state.map((s) => expandPath(s, { XDG_CONFIG_HOME: "/cfg" }, HOME))[1], "/cfg/acme-agent");
    // Without a registry id: named after the package npx runs, or the command; never an empty or path-like name.
    assert.equal(profileFor({ command: "npx", args: ["-y", "@acme/tool@2"] }).id, "tool");
    assert.equal(profileFor({ command: "/usr/local/bin/foo-agent", args: ["--acp"] }).id, "foo-agent");
  });

  // A name of dots would expand `${XDG_CONFIG_HOME:-~/.config}/<name>` to the home folder itself
  // (`..`) or `~/.<name>` to /home (`.`): the whole home writable and, being "its own", no secret
  // hidden. Registry ids cannot be dots (registry/schema.ts), but the command's or package's name can (`npx ..`).
  it("I-118: a default profile never names the home folder or above (a name of dots)", () => {
    for (const args of [[".."], ["."], ["...@1"]]) {
      const { fence } = fenceFor({ who: { command: "npx", args }, env: {}, home: HOME, folders: [], tmpDir: "/tmp/x", storage: [] });
      for (const d of fence.stateDirs) assert.ok(d.startsWith(HOME + "/") && d !== HOME, `${args[0]}: ${d}`);
      assert.ok(fence.hidden.includes("/home/u/.ssh"), String(args[0]));
    }
  });

  it("I-118: expandPath: ~, ${X:-default} with and without X set, and undefined when the result is not absolute", () => {
    assert.equal(expandPath("~", {}, HOME), HOME);
    assert.equal(expandPath("~/.ssh", {}, HOME), "/home/u/.ssh");
    assert.equal(expandPath("${CODEX_HOME:-~/.codex}/auth.json", {}, HOME), "/home/u/.codex/auth.json");
    assert.equal(expandPath("${CODEX_HOME:-~/.codex}/auth.json", { CODEX_HOME: "/srv/codex" }, HOME), "/srv/codex/auth.json");
    // Set but empty counts as unset, as in the shell's `:-`.
    assert.equal(expandPath("${CODEX_HOME:-~/.codex}", { CODEX_HOME: "" }, HOME), "/home/u/.codex");
    assert.equal(expandPath("${X:-/a}/../b", {}, HOME), "/b");
    assert.equal(expandPath("${X:-rel}/x", {}, HOME), undefined);
    assert.equal(expandPath("${X}/x", { X: "relative" }, HOME), undefined);
    assert.equal(expandPath("${X}", {}, HOME), undefined);
    assert.equal(expandPath("rel/x", {}, HOME), undefined);
  });
});

describe("I-118: fenceFor", { skip: process.platform === "win32" && "POSIX paths" }, () => {
  const inputs = (o: Partial<FenceInputs> = {}): FenceInputs => ({
    who: { registryId: "claude-code-acp", command: "npx", args: ["-y", "@agentclientprotocol/claude-agent-acp@0.101.0"] },
    env: {},
    home: HOME,
    folders: ["/work/a", "/work/b"],
    tmpDir: "/tmp/manifold-agent/x",
    storage: ["/home/u/.config/Code/User/globalStorage/manifold.manifold"],
    ...o,
  });

  it("I-118: its own state writable and its own credentials readable; every other agent's credentials hidden", () => {
    const { profile, fence } = fenceFor(inputs());
    assert.equal(profile.id, "claude");
    assert.ok(fence.stateDirs.includes("/home/u/.claude"));
    assert.deepEqual(fence.stateFiles, ["/home/u/.claude.json"]);
    assert.equal(fence.hidden.includes("/home/u/.claude/.credentials.json"), false);
    for (const other of [
      "/home/u/.gemini/oauth_creds.json",
      "/home/u/.codex/auth.json",
      "/home/u/.local/share/opencode/auth.json",
      "/home/u/.qwen/oauth_creds.json",
    ])
      assert.ok(fence.hidden.includes(other), other);
    // Another agent's fence hides claude's and leaves its own.
    const gemini = fenceFor(inputs({ who: { command: "/x/node_modules/.bin/gemini", args: ["--acp"] } })).fence;
    assert.ok(gemini.hidden.includes("/home/u/.claude/.credentials.json"));
    assert.equal(gemini.hidden.includes("/home/u/.gemini/oauth_creds.json"), false);
    assert.deepEqual(gemini.stateDirs, ["/home/u/.gemini"]);
  });

  it("I-118: the home folder's secrets and Manifold's storage are hidden; the folders, temp area and install dir pass through", () => {
    const { fence } = fenceFor(
      inputs({ installDir: "/home/u/.config/Code/User/globalStorage/manifold.manifold/agents/claude", protectedPaths: ["/work/a/.env"] }),
    );
    for (const s of ["/home/u/.ssh", "/home/u/.aws", "/home/u/.netrc", "/home/u/.docker/config.json", "/home/u/.config/gh"])
      assert.ok(fence.hidden.includes(s), s);
    assert.ok(fence.hidden.includes("/home/u/.config/Code/User/globalStorage/manifold.manifold"));
    assert.deepEqual(fence.folders, ["/work/a", "/work/b"]);
    assert.equal(fence.tmpDir, "/tmp/manifold-agent/x");
    assert.deepEqual(fence.readable, ["/home/u/.config/Code/User/globalStorage/manifold.manifold/agents/claude"]);
    assert.deepEqual(fence.protectedPaths, ["/work/a/.env"]);
    assert.ok(fence.hidden.every((h) => h.startsWith("/")));
  });

  it("I-118: npx adds the npm cache (its env override too), and the user's extra writable paths are added", () => {
    assert.ok(fenceFor(inputs()).fence.stateDirs.includes("/home/u/.npm"));
    const custom = fenceFor(inputs({ env: { npm_config_cache: "/var/cache/npm" }, extraWritable: ["~/notes", "relative/ignored"] })).fence;
    assert.ok(custom.stateDirs.includes("/var/cache/npm"));
    assert.equal(custom.stateDirs.includes("/home/u/.npm"), false);
    assert.ok(custom.stateDirs.includes("/home/u/notes"));
    assert.equal(
      custom.stateDirs.some((d) => d.includes("relative")),
      false,
    );
    // No launcher, no cache (opencode's own profile lists npm's: it installs its plugins with it).
    const direct = fenceFor(inputs({ who: { command: "/x/node_modules/.bin/foo-agent", args: [] } })).fence;
    assert.equal(direct.stateDirs.includes("/home/u/.npm"), false);
  });

  it("I-118: the agent's environment moves its state and its credentials together (CLAUDE_CONFIG_DIR)", () => {
    const { fence } = fenceFor(inputs({ env: { CLAUDE_CONFIG_DIR: "/srv/claude" } }));
    assert.ok(fence.stateDirs.includes("/srv/claude"));
    assert.equal(fence.stateDirs.includes("/home/u/.claude"), false);
    assert.equal(fence.hidden.includes("/srv/claude/.credentials.json"), false);
  });

  it("I-118: a secret inside the agent's own state stays readable to it (an extra writable path over ~/.ssh)", () => {
    const { fence } = fenceFor(inputs({ extraWritable: ["~/.ssh"] }));
    assert.equal(fence.hidden.includes("/home/u/.ssh"), false);
    assert.ok(fence.stateDirs.includes("/home/u/.ssh"));
  });
});
