// Which agent command to spawn and with what environment. The settings and secrets are read by
// the caller and passed in.
import * as path from "node:path";
import { formatHideDirs, HIDE_DIRS_ENV } from "../../sandbox/hideDirs";
import { registryAgentId } from "../registry/settings";
import { agentBaseEnv } from "../../sandbox/env";
import type { AgentFence } from "../../sandbox/types";
import type { AgentConfinement } from "../common/protection";
import { configArgs } from "./profilesConfig";

export interface ThirdPartyAgent {
  name: string;
  command: string;
  args?: string[];
  env?: Record<string, string>;
  /** Offer it `fs/*` (default true); false for an agent on another filesystem (a container, a remote host). */
  clientFs?: boolean;
  /** Offer it `terminal/*` (default true); false for the same reason. */
  clientTerminal?: boolean;
}

/** Where `manifold.agents` was (not) read from: what an error about it must tell the user. */
export interface AgentsSettingOrigin {
  /** `vscode.env.remoteName` in a remote window (`ssh-remote`, `dev-container`, `wsl`, code-server's …). */
  remoteName?: string;
  /** The setting has a value VS Code reads for this machine: User settings, or Remote settings in a remote window. */
  machineValue: boolean;
  /** Workspace or folder settings hold a value, which is never read (a workspace cannot add commands). */
  workspaceValue: boolean;
}

export interface AgentSettings {
  /** `builtin` or the name of an entry of `agents`. */
  agent: string;
  agents: ThirdPartyAgent[];
  /** Where `agents` came from (absent: say nothing about settings scopes). */
  agentsOrigin?: AgentsSettingOrigin;
  modelProvider?: string;
  modelBaseUrl?: string;
  modelName?: string;
  logLevel?: string;
}

