// The macOS backend cannot run on the Linux CI: its generated profile and argv are checked here.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, it } from "node:test";
import { CONFIG_DIRS } from "../../../sandbox/configPaths";
import { seatbeltArgs, seatbeltFenceArgs, seatbeltFenceProfile, seatbeltProfile } from "../../../sandbox/seatbelt";
import type { AgentFence, SandboxContext } from "../../../sandbox/types";

const ctx = (o: Partial<SandboxContext> = {}): SandboxContext => ({
  sessionId: "s",
  mode: "workspace-write",
  approval: "on-request",
  root: "/Users/me/proj",
  tmpDir: "/var/folders/xy/T/manifold-s",
  network: false,
  ...o,
});
// Stand-in for realpath on macOS: /var → /private/var, /tmp → /private/tmp.
const fakeReal = (p: string) => p.replace(/^\/(var|tmp)\//, "/private/$1/");

describe("sandbox-exec profile (macOS)", () => {
  it("workspace-write: deny by default, read everywhere, write the root minus .git/hooks and .git/config, and the session temp area; no network", () => {
    const { params, profile } = seatbeltProfile(ctx(), fakeReal);
    assert.deepEqual(params, [
      ["WRITABLE_ROOT_0", "/Users/me/proj"],
      ["WRITABLE_ROOT_0_RO_0", "/Users/me/proj/.git/hooks"],
      ["WRITABLE_ROOT_0_RO_1", "/Users/me/proj/.git/config"],
      ...CONFIG_DIRS.map((d, i): [string, string] => [`WRITABLE_ROOT_0_RO_${i + 2}`, `/Users/me/proj/${d}`]),
      ["WRITABLE_ROOT_0_PIN_0", "/Users/me/proj/.git"],
      ["WRITABLE_ROOT_1", "/private/var/folders/xy/T/manifold-s"],
      ["HIDDEN_0", "/private/var/folders/xy/T"],
    ]);
    const lines = profile.trim().split("\n");
    assert.equal(lines[0], "(version 1)");
    assert.equal(lines[1], "(deny default)");
    assert.ok(lines.includes("(allow file-read*)"));
    assert.equal(
      lines.find((l) => l.startsWith("(allow file-write* ")),
      `(allow file-write* (require-all (subpath (param "WRITABLE_ROOT_0")) (require-not (subpath (param "WRITABLE_ROOT_0_RO_0"))) (require-not (subpath (param "WRITABLE_ROOT_0_RO_1"))) ${CONFIG_DIRS.map((_, i) => `(require-not (subpath (param "WRITABLE_ROOT_0_RO_${i + 2}")))`).join(" ")} (require-not (literal (param "WRITABLE_ROOT_0_PIN_0")))) (require-all (subpath (param "WRITABLE_ROOT_1"))))`,
    );
    // Other sessions' temp areas are hidden; the session's own area is given back after the deny.
    const deny = lines.findIndex((l) => l === '(deny file-read* file-write* (subpath (param "HIDDEN_0")))');
    assert.ok(deny > lines.indexOf("(allow file-read*)"));
    assert.equal(lines[deny + 1], '(allow file-read* file-write* (subpath (param "WRITABLE_ROOT_1")))');
    assert.equal(/network/.test(profile), false);
    // Paths are parameters, never spliced into the profile text.
    assert.equal(profile.includes("/Users/me/proj"), false);
  });

  it("read-only: only the session temp area is writable", () => {
    const { params, profile } = seatbeltProfile(ctx({ mode: "read-only" }), fakeReal);
    assert.deepEqual(params, [
      ["WRITABLE_ROOT_0", "/private/var/folders/xy/T/manifold-s"],
      ["HIDDEN_0", "/private/var/folders/xy/T"],
    ]);
    assert.match(profile, /\(allow file-write\* \(require-all \(subpath \(param "WRITABLE_ROOT_0"\)\)\)\)/);
  });

  it("network on adds outbound/inbound and sockets", () => {
    const { profile } = seatbeltProfile(ctx({ network: true }), fakeReal);
    assert.match(profile, /\(allow network-outbound\)\n\(allow network-inbound\)\n\(allow system-socket\)\n$/);
  });

  it("argv: -p profile, -D parameters, then bash -c command", () => {
    const args = seatbeltArgs("ls -la", ctx(), "/bin/bash", fakeReal);
    assert.equal(args[0], "-p");
    assert.deepEqual(args.slice(2), [
      "-DWRITABLE_ROOT_0=/Users/me/proj",
      "-DWRITABLE_ROOT_0_RO_0=/Users/me/proj/.git/hooks",
      "-DWRITABLE_ROOT_0_RO_1=/Users/me/proj/.git/config",
      ...CONFIG_DIRS.map((d, i) => `-DWRITABLE_ROOT_0_RO_${i + 2}=/Users/me/proj/${d}`),
      "-DWRITABLE_ROOT_0_PIN_0=/Users/me/proj/.git",
      "-DWRITABLE_ROOT_1=/private/var/folders/xy/T/manifold-s",
      "-DHIDDEN_0=/private/var/folders/xy/T",
      "--",
      "/bin/bash",
      "-c",
      "ls -la",
    ]);
  });

  it("git metadata found the way git does (a gitdir: file, its git dir and parents) and the hidden data dir", () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "mf-sb-")));
    try {
      const root = path.join(base, "ws");
      fs.mkdirSync(path.join(root, "meta", "gd", "hooks"), { recursive: true });
      fs.writeFileSync(path.join(root, "meta", "gd", "HEAD"), "ref: refs/heads/main\n");
      fs.writeFileSync(path.join(root, "meta", "gd", "config"), "[core]\n");
      fs.writeFileSync(path.join(root, ".git"), "gitdir: meta/gd\n");
      const { params, profile } = seatbeltProfile(ctx({ root, tmpDir: path.join(base, "tmp", "s") }), (p) => p, [path.join(base, "data")]);
      const values = (re: RegExp) => params.filter(([k]) => re.test(k)).map(([, v]) => v);
      assert.deepEqual(
        values(/_RO_/),
        [".git/hooks", ".git/config", ...CONFIG_DIRS, ".git", "meta/gd/hooks", "meta/gd/config"].map((p) => path.join(root, p)),
      );
      assert.deepEqual(
        values(/_PIN_/),
        [".git", "meta", "meta/gd"].map((p) => path.join(root, p)),
      );
      assert.deepEqual(values(/^HIDDEN_/), [path.join(base, "data"), path.join(base, "tmp")]);
      assert.match(profile, /\(deny file-read\* file-write\* \(subpath \(param "HIDDEN_0"\)\) \(subpath \(param "HIDDEN_1"\)\)\)/);
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });

  it("I-112: protected config is denied to writes: the config folders by name (existing or not), an existing *.code-workspace in any case, and the client's extra paths", () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "mf-sb-")));
    try {
      const root = path.join(base, "ws");
      fs.mkdirSync(path.join(root, ".VSCode"), { recursive: true });
      fs.writeFileSync(path.join(root, "x.code-workspace"), "{}");
      fs.mkdirSync(path.join(root, "srv"));
      const envFile = path.join(root, "srv", ".env");
      const outside = path.join(base, "elsewhere.env");
      const { params, profile } = seatbeltProfile(
        ctx({ root, tmpDir: path.join(base, "tmp", "s"), protectedPaths: [envFile, outside, "relative/.env"] }),
        (p) => p,
      );
      const ro = params.filter(([k]) => /_RO_/.test(k)).map(([, v]) => v);
      for (const d of CONFIG_DIRS) assert.ok(ro.includes(path.join(root, d)), d);
      for (const p of [".VSCode", "x.code-workspace", "srv/.env"]) assert.ok(ro.includes(path.join(root, p)), p);
      assert.equal(ro.includes(outside), false, "a path outside the root is not the client's to name");
      assert.ok(
        params.some(([k, v]) => /_PIN_/.test(k) && v === path.join(root, "srv")),
        "the extra path's directory is pinned",
      );
      for (const [k] of params.filter(([k]) => /^WRITABLE_ROOT_0_RO_/.test(k)))
        assert.ok(profile.includes(`(require-not (subpath (param "${k}")))`), k);
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });

  it("a root inside a hidden dir is given back after the deny, still minus its protected paths", () => {
    const { params, profile } = seatbeltProfile(ctx(), fakeReal, ["/Users/me"]);
    assert.deepEqual(
      params.filter(([k]) => k.startsWith("HIDDEN_")),
      [
        ["HIDDEN_0", "/Users/me"],
        ["HIDDEN_1", "/private/var/folders/xy/T"],
      ],
    );
    const lines = profile.trim().split("\n");
    const deny = lines.indexOf('(deny file-read* file-write* (subpath (param "HIDDEN_0")) (subpath (param "HIDDEN_1")))');
    assert.ok(deny > 0);
    const write = lines
      .find((l) => l.startsWith("(allow file-write* "))
      ?.match(/^\(allow file-write\* (\(require-all .*?\)) \(require-all/)?.[1];
    assert.ok(write?.includes('(require-not (subpath (param "WRITABLE_ROOT_0_RO_0")))'), write);
    assert.deepEqual(lines.slice(deny + 1), [
      '(allow file-read* (subpath (param "WRITABLE_ROOT_0")))',
      `(allow file-write* ${write})`,
      '(allow file-read* file-write* (subpath (param "WRITABLE_ROOT_1")))',
    ]);
  });
});

