// The macOS backend cannot run on the Linux CI: its generated profile and argv are checked here.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
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
      ["WRITABLE_ROOT_1", "/private/var/folders/xy/T/manifold-s"],
    ]);
    const lines = profile.trim().split("\n");
    assert.equal(lines[0], "(version 1)");
    assert.equal(lines[1], "(deny default)");
    assert.ok(lines.includes("(allow file-read*)"));
    assert.equal(
      lines.find((l) => l.startsWith("(allow file-write* ")),
      '(allow file-write* (require-all (subpath (param "WRITABLE_ROOT_0")) (require-not (subpath (param "WRITABLE_ROOT_0_RO_0"))) (require-not (subpath (param "WRITABLE_ROOT_0_RO_1")))) (require-all (subpath (param "WRITABLE_ROOT_1"))))',
    );
    assert.equal(/network/.test(profile), false);
    // Paths are parameters, never spliced into the profile text.
    assert.equal(profile.includes("/Users/me/proj"), false);
  });

  it("read-only: only the session temp area is writable", () => {
    const { params, profile } = seatbeltProfile(ctx({ mode: "read-only" }), fakeReal);
    assert.deepEqual(params, [["WRITABLE_ROOT_0", "/private/var/folders/xy/T/manifold-s"]]);
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
      "-DWRITABLE_ROOT_1=/private/var/folders/xy/T/manifold-s",
      "--",
      "/bin/bash",
      "-c",
      "ls -la",
    ]);
  });
});
