// The macOS backend cannot run on the Linux CI: its generated profile and argv are checked here.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, it } from "node:test";
import { CONFIG_DIRS } from "../../../sandbox/configPaths";
import { seatbeltArgs, seatbeltProfile } from "../../../sandbox/seatbelt";
import type { SandboxContext } from "../../../sandbox/types";

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
});