describe("I-118: sandbox-exec profile of a fenced agent (macOS)", () => {
  const fence = (o: Partial<AgentFence> = {}): AgentFence => ({
    folders: ["/Users/me/a", "/Users/me/b"],
    stateDirs: ["/Users/me/.gemini"],
    stateFiles: ["/Users/me/.claude.json"],
    tmpDir: "/Users/me/Library/Application Support/Code/manifold/agent-tmp",
    hidden: ["/Users/me/.ssh", "/Users/me/Library/Application Support/Code"],
    readable: ["/Users/me/Library/Application Support/Code/manifold/agents/x"],
    ...o,
  });

  it("I-118: every folder writable minus its git and config protection, the state dirs, files and temp area writable; paths only as parameters", () => {
    const { params, profile } = seatbeltFenceProfile(fence(), (p) => p);
    const protectedOf = (root: string) => [".git/hooks", ".git/config", ...CONFIG_DIRS].map((p) => path.join(root, p));
    const valuesOf = (prefix: string) =>
      params.filter(([k]) => k.startsWith(prefix) && !k.slice(prefix.length).includes("_")).map(([, v]) => v);
    assert.deepEqual(valuesOf("WRITABLE_ROOT_"), [
      "/Users/me/a",
      "/Users/me/b",
      "/Users/me/.gemini",
      "/Users/me/.claude.json",
      "/Users/me/Library/Application Support/Code/manifold/agent-tmp",
    ]);
    for (const i of [0, 1]) {
      const root = i === 0 ? "/Users/me/a" : "/Users/me/b";
      assert.deepEqual(
        params.filter(([k]) => k.startsWith(`WRITABLE_ROOT_${i}_RO_`)).map(([, v]) => v),
        protectedOf(root),
      );
      assert.deepEqual(
        params.filter(([k]) => k.startsWith(`WRITABLE_ROOT_${i}_PIN_`)).map(([, v]) => v),
        [path.join(root, ".git")],
      );
    }
    for (const i of [2, 3, 4]) assert.equal(params.filter(([k]) => k.startsWith(`WRITABLE_ROOT_${i}_`)).length, 0);
    const write = profile.split("\n").find((l) => l.startsWith("(allow file-write* "));
    for (const [k] of params.filter(([k]) => /^WRITABLE_ROOT_[01]_RO_/.test(k)))
      assert.ok(write?.includes(`(require-not (subpath (param "${k}")))`), k);
    for (const i of [2, 3, 4]) assert.ok(write?.includes(`(require-all (subpath (param "WRITABLE_ROOT_${i}")))`), String(i));
    assert.equal(profile.includes("/Users/me"), false);
  });

  it("I-118: hidden entries denied read and write after the read-all; the temp area inside one and the readable dirs given back after the deny", () => {
    const { params, profile } = seatbeltFenceProfile(fence(), (p) => p);
    assert.deepEqual(
      params.filter(([k]) => /^(HIDDEN|READABLE)_/.test(k)),
      [
        ["HIDDEN_0", "/Users/me/.ssh"],
        ["HIDDEN_1", "/Users/me/Library/Application Support/Code"],
        ["READABLE_0", "/Users/me/Library/Application Support/Code/manifold/agents/x"],
      ],
    );
    const lines = profile.trim().split("\n");
    const deny = lines.indexOf('(deny file-read* file-write* (subpath (param "HIDDEN_0")) (subpath (param "HIDDEN_1")))');
    assert.ok(deny > lines.indexOf("(allow file-read*)") && deny > lines.findIndex((l) => l.startsWith("(allow file-write* ")));
    // Only the temp area lies inside a hidden dir: the folders and state stay as the write rule has them.
    assert.deepEqual(lines.slice(deny + 1, deny + 3), [
      '(allow file-read* file-write* (subpath (param "WRITABLE_ROOT_4")))',
      '(allow file-read* (subpath (param "READABLE_0")))',
    ]);
  });

  it("I-118: a folder inside a hidden dir is given back minus its protected paths, a hidden entry inside it hidden again; no hidden entry, no deny rule", () => {
    const inHidden = seatbeltFenceProfile(fence({ hidden: ["/Users/me"], readable: [], stateFiles: [] }), (p) => p)
      .profile.trim()
      .split("\n");
    const deny = inHidden.indexOf('(deny file-read* file-write* (subpath (param "HIDDEN_0")))');
    const given = inHidden.slice(deny + 1).filter((l) => !/network|system-socket/.test(l));
    assert.equal(given.length, 2 * 2 + 2, given.join("\n"));
    assert.equal(given[0], '(allow file-read* (subpath (param "WRITABLE_ROOT_0")))');
    assert.match(
      given[1] ?? "",
      /^\(allow file-write\* \(require-all \(subpath \(param "WRITABLE_ROOT_0"\)\) \(require-not \(subpath \(param "WRITABLE_ROOT_0_RO_0"\)\)\)/,
    );
    assert.equal(given[4], '(allow file-read* file-write* (subpath (param "WRITABLE_ROOT_2")))');
    // A hidden entry inside a folder given back is hidden again after it.
    const nested = seatbeltFenceProfile(fence({ hidden: ["/Users/me", "/Users/me/a/secrets"], readable: [] }), (p) => p)
      .profile.trim()
      .split("\n");
    const last = nested.findIndex((l) => l === '(allow file-read* file-write* (subpath (param "WRITABLE_ROOT_4")))');
    assert.ok(last > nested.indexOf('(deny file-read* file-write* (subpath (param "HIDDEN_0")) (subpath (param "HIDDEN_1")))'));
    assert.equal(nested[last + 1], '(deny file-read* file-write* (subpath (param "HIDDEN_1")))');
    const none = seatbeltFenceProfile(fence({ hidden: [], readable: [] }), (p) => p).profile;
    assert.equal(/\(deny file-read\*/.test(none), false, "an empty deny would deny everything");
  });

  it("I-118: the network for IP only: no bare network-outbound, unix sockets limited to the system resolver", () => {
    const lines = seatbeltFenceProfile(fence(), (p) => p)
      .profile.trim()
      .split("\n");
    assert.deepEqual(
      lines.filter((l) => /network|system-socket/.test(l)),
      [
        "(allow network-outbound (remote ip))",
        "(allow network-bind network-inbound (local ip))",
        '(allow network-outbound (remote unix-socket (path-literal "/private/var/run/mDNSResponder")))',
        "(allow system-socket)",
      ],
    );
    assert.equal(lines.includes("(allow network-outbound)"), false);
    assert.equal(lines.includes("(allow network-inbound)"), false);
  });

  it("I-118: argv: -p profile, -D parameters, then the agent's own argv (no shell)", () => {
    const f = fence({ folders: ["/Users/me/a"], hidden: [], readable: [], stateFiles: [] });
    const args = seatbeltFenceArgs({ command: "/opt/agent/bin/agent", args: ["--acp", "it's"], env: {} }, f, fakeReal);
    assert.equal(args[0], "-p");
    assert.equal(args[1], seatbeltFenceProfile(f, fakeReal).profile);
    const dash = args.indexOf("--");
    assert.ok(args.slice(2, dash).every((a) => a.startsWith("-D")));
    assert.deepEqual(args.slice(dash), ["--", "/opt/agent/bin/agent", "--acp", "it's"]);
  });
});
