// Which folders a third-party agent keeps its state and credentials in (scripts/agents/profiles.json,
// next to the pins of the real-agent tests), and the fence that follows (sandbox/types.ts
// `AgentFence`, I-118): the window's folders, the agent's own state and temp area writable; the
// home folder's secrets, every other agent's credentials and Manifold's storage hidden.
import * as path from "node:path";
import { z } from "zod";
import table from "../../scripts/agents/profiles.json";
import type { AgentFence } from "../../sandbox/types";

const Paths = z.array(z.string().min(1)).default([]);
const ProfileSchema = z.object({
  id: z.string().min(1),
  match: z.object({ registry: Paths, command: Paths, package: Paths }),
  state: Paths,
  stateFiles: Paths,
  credentials: Paths,
  /** Added to its argv when it runs inside the fence (codex: the fence is its command sandbox). */
  fencedArgs: z.array(z.string()).default([]),
  fencedWhy: z.string().optional(),
});
const TableSchema = z.object({
  default: z.object({ state: Paths }),
  agents: z.array(ProfileSchema),
  launchers: z.array(z.object({ command: Paths, state: Paths })),
  secrets: Paths,
});

export type AgentProfile = z.infer<typeof ProfileSchema>;
export const PROFILE_TABLE = TableSchema.parse(table);

/** What identifies the agent: its registry id (when it came from the registry) and its argv. */
export interface AgentIdentity {
  registryId?: string;
  command: string;
  args: readonly string[];
}

const base = (p: string) => path.basename(p).replace(/\.(cmd|exe|js|mjs|cjs|sh|py)$/i, "");

/** The package an `npx`/`bunx`/`npm exec` launch runs (its first non-flag argument), without a version; undefined for any other command. */
function launchedPackage(command: string, args: readonly string[]): string | undefined {
  if (!PROFILE_TABLE.launchers.some((l) => l.command.includes(base(command)))) return undefined;
  const first = args.find((a) => !a.startsWith("-") && a !== "exec");
  return first?.replace(/^(@?[^@]+)@.*$/, "$1");
}

/** The profile of the agent, or the default one named after its registry id or command. */
export function profileFor(who: AgentIdentity): AgentProfile {
  const cmd = base(who.command);
  const pkg = launchedPackage(who.command, who.args);
  const found = PROFILE_TABLE.agents.find(
    (p) =>
      (who.registryId !== undefined && p.match.registry.includes(who.registryId)) ||
      p.match.command.includes(cmd) ||
      (pkg !== undefined && p.match.package.includes(pkg)),
  );
  if (found) return found;
  // A name of dots would make `~/.<name>` the home folder or above: writable, and its secrets "its own".
  const name = (who.registryId ?? (pkg ? base(pkg) : cmd)).replace(/[^\w.-]/g, "").replace(/^\.+/, "") || "agent";
  return {
    id: name,
    match: { registry: [], command: [], package: [] },
    state: PROFILE_TABLE.default.state.map((s) => s.replaceAll("<name>", name)),
    stateFiles: [],
    credentials: [],
    fencedArgs: [],
  };
}

/** `~/x` and `${NAME:-default}` of a table or settings path, from the agent's environment; undefined if not absolute after. */
export function expandPath(p: string, env: Readonly<Record<string, string | undefined>>, home: string): string | undefined {
  const tilde = (s: string) => (s === "~" ? home : s.startsWith("~/") ? path.join(home, s.slice(2)) : s);
  const out = tilde(p.replace(/\$\{(\w+)(?::-([^}]*))?\}/g, (_m, name: string, dflt?: string) => env[name] || tilde(dflt ?? "")));
  return path.isAbsolute(out) ? path.normalize(out) : undefined;
}

export interface FenceInputs {
  who: AgentIdentity;
  /** The agent's own environment (for `${VAR}` in its profile; its HOME, if set, holds its state) and the user's home folder. */
  env: Readonly<Record<string, string | undefined>>;
  home: string;
  folders: readonly string[];
  /** The user's extra writable paths for this agent (a User setting). */
  extraWritable?: readonly string[];
  tmpDir: string;
  /** Manifold's storage and the editor's (storageDirs.ts): hidden like the secrets. */
  storage: readonly string[];
  /** A registry agent's install folder: readable although it lies in Manifold's storage. */
  installDir?: string;
  protectedPaths?: readonly string[];
}

export interface ResolvedFence {
  profile: AgentProfile;
  fence: AgentFence;
}

/** The fence of one agent: its profile's state (and its launcher's cache) writable, every other secret hidden. */
export function fenceFor(i: FenceInputs): ResolvedFence {
  const profile = profileFor(i.who);
  // Its state lives under the home it is given (an entry may set HOME); secrets are hidden under both.
  const agentHome = i.env.HOME && path.isAbsolute(i.env.HOME) ? i.env.HOME : i.home;
  const under = (home: string) => (ps: readonly string[]) =>
    ps.map((p) => expandPath(p, i.env, home)).filter((p): p is string => p !== undefined);
  const expand = under(agentHome);
  const expandBoth = (ps: readonly string[]) => [...new Set([...expand(ps), ...under(i.home)(ps)])];
  const launcher = PROFILE_TABLE.launchers.find((l) => l.command.includes(base(i.who.command)));
  const stateDirs = expand([...profile.state, ...(launcher?.state ?? []), ...(i.extraWritable ?? [])]);
  const stateFiles = expand(profile.stateFiles);
  const own = [...stateDirs, ...stateFiles];
  const mine = (p: string) => own.some((o) => p === o || p.startsWith(o + path.sep));
  // Every other agent's credentials; its own stay readable to it.
  const others = PROFILE_TABLE.agents.filter((p) => p.id !== profile.id).flatMap((p) => expandBoth(p.credentials));
  const hidden = [...expandBoth(PROFILE_TABLE.secrets), ...others, ...i.storage].filter((p) => !mine(p));
  return {
    profile,
    fence: {
      folders: i.folders,
      stateDirs,
      stateFiles,
      readable: i.installDir ? [i.installDir] : [],
      tmpDir: i.tmpDir,
      hidden,
      protectedPaths: i.protectedPaths ?? [],
    },
  };
}
