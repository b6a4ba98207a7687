// Installing, updating and removing registry agents. Every install is built in a working folder and
// renamed into place (extension/registry/store.ts): a cancelled or failed one leaves nothing behind.
// npx: `npm install --prefix` of the exact version; binary: download, sha256 check where the entry
// gives one, unpack after every entry name is checked, chmod +x. Install tools run in the scrubbed
// environment of sandbox/scrubEnv.mjs, without secret-looking variables.
import { access, chmod, constants, mkdir, readFile, rm, stat } from "node:fs/promises";
import * as path from "node:path";
import { cleanEnv } from "../../sandbox/scrubEnv.mjs";
import { isSecretEnvName } from "../../sandbox";
import { unpack } from "./archive";
import { downloadFile } from "./http";
import {
  InstallError,
  npmInstallArgs,
  planInstall,
  uvxCommand,
  type BinaryPlan,
  type InstallPlan,
  type NpxPlan,
  type UvxPlan,
} from "./plan";
import { runTool } from "./run";
import type { Platform, RegistryAgent } from "./schema";
import type { AgentStore, InstalledAgent, InstallManifest } from "./store";
import { ignoreError } from "../../base/errors";

export interface InstallOptions {
  store: AgentStore;
  platform: Platform | undefined;
  /** The host's environment: scrubbed before any tool sees it. */
  baseEnv: NodeJS.ProcessEnv;
  /** Added after scrubbing (e.g. `npm_config_registry` for a mirror or a test). */
  extraEnv?: Record<string, string>;
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
  onOutput?: (chunk: string) => void;
  /** Limits of a binary download (default: 10 minutes, 1 GiB). */
  download?: { timeoutMs: number; maxBytes: number };
}

/**
 * What install tools run with: no variables a calling npm, Node or editor set for its own children
 * (sandbox/scrubEnv.mjs), and no key, token or password (sandbox/env.ts): a package's install
 * scripts are third-party code.
 */
export function installEnv(base: NodeJS.ProcessEnv, extra: Record<string, string> = {}): Record<string, string> {
  const env = cleanEnv(base);
  for (const k of Object.keys(env)) if (isSecretEnvName(k)) delete env[k];
  return { ...env, ...extra };
}

/** Whether `name` is an executable file in one of PATH's folders. */
export async function onPath(name: string, pathVar: string | undefined): Promise<boolean> {
  for (const dir of (pathVar ?? "").split(path.delimiter).filter(Boolean)) {
    try {
      await access(path.join(dir, name), constants.X_OK);
      return true;
    } catch {
      /* next */
    }
  }
  return false;
}

function manifest(agent: RegistryAgent, plan: InstallPlan, command: string, relative: boolean, args: string[]): InstallManifest {
  return {
    id: agent.id,
    name: agent.name,
    version: agent.version,
    kind: plan.kind,
    command,
    relative,
    args,
    env: plan.env,
    installedAt: new Date().toISOString(),
  };
}

/** The bin npm linked for the package: its only one, or the one named like the package. */
async function npmBin(prefix: string, plan: NpxPlan): Promise<string> {
  const pkgFile = path.join(prefix, "node_modules", ...plan.packageName.split("/"), "package.json");
  const pkg: unknown = JSON.parse(await readFile(pkgFile, "utf8"));
  const bin = typeof pkg === "object" && pkg !== null ? (pkg as { bin?: unknown }).bin : undefined;
  const base = plan.packageName.split("/").pop() ?? plan.packageName;
  if (typeof bin === "string") return base;
  if (typeof bin === "object" && bin !== null) {
    const names = Object.keys(bin);
    if (names.length === 1) return names[0]!;
    if (names.includes(base)) return base;
    throw new InstallError(`${plan.spec} has several commands (${names.join(", ")}) and none is named ${base}`);
  }
  throw new InstallError(`${plan.spec} has no command to run (no "bin" in its package.json)`);
}

