// Installing from a local ACP registry fixture on 127.0.0.1: binary entries (.tar.gz
// with its sha256 verified, .zip; unpacked and made executable), an npx entry (npm pointed at a local
// npm registry) and a uvx entry (a stand-in uvx on PATH), each then spawned through the extension's
// own agent-spec path until `initialize` completes; a checksum mismatch, an escaping archive, a
// missing uvx and a cancelled npm run leave nothing in storage.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { AcpClient } from "../../../extension/agent/acpClient";
import { AgentProcess } from "../../../extension/agent/agentProcess";
import { resolveAgentSpec } from "../../../extension/agent/agentSpec";
import { installAgent, updateAgent, type InstallOptions } from "../../../extension/registry/installer";
import { platformTarget } from "../../../extension/registry/platform";
import type { RegistryAgent } from "../../../extension/registry/schema";
import { registryAgentSetting } from "../../../extension/registry/settings";
import { RegistrySource } from "../../../extension/registry/source";
import { AgentStore, launchOf, type InstalledAgent } from "../../../extension/registry/store";
import { cleanEnv } from "../../../sandbox/scrubEnv.mjs";
import { buildPreinstallTarball, fakeUvx, NPM_PACKAGE, recordingNpm, sha256, startFixture, type Fixture } from "./fixture";

/** npx packages npm would fetch from elsewhere or resolve to a moving version (I-117). */
const BAD_NPX = [
  "git+https://github.com/evil/pkg.git",
  "github:evil/pkg",
  "evil/pkg",
  "file:../evil",
  "../evil",
  "./evil-1.0.0.tgz",
  "npm:evil@1.0.0",
  `${NPM_PACKAGE}@latest`,
  `${NPM_PACKAGE}@^1.0.0`,
];
const BAD_UVX = ["https://evil.example/evil.whl", "evil@https://evil.example/e.whl", "./evil", "evil>=1.0"];

const platform = platformTarget(process.platform, process.arch);
const quiet = { info: () => {}, warn: () => {}, error: () => {}, trace: () => {} };