/** How the picked registry agent starts (extension/registry/store.ts `launchOf`), when it is installed. */
export interface RegistryLaunch {
  /** The `manifold.agent` value, `registry:<id>`. */
  setting: string;
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Its install folder (readable inside the fence although Manifold's storage is hidden). */
  dir?: string;
}

export interface AgentSecrets {
  openaiApiKey?: string;
  anthropicApiKey?: string;
  /** A third-party agent's variables set at sign-in (an env-var auth method), from secret storage. */
  agentEnv?: Record<string, string>;
}

export interface AgentSpec {
  /** Display name ("Manifold agent" or the configured name). */
  name: string;
  builtin: boolean;
  /** The registry id of a registry agent (its profile, extension/agent/agentProfiles.ts). */
  registryId?: string;
  /** A registry agent's install folder. */
  installDir?: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Names of environment variables whose values must never be logged. */
  secretEnvNames: string[];
  /** Descriptors the child gets as fds 3, 4, … (the fence's binds, sandbox/bindFds.ts); single-use. */
  fds?: number[];
  /** How a third-party agent runs: in the fence, or as the user by the user's choice (confinement.ts). */
  confinement?: AgentConfinement;
  /** The agent's own command before the fence went around it, and the fence (terminal sign-in runs it fenced again). */
  launch?: { command: string; args: string[]; env: Record<string, string> };
  fence?: AgentFence;
  /** What `initialize` offers beyond the baseline (absent: everything, extension/agent/acpClient.ts `ClientOffer`). */
  offer?: { fs: boolean; terminal: boolean };
}

export class AgentSettingsError extends Error {
  override name = "AgentSettingsError";
}

/**
 * Why `manifold.agent` names no entry of `manifold.agents`, and where the entry has to go.
 * `manifold.agents` is machine-scoped: in a remote window (SSH, containers, WSL, code-server) VS Code
 * reads it from the Remote settings only and never shows the extension a User-settings value, so an
 * entry put in User settings is silently missing there.
 */
export function missingAgentMessage(name: string, agents: readonly ThirdPartyAgent[], origin?: AgentsSettingOrigin): string {
  const listed = agents.length > 0 ? ` (it lists ${agents.map((a) => `"${a.name}"`).join(", ")})` : "";
  const parts = [`manifold.agent is "${name}", but manifold.agents has no entry with that name${listed}.`];
  if (origin?.remoteName) {
    parts.push(
      `In a remote window (${origin.remoteName}), manifold.agents is read from the Remote settings (Preferences: Open Remote Settings), not User settings` +
        (origin.machineValue
          ? ": the Remote settings' value is the one used here, and entries in your User settings are ignored."
          : ", and the Remote settings have no value for it."),
    );
  } else if (!origin?.machineValue && origin) {
    parts.push("Add the entry to your User settings (Preferences: Open User Settings (JSON)).");
  }
  if (origin?.workspaceValue) parts.push("A value in workspace or folder settings is ignored: a workspace cannot add commands to run.");
  return parts.join(" ");
}

/**
 * Builds the spawn spec. The built-in agent runs on VS Code's own runtime (`execPath` with
 * `ELECTRON_RUN_AS_NODE=1`); `process.env` is kept (it carries `ELECTRON_RUN_AS_NODE` in the host).
 */
export function resolveAgentSpec(opts: {
  settings: AgentSettings;
  secrets: AgentSecrets;
  baseEnv: NodeJS.ProcessEnv;
  execPath: string;
  extensionPath: string;
  dataDir: string;
  cwd: string;
  /** Manifold's storage (storageDirs.ts): the built-in agent hides it from every session's tools and commands (I-116). */
  hideDirs?: readonly string[];
  /** The installed registry agent that `settings.agent` names (absent: not installed, or not a registry agent). */
  registryAgent?: RegistryLaunch;
  /** The built-in agent's config file (its agent profiles, profilesConfig.ts). */
  configFile?: string;
}): AgentSpec {
  const { settings, secrets } = opts;
  const secretEnvNames = ["OPENAI_API_KEY", "ANTHROPIC_API_KEY"];
  if (settings.agent === "builtin" || settings.agent === "") {
    const env: NodeJS.ProcessEnv = { ...opts.baseEnv };
    env.ELECTRON_RUN_AS_NODE = "1";
    if (settings.modelProvider) env.MANIFOLD_MODEL_PROVIDER = settings.modelProvider;
    if (settings.modelBaseUrl) env.MANIFOLD_MODEL_BASE_URL = settings.modelBaseUrl;
    if (settings.modelName) env.MANIFOLD_MODEL = settings.modelName;
    if (settings.logLevel) env.MANIFOLD_LOG_LEVEL = settings.logLevel;
    if (opts.hideDirs !== undefined) env[HIDE_DIRS_ENV] = formatHideDirs(opts.hideDirs);
    // Node >= 22.1 (VS Code's runtime) caches compiled code here: a faster warm start of the agent's
    // lazily loaded files. Per-user storage, not the shared /tmp. Node 20 ignores it.
    env.NODE_COMPILE_CACHE ??= path.join(path.dirname(opts.dataDir), "compile-cache");
    if (secrets.openaiApiKey) env.OPENAI_API_KEY = secrets.openaiApiKey;
    if (secrets.anthropicApiKey) env.ANTHROPIC_API_KEY = secrets.anthropicApiKey;
    return {
      name: "Manifold agent",
      builtin: true,
      command: opts.execPath,
      args: [path.join(opts.extensionPath, "dist", "agent-server.js"), "--data-dir", opts.dataDir, ...configArgs(opts.configFile)],
      env,
      cwd: opts.cwd,
      secretEnvNames,
    };
  }
  const entry =
    opts.registryAgent?.setting === settings.agent ? opts.registryAgent : settings.agents.find((a) => a.name === settings.agent);
  if (!entry && registryAgentId(settings.agent) !== undefined) {
    throw new AgentSettingsError(
      `manifold.agent is "${settings.agent}", which is not installed: pick it in Manifold: Select Agent… to install it.`,
    );
  }
  if (!entry) throw new AgentSettingsError(missingAgentMessage(settings.agent, settings.agents, settings.agentsOrigin));
  if (!entry.command) throw new AgentSettingsError(`the agent "${entry.name}" in manifold.agents has no command`);
  // A third-party agent starts from the allowlist (I-98): no host secret, and not Electron's "run as
  // Node" switch. Its own variables follow: the entry's, then what the user gave at sign-in.
  const env: Record<string, string> = agentBaseEnv(opts.baseEnv);
  for (const [k, v] of Object.entries(entry.env ?? {})) env[k] = v;
  // What the user gave at sign-in wins over the entry's env: it is the newer, explicit answer.
  const signedIn = secrets.agentEnv ?? {};
  for (const [k, v] of Object.entries(signedIn)) env[k] = v;
  return {
    name: entry.name,
    builtin: false,
    ...(registryAgentId(settings.agent) !== undefined ? { registryId: registryAgentId(settings.agent) } : {}),
    ...(opts.registryAgent?.setting === settings.agent && opts.registryAgent.dir ? { installDir: opts.registryAgent.dir } : {}),
    command: entry.command,
    args: entry.args ?? [],
    env,
    cwd: opts.cwd,
    ...("clientFs" in entry || "clientTerminal" in entry
      ? { offer: { fs: entry.clientFs ?? true, terminal: entry.clientTerminal ?? true } }
      : {}),
    secretEnvNames: [
      ...secretEnvNames,
      ...Object.keys(entry.env ?? {}).filter((k) => /key|token|secret|password/i.test(k)),
      ...Object.keys(signedIn),
    ],
  };
}

/** Restart delays: 0.5 s doubling to 30 s; after `maxRapid` crashes within `window` ms, give up. */
export class Backoff {
  #crashes: number[] = [];

  constructor(
    private readonly maxRapid = 5,
    private readonly windowMs = 60_000,
  ) {}

  /** Records a crash at `now`; returns the delay before the next start, or undefined to give up. */
  next(now: number): number | undefined {
    this.#crashes = [...this.#crashes.filter((t) => now - t < this.windowMs), now];
    if (this.#crashes.length > this.maxRapid) return undefined;
    return Math.min(30_000, 500 * 2 ** (this.#crashes.length - 1));
  }

  reset(): void {
    this.#crashes = [];
  }
}