async function installNpx(
  agent: RegistryAgent,
  plan: NpxPlan,
  staged: string,
  opts: InstallOptions,
  env: Record<string, string>,
): Promise<InstallManifest> {
  opts.onProgress?.(`npm install ${plan.spec}`);
  await runTool("npm", npmInstallArgs(plan, staged), { cwd: staged, env, ...pick(opts) });
  const bin = await npmBin(staged, plan);
  return manifest(agent, plan, path.join("node_modules", ".bin", bin), true, plan.args);
}

async function installUvx(agent: RegistryAgent, plan: UvxPlan, env: Record<string, string>): Promise<InstallManifest> {
  if (!(await onPath("uvx", env.PATH))) {
    throw new InstallError(
      `${agent.name} is a Python package run with uvx, and uvx (part of uv) is not on PATH: install uv, then try again`,
    );
  }
  const { command, args } = uvxCommand(plan);
  return manifest(agent, plan, command, false, args);
}

async function installBinary(
  agent: RegistryAgent,
  plan: BinaryPlan,
  staged: string,
  opts: InstallOptions,
  env: Record<string, string>,
): Promise<InstallManifest> {
  const archive = path.join(staged, plan.format === "zip" ? "download.zip" : "download.tar");
  opts.onProgress?.(`downloading ${plan.url}`);
  let shownMiB = 0;
  const got = await downloadFile(plan.url, archive, {
    ...(opts.download ?? { timeoutMs: 600_000, maxBytes: 1024 ** 3 }),
    ...(opts.signal ? { signal: opts.signal } : {}),
    // Once per MiB: a notification, not a log line per chunk.
    onBytes: (received, total) => {
      const mib = Math.floor(received / 1024 ** 2);
      if (mib === shownMiB) return;
      shownMiB = mib;
      opts.onProgress?.(`downloading: ${mib} MiB${total ? ` of ${Math.ceil(total / 1024 ** 2)} MiB` : ""}`);
    },
  });
  if (plan.sha256 !== undefined && got.sha256 !== plan.sha256) {
    await rm(archive, { force: true });
    throw new InstallError(
      `checksum mismatch for ${plan.url}: expected sha256 ${plan.sha256}, got ${got.sha256}. The download was deleted.`,
    );
  }
  opts.onProgress?.("unpacking");
  const files = path.join(staged, "files");
  await mkdir(files);
  await unpack(plan.format, archive, files, { env, ...pick(opts) });
  await rm(archive, { force: true });
  const cmd = path.join(files, plan.cmd);
  const s = await stat(cmd).catch(ignoreError("a missing command is refused just below"));
  if (!s?.isFile()) throw new InstallError(`${agent.name}: the archive has no file ${plan.cmd}`);
  await chmod(cmd, s.mode | 0o755);
  return manifest(agent, plan, path.join("files", plan.cmd), true, plan.args);
}

function pick(opts: InstallOptions): { signal?: AbortSignal; onOutput?: (chunk: string) => void } {
  return { ...(opts.signal ? { signal: opts.signal } : {}), ...(opts.onOutput ? { onOutput: opts.onOutput } : {}) };
}

/** Installs the registry's version of `agent` (replacing the same version if present). */
export async function installAgent(agent: RegistryAgent, opts: InstallOptions): Promise<InstalledAgent> {
  const plan = planInstall(agent, opts.platform);
  const env = installEnv(opts.baseEnv, opts.extraEnv);
  const staged = await opts.store.stage();
  try {
    const m =
      plan.kind === "npx"
        ? await installNpx(agent, plan, staged, opts, env)
        : plan.kind === "uvx"
          ? await installUvx(agent, plan, env)
          : await installBinary(agent, plan, staged, opts, env);
    if (opts.signal?.aborted) throw new InstallError("cancelled");
    return await opts.store.commit(staged, m);
  } catch (err) {
    await opts.store.discard(staged);
    throw err;
  }
}

/** Installs the registry's version, then removes every other installed version. */
export async function updateAgent(agent: RegistryAgent, opts: InstallOptions): Promise<InstalledAgent> {
  const installed = await installAgent(agent, opts);
  for (const old of await opts.store.versions(agent.id)) {
    if (old.manifest.version !== agent.version) await opts.store.remove(agent.id, old.manifest.version);
  }
  return installed;
}