describe("registry install against a local fixture", { skip: process.platform === "win32" || !platform }, () => {
  let work: string;
  let fx: Fixture;
  let store: AgentStore;
  let agents: Map<string, RegistryAgent>;
  const preinstallMarker = (): string => join(work, "preinstall-ran");

  before(async () => {
    work = mkdtempSync(join(tmpdir(), "manifold-registry-"));
    fx = await startFixture(work, (base, { binary }) => {
      const target = (archive: string, sum: string) => ({
        [platform!]: { archive: `${base}/${archive}`, cmd: "./bin/fixture-agent", args: ["--acp"], sha256: sum },
      });
      const entry = (id: string, distribution: unknown) => ({
        id,
        name: `Fixture ${id}`,
        version: "1.0.0",
        description: "a test agent",
        distribution,
      });
      return {
        version: "1.0.0",
        agents: [
          entry("fixture-bin", { binary: target("fixture-agent.tar.gz", sha256(binary)) }),
          entry("fixture-badsum", { binary: target("fixture-agent.tar.gz", "0".repeat(64)) }),
          entry("fixture-evil", { binary: { [platform!]: { archive: `${base}/evil.tar.gz`, cmd: "./escaped" } } }),
          entry("fixture-npx", { npx: { package: `${NPM_PACKAGE}@1.0.0`, args: ["--acp", "npx"] } }),
          entry("fixture-hang", { npx: { package: "@manifold-test/hang@1.0.0" } }),
          entry("fixture-zip", {
            binary: { [platform!]: { archive: `${base}/fixture-agent.zip`, cmd: "./bin/fixture-agent", args: ["--acp", "zip"] } },
          }),
          entry("fixture-py", { uvx: { package: "fixture-py", args: ["--acp"] } }),
          // I-117: every kind of package spec that is not a name at an exact version.
          entry("evil-url", { npx: { package: `${base}/evil-preinstall.tgz` } }),
          ...BAD_NPX.map((pkg, i) => entry(`evil-npx-${i}`, { npx: { package: pkg } })),
          ...BAD_UVX.map((pkg, i) => entry(`evil-uvx-${i}`, { uvx: { package: pkg } })),
        ],
      };
    });
    fx.routes.set("/@manifold-test/hang", "hang");
    fx.routes.set("/evil-preinstall.tgz", { body: buildPreinstallTarball(work, preinstallMarker()) });
    store = new AgentStore(join(work, "storage", "registry-agents"));
    const loaded = await new RegistrySource({
      url: `${fx.base}/registry.json`,
      cacheFile: join(work, "storage", "registry-cache.json"),
    }).load();
    assert.equal(loaded.origin, "network");
    assert.deepEqual(loaded.skipped, []);
    agents = new Map(loaded.registry.agents.map((a) => [a.id, a]));
  });

  after(async () => {
    await fx?.close();
    rmSync(work, { recursive: true, force: true });
  });

  function opts(extra: Partial<InstallOptions> = {}): InstallOptions {
    return {
      store,
      platform,
      baseEnv: process.env,
      // npm talks to the fixture only, with its own cache and no user config.
      extraEnv: {
        npm_config_registry: `${fx.base}/`,
        npm_config_cache: join(work, "npm-cache"),
        npm_config_userconfig: join(work, "no-npmrc"),
      },
      download: { timeoutMs: 30_000, maxBytes: 10 * 1024 * 1024 },
      ...extra,
    };
  }

  function agent(id: string): RegistryAgent {
    const a = agents.get(id);
    assert.ok(a, id);
    return a;
  }

  /** Nothing of `id` installed and no working folder left. */
  function assertNothingLeft(id: string): void {
    assert.equal(existsSync(join(store.root, id)), false, `${id} left a folder`);
    const staging = join(store.root, ".staging");
    assert.deepEqual(existsSync(staging) ? readdirSync(staging) : [], []);
  }

  /** Spawns the install as the extension would (`manifold.agent` = registry:<id>) and completes `initialize`. */
  async function initialize(installed: InstalledAgent, baseEnv: NodeJS.ProcessEnv = cleanEnv(process.env)): Promise<string | undefined> {
    const setting = registryAgentSetting(installed.manifest.id);
    const spec = resolveAgentSpec({
      settings: { agent: setting, agents: [] },
      registryAgent: { setting, ...launchOf(installed) },
      secrets: {},
      baseEnv,
      execPath: process.execPath,
      extensionPath: work,
      dataDir: work,
      cwd: work,
    });
    assert.equal(spec.builtin, false);
    const proc = new AgentProcess(spec, quiet, false);
    const client = new AcpClient(proc.stream);
    try {
      const res = await client.initialize();
      assert.equal(res.agentInfo?.name, "fixture-agent");
      return res.agentInfo?.title ?? undefined;
    } finally {
      client.close();
      await proc.stop();
    }
  }

  test("binary entry: downloaded, sha256 verified, unpacked, made executable, spawned through the agent spec; initialize completes", async () => {
    const progress: string[] = [];
    const installed = await installAgent(agent("fixture-bin"), opts({ onProgress: (m) => progress.push(m) }));
    assert.deepEqual(progress, [`downloading ${fx.base}/fixture-agent.tar.gz`, "unpacking"]);
    assert.equal(installed.dir, join(store.root, "fixture-bin", "1.0.0"));
    const cmd = launchOf(installed).command;
    assert.equal(cmd, join(installed.dir, "files", "bin", "fixture-agent"));
    assert.ok(statSync(cmd).mode & 0o100, "the command is executable");
    assert.equal(existsSync(join(installed.dir, "download.tar")), false, "the archive is not kept");
    assert.equal(await initialize(installed), "--acp");
    assert.equal((await store.installed("fixture-bin"))?.manifest.version, "1.0.0");
  });

  test("checksum mismatch: a clear error naming the expected and the actual sha256, and nothing left in storage", async () => {
    const bad = agent("fixture-badsum");
    const actual = sha256(Buffer.from((fx.routes.get("/fixture-agent.tar.gz") as { body: Buffer }).body));
    await assert.rejects(installAgent(bad, opts()), (err: Error) => {
      assert.match(err.message, /checksum mismatch/);
      assert.ok(err.message.includes(`expected sha256 ${"0".repeat(64)}`), err.message);
      assert.ok(err.message.includes(`got ${actual}`), err.message);
      return true;
    });
    assertNothingLeft("fixture-badsum");
  });

  test("an archive entry escaping the install folder is refused before anything is unpacked", async () => {
    await assert.rejects(installAgent(agent("fixture-evil"), opts()), /entry outside its folder \(\.\.\/escaped\)/);
    assertNothingLeft("fixture-evil");
    assert.equal(existsSync(join(store.root, ".staging", "escaped")), false);
  });

  test("npx entry: npm installs the pinned package from the local npm registry; the bin is spawned; initialize completes", async () => {
    const installed = await installAgent(agent("fixture-npx"), opts());
    assert.ok(fx.requests.includes(`/${NPM_PACKAGE}`), "npm asked the fixture registry");
    assert.equal(launchOf(installed).command, join(installed.dir, "node_modules", ".bin", "fixture-agent"));
    assert.equal(await initialize(installed), "--acp npx");
  });

  test("cancelling an install kills the npm run (its request is dropped) and leaves nothing", async () => {
    const abort = new AbortController();
    let dropped: Promise<void> | undefined;
    fx.onHang((path, closed) => {
      if (path !== "/@manifold-test/hang") return;
      dropped = closed;
      abort.abort();
    });
    await assert.rejects(installAgent(agent("fixture-hang"), opts({ signal: abort.signal })), /cancelled/);
    assert.ok(dropped, "npm reached the registry before the cancel");
    await dropped;
    assertNothingLeft("fixture-hang");
  });

  test("a .zip binary is unpacked with unzip and made executable", async () => {
    const installed = await installAgent(agent("fixture-zip"), opts());
    assert.ok(statSync(launchOf(installed).command).mode & 0o100, "the command is executable");
    assert.equal(await initialize(installed), "--acp zip");
  });

  test("uvx entry: with no uvx on PATH a clear message and nothing installed; with uvx, `uvx --from <package>==<version> <cmd>` is what runs", async () => {
    await assert.rejects(
      installAgent(agent("fixture-py"), opts({ baseEnv: { ...process.env, PATH: join(work, "nowhere") } })),
      /uvx \(part of uv\) is not on PATH/,
    );
    assertNothingLeft("fixture-py");
    const env = { ...cleanEnv(process.env), PATH: `${fakeUvx(work)}:${process.env.PATH ?? ""}` };
    const installed = await installAgent(agent("fixture-py"), opts({ baseEnv: env }));
    assert.equal(await initialize(installed, env), "--from fixture-py==1.0.0 fixture-py --acp");
  });

  test("I-117: an npx package that is a URL is refused before npm starts: the tarball's preinstall never runs", async () => {
    await assert.rejects(
      installAgent(agent("evil-url"), opts()),
      /the registry's npx package "http:\/\/127\.0\.0\.1:\d+\/evil-preinstall\.tgz" is a URL/,
    );
    assert.equal(existsSync(preinstallMarker()), false, "the URL's preinstall ran on the host");
    assert.ok(!fx.requests.includes("/evil-preinstall.tgz"), "npm fetched the URL");
    assertNothingLeft("evil-url");
  });

  test("I-117: every bad kind of npx or uvx package is refused with its reason before any tool starts (a recording npm on PATH is never run)", async () => {
    const record = join(work, "npm-invocations");
    const env = { ...process.env, PATH: `${recordingNpm(work, record)}:${fakeUvx(work)}:${process.env.PATH ?? ""}` };
    // The oracle sees npm when it runs: a good entry reaches the recording npm (which fails).
    await assert.rejects(installAgent(agent("fixture-npx"), opts({ baseEnv: env })), /npm install failed/);
    assert.match(readFileSync(record, "utf8"), new RegExp(`-- ${NPM_PACKAGE}@1\\.0\\.0`));
    rmSync(record);
    const ids = [...BAD_NPX.map((_, i) => `evil-npx-${i}`), ...BAD_UVX.map((_, i) => `evil-uvx-${i}`)];
    for (const id of ids) {
      await assert.rejects(installAgent(agent(id), opts({ baseEnv: env })), (err: Error) => {
        assert.match(
          err.message,
          new RegExp(`^Fixture ${id} \\(${id}\\): the registry's (npx|uvx) package ".*" (is|has|contains)`),
          err.message,
        );
        return true;
      });
      assertNothingLeft(id);
    }
    assert.equal(
      existsSync(record),
      false,
      `npm was started for a refused entry: ${existsSync(record) ? readFileSync(record, "utf8") : ""}`,
    );
  });

  test("update installs the newer version and removes the old; remove leaves nothing", async () => {
    const v1 = await installAgent(agent("fixture-bin"), opts());
    const v2 = await updateAgent({ ...agent("fixture-bin"), version: "1.1.0" }, opts());
    assert.deepEqual(
      (await store.versions("fixture-bin")).map((v) => v.manifest.version),
      ["1.1.0"],
    );
    assert.equal(existsSync(v1.dir), false);
    assert.equal(await initialize(v2), "--acp");
    await store.remove("fixture-bin");
    assertNothingLeft("fixture-bin");
  });

  test("the registry list: network, then the cache when the network fails, and the bundled snapshot with no cache", async () => {
    const cacheFile = join(work, "storage", "cache-2.json");
    const url = `${fx.base}/registry.json`;
    assert.equal((await new RegistrySource({ url, cacheFile }).load()).origin, "network");
    fx.routes.delete("/registry.json");
    const cached = await new RegistrySource({ url, cacheFile, maxAgeMs: 0 }).load();
    assert.equal(cached.origin, "cache");
    assert.equal(cached.registry.agents.length, agents.size);
    const offline = await new RegistrySource({ url, cacheFile: join(work, "storage", "none.json") }).load();
    assert.equal(offline.origin, "snapshot");
    assert.match(offline.networkError ?? "", /404/);
    assert.ok(offline.registry.agents.length > 0);
  });
});
