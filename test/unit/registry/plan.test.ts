// Install plans (extension/registry/plan.ts): npx and uvx pinned to the registry's version, the
// platform's binary with an allowed URL and a command inside the archive, and the preference order.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  InstallError,
  npmInstallArgs,
  parseNpmSpec,
  parsePythonSpec,
  planBinary,
  planInstall,
  planNpx,
  planUvx,
  uvxCommand,
} from "../../../extension/registry/plan";
import { platformTarget } from "../../../extension/registry/platform";
import type { RegistryAgent } from "../../../extension/registry/schema";
import { compareVersions, isExactVersion } from "../../../extension/registry/version";

function agent(distribution: RegistryAgent["distribution"], version = "2.0.0"): RegistryAgent {
  return { id: "a", name: "A", version, description: "", distribution };
}

const bin = (archive: string, cmd = "./a", sha256?: string) => ({ "linux-x86_64": { archive, cmd, ...(sha256 ? { sha256 } : {}) } });

describe("install plans", () => {
  test("npm specs: scoped and unscoped, with and without a version", () => {
    assert.deepEqual(parseNpmSpec("@google/gemini-cli@0.27.3"), { name: "@google/gemini-cli", version: "0.27.3" });
    assert.deepEqual(parseNpmSpec("@scope/pkg"), { name: "@scope/pkg" });
    assert.deepEqual(parseNpmSpec("pkg@1.0.0"), { name: "pkg", version: "1.0.0" });
  });

  test("npx: the package's own exact version, else the registry's; npm installs exactly that into the prefix", () => {
    const p = planNpx(agent({ npx: { package: "@s/p@1.5.0", args: ["--acp"], env: { X: "1" } } }));
    assert.equal(p.spec, "@s/p@1.5.0");
    assert.deepEqual(p.args, ["--acp"]);
    assert.equal(planNpx(agent({ npx: { package: "@s/p" } })).spec, "@s/p@2.0.0");
    assert.deepEqual(npmInstallArgs(p, "/store/x"), [
      "install",
      "--prefix",
      "/store/x",
      "--no-audit",
      "--no-fund",
      "--no-update-notifier",
      "--save-exact",
      "--",
      "@s/p@1.5.0",
    ]);
  });

  test("a package pinned to a tag or a range is refused", () => {
    assert.throws(() => planNpx(agent({ npx: { package: "p@latest" } })), /not pinned/);
    assert.throws(() => planNpx(agent({ npx: { package: "p@^1.0.0" } })), InstallError);
    assert.throws(() => planUvx(agent({ uvx: { package: "pyagent@latest" } })), /not pinned/);
  });

  test("uvx: `uvx --from <package>==<version> <cmd> args`, pinned like npx", () => {
    assert.deepEqual(parsePythonSpec("kimi-cli[acp]==1.9.0"), { requirement: "kimi-cli[acp]", name: "kimi-cli", version: "1.9.0" });
    assert.equal(parsePythonSpec("not a name"), undefined);
    assert.deepEqual(uvxCommand(planUvx(agent({ uvx: { package: "pyagent", args: ["--mode", "acp"] } }))), {
      command: "uvx",
      args: ["--from", "pyagent==2.0.0", "pyagent", "--mode", "acp"],
    });
    assert.deepEqual(uvxCommand(planUvx(agent({ uvx: { package: "py-agent@1.1.0", cmd: "py-acp" } }))).args, [
      "--from",
      "py-agent==1.1.0",
      "py-acp",
    ]);
  });

  test("binary: this platform's archive, https (or loopback http) only, .tar.gz or .zip, the command inside the archive", () => {
    const p = planBinary(agent({ binary: bin("https://example.com/v2/a-linux.tar.gz", "./bin/a", "ab".repeat(32)) }), "linux-x86_64");
    assert.equal(p.format, "tar");
    assert.equal(p.cmd, "bin/a");
    assert.equal(p.sha256, "ab".repeat(32));
    assert.equal(planBinary(agent({ binary: bin("http://127.0.0.1:9/a.zip") }), "linux-x86_64").format, "zip");
    assert.throws(() => planBinary(agent({ binary: bin("http://example.com/a.tar.gz") }), "linux-x86_64"), /only https/);
    assert.throws(() => planBinary(agent({ binary: bin("ftp://example.com/a.tar.gz") }), "linux-x86_64"), /only https/);
    assert.throws(() => planBinary(agent({ binary: bin("https://example.com/a.exe") }), "linux-x86_64"), /neither/);
    assert.throws(() => planBinary(agent({ binary: bin("https://example.com/a.tgz", "../../bin/sh") }), "linux-x86_64"), /not inside/);
    assert.throws(() => planBinary(agent({ binary: bin("https://example.com/a.tgz", "/bin/sh") }), "linux-x86_64"), /not inside/);
    assert.throws(() => planBinary(agent({ binary: bin("https://example.com/a.tgz") }), "darwin-aarch64"), /no binary for this platform/);
  });

  test("preference: npx, then this platform's binary, then uvx; none for this platform is an error", () => {
    const all = { npx: { package: "p" }, uvx: { package: "p" }, binary: bin("https://x/a.tgz") };
    assert.equal(planInstall(agent(all), "linux-x86_64").kind, "npx");
    assert.equal(planInstall(agent({ uvx: all.uvx, binary: all.binary }), "linux-x86_64").kind, "binary");
    assert.equal(planInstall(agent({ uvx: all.uvx, binary: all.binary }), "darwin-x86_64").kind, "uvx");
    assert.throws(() => planInstall(agent({ binary: all.binary }), "windows-x86_64"), /no distribution for this platform/);
  });

  test("platform targets and version order", () => {
    assert.equal(platformTarget("linux", "x64"), "linux-x86_64");
    assert.equal(platformTarget("darwin", "arm64"), "darwin-aarch64");
    assert.equal(platformTarget("win32", "x64"), "windows-x86_64");
    assert.equal(platformTarget("linux", "ia32"), undefined);
    assert.ok(compareVersions("1.10.0", "1.9.9") > 0);
    assert.ok(compareVersions("1.0.0-beta", "1.0.0") < 0);
    assert.equal(compareVersions("1.0.0", "1.0.0"), 0);
    assert.ok(isExactVersion("0.27.3") && isExactVersion("1.0.0-rc.1") && !isExactVersion("latest") && !isExactVersion("^1.0.0"));
  });
});
