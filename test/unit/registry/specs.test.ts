// I-117: a registry entry's npx or uvx `package` is a registry package name at an exact version.
// Everything else npm or uv would read as a place to fetch from (and npm then runs that package's
// install scripts on the host) or as a moving target: the plan refuses it, naming the entry and what
// is wrong, so the installer never starts a tool for it (test/integration/registry/install.test.ts).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { InstallError, installable, npmInstallArgs, planInstall, planNpx, planUvx, uvxCommand } from "../../../extension/registry/plan";
import type { RegistryAgent } from "../../../extension/registry/schema";
import { checkNpmSpec, checkPythonSpec, npmNameProblem } from "../../../extension/registry/specs";

function agent(distribution: RegistryAgent["distribution"], version = "2.0.0"): RegistryAgent {
  return { id: "evil", name: "Evil Agent", version, description: "", distribution };
}

/** Each bad kind of npx `package`, and the words its refusal must contain. */
export const BAD_NPM: ReadonlyArray<readonly [string, RegExp]> = [
  ["https://evil.example/pkg.tgz", /is a URL/],
  ["http://127.0.0.1:9/x.tgz", /is a URL/],
  ["git+https://github.com/evil/pkg.git", /git repository/],
  ["git+ssh://git@github.com/evil/pkg.git", /git repository/],
  ["git://github.com/evil/pkg.git", /git repository/],
  ["github:evil/pkg", /git repository/],
  ["git@github.com:evil/pkg.git", /git repository/],
  ["evil/pkg", /GitHub's user\/repo shorthand/],
  ["evil/pkg#main", /git repository/],
  ["file:../evil", /file path/],
  ["../evil", /file path/],
  ["./evil-1.0.0.tgz", /file path/],
  ["/tmp/evil", /file path/],
  ["~/evil", /file path/],
  ["evil-1.0.0.tgz", /tarball/],
  ["npm:evil@1.0.0", /alias/],
  ["ok-name@npm:evil@1.0.0", /alias/],
  ["pkg@latest", /not pinned to an exact version: "latest" is a tag/],
  ["pkg@next", /is a tag/],
  ["pkg@^1.0.0", /not pinned to an exact version: "\^1\.0\.0" is a range/],
  ["pkg@~1.2.0", /range/],
  ["pkg@>=1.0.0", /range/],
  ["pkg@1.x", /range/],
  ["pkg@1.0.0 || 2.0.0", /white space/],
  ["pkg@*", /range/],
  ["pkg@v1.0.0", /range or not a semantic version/],
  ["pkg@01.0.0", /range or not a semantic version/],
  ["pkg@", /names no version/],
  ["Pkg@1.0.0", /capital letters/],
  [".hidden@1.0.0", /file path/],
  ["_under@1.0.0", /starting with/],
  ["@scope/.x@1.0.0", /starting with/],
  ["na me@1.0.0", /white space/],
  ["pkg!@1.0.0", /not an npm package name/],
  ["node_modules", /reserved/],
  [`${"a".repeat(215)}@1.0.0`, /longer than 214/],
];

export const BAD_PYTHON: ReadonlyArray<readonly [string, RegExp]> = [
  ["https://evil.example/evil-1.0.0-py3-none-any.whl", /URL/],
  ["evil @ https://evil.example/evil.whl", /white space/],
  ["evil@https://evil.example/evil.whl", /URL or a direct reference/],
  ["git+https://github.com/evil/pkg", /URL/],
  ["./evil", /file path/],
  ["/tmp/evil", /file path/],
  ["evil>=1.0", /not `<name>==<exact version>`|not a Python package name/],
  ["evil==1.*", /not pinned to an exact version/],
  ["evil===1.0", /not pinned/],
  ["evil@latest", /not pinned/],
  ["-evil==1.0.0", /not a Python package name/],
];

describe("I-117: registry package specs are names", () => {
  test("I-117: npm names that npm's rules allow pass, with or without an exact version", () => {
    for (const [spec, want] of [
      ["@google/gemini-cli@0.27.3", { name: "@google/gemini-cli", version: "0.27.3" }],
      ["@zed-industries/claude-code-acp@0.16.0", { name: "@zed-industries/claude-code-acp", version: "0.16.0" }],
      ["pkg", { name: "pkg" }],
      ["my.pkg_x-1@1.0.0-rc.1+build.5", { name: "my.pkg_x-1", version: "1.0.0-rc.1+build.5" }],
    ] as const)
      assert.deepEqual(checkNpmSpec(spec), { ok: true, value: want }, spec);
    assert.equal(npmNameProblem("a".repeat(214)), undefined);
  });

  test("I-117: each bad kind of npx package is refused by the plan, naming the entry, the package and what is wrong", () => {
    for (const [spec, why] of BAD_NPM) {
      const c = checkNpmSpec(spec);
      assert.equal(c.ok, false, `${spec} must be refused`);
      assert.throws(
        () => planNpx(agent({ npx: { package: spec } })),
        (err: Error) => {
          assert.ok(err instanceof InstallError, spec);
          assert.match(err.message, why, spec);
          assert.ok(err.message.startsWith(`Evil Agent (evil): the registry's npx package "${spec}" `), err.message);
          return true;
        },
      );
    }
  });

  test("I-117: a bad npx package is refused even when the entry also has a binary (no quiet fallback), and the picker lists it as not installable", () => {
    const a = agent({
      npx: { package: "https://evil.example/x.tgz" },
      binary: { "linux-x86_64": { archive: "https://e.example/a.tgz", cmd: "a" } },
    });
    assert.throws(() => planInstall(a, "linux-x86_64"), /is a URL/);
    assert.equal(installable(a, "linux-x86_64"), false);
  });

  test("I-117: the registry's own version is a pin only when it is exact", () => {
    assert.throws(() => planNpx(agent({ npx: { package: "pkg" } }, "1.2.3.4")), /not pinned to an exact version/);
    assert.equal(planNpx(agent({ npx: { package: "pkg" } }, "1.2.3")).spec, "pkg@1.2.3");
  });

  test("I-117: npm gets the spec as one `name@version` argument after `--`, and no registry of the entry's", () => {
    const plan = planNpx(agent({ npx: { package: "@s/p@1.5.0", env: { npm_config_registry: "https://evil.example/" } } }));
    const args = npmInstallArgs(plan, "/store/x");
    assert.deepEqual(args.slice(-2), ["--", "@s/p@1.5.0"]);
    assert.ok(!args.some((a) => a.startsWith("--registry") || a.includes("evil")), args.join(" "));
  });

  test("I-117: uvx packages: PEP 508 names (with extras) at one exact version pass; URLs, paths, ranges and markers are refused", () => {
    assert.deepEqual(checkPythonSpec("kimi-cli[acp]==1.9.0"), {
      ok: true,
      value: { requirement: "kimi-cli[acp]", name: "kimi-cli", version: "1.9.0" },
    });
    assert.deepEqual(checkPythonSpec("py_agent"), { ok: true, value: { requirement: "py_agent", name: "py_agent" } });
    for (const [spec, why] of BAD_PYTHON) {
      assert.equal(checkPythonSpec(spec).ok, false, spec);
      assert.throws(
        () => planUvx(agent({ uvx: { package: spec } })),
        (err: Error) => {
          assert.match(err.message, why, spec);
          assert.ok(err.message.startsWith(`Evil Agent (evil): the registry's uvx package "${spec}" `), err.message);
          return true;
        },
      );
    }
    assert.throws(() => planUvx(agent({ uvx: { package: "py-agent==1.0.0", cmd: "/bin/sh" } })), /not a bare executable name/);
    assert.deepEqual(uvxCommand(planUvx(agent({ uvx: { package: "py-agent@1.1.0" } }))).args, ["--from", "py-agent==1.1.0", "py-agent"]);
  });
});
