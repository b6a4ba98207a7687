// What installing a registry agent means, per distribution, as data: which package at which pinned
// version, which archive for this platform, which command runs it afterwards. Pure: the installer
// carries the plan out, and tests check it without running anything.
import * as path from "node:path";
import { checkDownloadUrl } from "./http";
import type { Platform, RegistryAgent } from "./schema";
import { checkNpmSpec, checkPythonSpec, exactPin, pythonCmdProblem, type NpmSpec, type PythonSpec } from "./specs";

export type ArchiveFormat = "tar" | "zip";

interface PlanBase {
  id: string;
  /** The registry's version of the agent: the install folder's name. */
  version: string;
  args: string[];
  env: Record<string, string>;
}

export interface NpxPlan extends PlanBase {
  kind: "npx";
  packageName: string;
  /** `<name>@<exact version>`: what npm installs. */
  spec: string;
}

export interface UvxPlan extends PlanBase {
  kind: "uvx";
  /** `<name>==<exact version>` for `uvx --from`. */
  from: string;
  cmd: string;
}

export interface BinaryPlan extends PlanBase {
  kind: "binary";
  platform: Platform;
  url: string;
  sha256?: string;
  format: ArchiveFormat;
  /** Relative to the unpacked archive's root. */
  cmd: string;
}

export type InstallPlan = NpxPlan | UvxPlan | BinaryPlan;

export class InstallError extends Error {
  override name = "InstallError";
}

/** `@scope/name@1.2.3` → name and version (absent when the spec has none); throws when it is not a name (I-117). */
export function parseNpmSpec(spec: string): NpmSpec {
  const c = checkNpmSpec(spec);
  if (!c.ok) throw new InstallError(`the npm package "${spec}" ${c.problem}`);
  return c.value;
}

/** `name==1.2.3`, `name@1.2.3`, `name[extra]==1.2.3` or `name` → name (extras kept), bare name, version. */
export function parsePythonSpec(spec: string): PythonSpec | undefined {
  const c = checkPythonSpec(spec);
  return c.ok ? c.value : undefined;
}

/** The refusal of an entry's package (I-117): which entry, which package, what is wrong. */
function refused(agent: RegistryAgent, kind: "npx" | "uvx", spec: string, problem: string): InstallError {
  return new InstallError(
    `${agent.name} (${agent.id}): the registry's ${kind} package "${spec}" ${problem}. ` +
      `Only <package name>@<exact version> from your own ${kind === "npx" ? "npm" : "Python package"} registry is installed.`,
  );
}

/** The version a package distribution is pinned to: its own exact version, else the registry's (when exact). */
function pinned(agent: RegistryAgent, kind: "npx" | "uvx", version: string | undefined, spec: string): string {
  if (version !== undefined) return version;
  if (!exactPin(kind, agent.version))
    throw refused(agent, kind, spec, `is not pinned to an exact version: the registry's version "${agent.version}" is not one`);
  return agent.version;
}

export function archiveFormat(url: string): ArchiveFormat | undefined {
  const p = new URL(url).pathname.toLowerCase();
  if (/\.(tar\.gz|tgz|tar\.xz|txz|tar\.bz2|tar)$/.test(p)) return "tar";
  if (p.endsWith(".zip")) return "zip";
  return undefined;
}

/** A command inside the unpacked archive: relative and staying inside it. */
function checkRelativeCmd(agent: RegistryAgent, cmd: string): string {
  const norm = path.posix.normalize(cmd.replace(/\\/g, "/"));
  if (path.posix.isAbsolute(norm) || norm === ".." || norm.startsWith("../")) {
    throw new InstallError(`${agent.name}: the registry's command "${cmd}" is not inside the archive`);
  }
  return norm;
}

export function planNpx(agent: RegistryAgent): NpxPlan {
  const d = agent.distribution.npx;
  if (!d) throw new InstallError(`${agent.name} has no npx distribution`);
  const c = checkNpmSpec(d.package);
  if (!c.ok) throw refused(agent, "npx", d.package, c.problem);
  const { name, version } = c.value;
  const v = pinned(agent, "npx", version, d.package);
  return {
    kind: "npx",
    id: agent.id,
    version: agent.version,
    packageName: name,
    spec: `${name}@${v}`,
    args: d.args ?? [],
    env: d.env ?? {},
  };
}

export function planUvx(agent: RegistryAgent): UvxPlan {
  const d = agent.distribution.uvx;
  if (!d) throw new InstallError(`${agent.name} has no uvx distribution`);
  const c = checkPythonSpec(d.package);
  if (!c.ok) throw refused(agent, "uvx", d.package, c.problem);
  const p = c.value;
  const v = pinned(agent, "uvx", p.version, d.package);
  const cmdProblem = pythonCmdProblem(d.cmd ?? p.name);
  if (cmdProblem) throw new InstallError(`${agent.name} (${agent.id}): ${cmdProblem}`);
  return {
    kind: "uvx",
    id: agent.id,
    version: agent.version,
    from: `${p.requirement}==${v}`,
    cmd: d.cmd ?? p.name,
    args: d.args ?? [],
    env: d.env ?? {},
  };
}

export function planBinary(agent: RegistryAgent, platform: Platform | undefined): BinaryPlan {
  const t = platform ? agent.distribution.binary?.[platform] : undefined;
  if (!t || !platform) throw new InstallError(`${agent.name} has no binary for this platform (${platform ?? "unknown"})`);
  checkDownloadUrl(t.archive);
  const format = archiveFormat(t.archive);
  if (!format) throw new InstallError(`${agent.name}: the archive ${t.archive} is neither .tar.gz nor .zip`);
  return {
    kind: "binary",
    id: agent.id,
    version: agent.version,
    platform,
    url: t.archive,
    ...(t.sha256 ? { sha256: t.sha256 } : {}),
    format,
    cmd: checkRelativeCmd(agent, t.cmd),
    args: t.args ?? [],
    env: t.env ?? {},
  };
}

/**
 * The plan for this machine. npx comes first: npm checks every package against the integrity hash
 * its registry publishes, while the registry's binary archives carry no checksum today. Then this
 * platform's binary, then uvx (uv is often missing).
 */
export function planInstall(agent: RegistryAgent, platform: Platform | undefined): InstallPlan {
  const d = agent.distribution;
  if (d.npx) return planNpx(agent);
  if (platform && d.binary?.[platform]) return planBinary(agent, platform);
  if (d.uvx) return planUvx(agent);
  throw new InstallError(
    `${agent.name} has no distribution for this platform (${platform ?? "unknown"}): only ${Object.keys(d.binary ?? {}).join(", ")}`,
  );
}

/** Whether this machine has a way to install the agent (for the picker: no promise that it works). */
export function installable(agent: RegistryAgent, platform: Platform | undefined): boolean {
  try {
    planInstall(agent, platform);
    return true;
  } catch {
    return false;
  }
}

/**
 * npm's arguments: the pinned package into its own prefix, nothing saved elsewhere, from the registry
 * the user configured (no `--registry`: an entry never picks one). The spec comes after `--`, one
 * argument, so npm cannot read it as an option (I-117).
 */
export function npmInstallArgs(plan: NpxPlan, prefix: string): string[] {
  return ["install", "--prefix", prefix, "--no-audit", "--no-fund", "--no-update-notifier", "--save-exact", "--", plan.spec];
}

/** How a uvx agent runs: uv resolves and caches the pinned package at the first start. */
export function uvxCommand(plan: UvxPlan): { command: string; args: string[] } {
  return { command: "uvx", args: ["--from", plan.from, plan.cmd, ...plan.args] };
}
