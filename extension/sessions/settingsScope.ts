// Every `manifold.*` setting with the scope it is read from (I-113), and the readers of them. A
// setting that loosens a session, picks what runs, or decides where data or keys go is the user's:
// package.json gives it `machine` scope (VS Code reads it from User settings, or Remote settings in a
// remote window, and never from a workspace), and the readers here take only `inspect()`'s User value
// (extension/common/userSettings.ts `userValue`), so a VS Code that showed a workspace value anyway
// still changes nothing. The readers see settings only through `SettingsSource.inspect`: there is no
// `get()` that would merge a workspace's value in. extension/vscode/config.ts is the VS Code side.
import { z } from "zod";
import type { AgentSettings, AgentsSettingOrigin, ThirdPartyAgent } from "../agent/agentSpec";
import { hasWorkspaceValue, userValue, type InspectedSetting } from "../common/userSettings";
import { pickedAgent, registryUrl } from "../registry/settings";
import { parseAgentProfiles, type AgentProfile } from "../../base/agentProfiles";

/** Why a setting is the user's alone. */
export type SettingClass =
  /** It loosens what a session may do (mode, sandbox, approval). */
  | "loosens"
  /** It picks what runs on the host (agents, MCP servers, where agents are installed from). */
  | "runs"
  /** It decides where prompts, files, logs or keys go. */
  | "data";

export interface SettingRule {
  /** The `scope` of its package.json entry (`window` when it has none). */
  scope: "machine" | "application" | "window";
  /** Read from User or Remote settings only; absent: a workspace may set it (nothing of it loosens or runs). */
  userOnly?: SettingClass;
  why: string;
}

/** Every `manifold.*` setting of package.json, without its prefix (test/unit/extension/settingsScope.test.ts checks both ways). */
export const SETTING_RULES = {
  agent: { scope: "machine", userOnly: "runs", why: "picks the agent process the window starts" },
  agents: { scope: "machine", userOnly: "runs", why: "commands (and their environment) started as agents" },
  "model.provider": { scope: "machine", userOnly: "data", why: "picks the API that receives prompts, files and the key" },
  "model.baseUrl": { scope: "machine", userOnly: "data", why: "where the API key and every prompt are sent" },
  "model.name": {
    scope: "machine",
    userOnly: "data",
    why: "on a routing endpoint (OpenRouter, a gateway) the model name picks the provider that receives the prompts",
  },
  agentProfiles: {
    scope: "machine",
    userOnly: "loosens",
    why: "a profile sets mode, sandbox, approval and model, and instructions every session of it follows",
  },
  defaultMode: { scope: "machine", userOnly: "loosens", why: "`full-access` turns the sandbox and the questions off" },
  defaultSandbox: { scope: "machine", userOnly: "loosens", why: "`danger-full-access` runs commands unconfined" },
  defaultApproval: { scope: "machine", userOnly: "loosens", why: "`never` stops asking before what the sandbox blocks" },
  logLevel: { scope: "machine", userOnly: "data", why: "`debug`/`trace` write prompts, tool input and output into the agent's log" },
  trace: {
    scope: "machine",
    userOnly: "data",
    why: "writes every ACP message to the log, with file contents and the MCP servers' resolved env values and headers",
  },
  mcpServers: { scope: "machine", userOnly: "runs", why: "commands started for every session, and URLs given its headers" },
  "agentRegistry.url": { scope: "machine", userOnly: "runs", why: "where agents are installed from (and their install scripts)" },
  "agentSandbox.unconfined": {
    scope: "machine",
    userOnly: "loosens",
    why: "third-party agents started without Manifold's fence, as the user",
  },
  "agentSandbox.writablePaths": {
    scope: "machine",
    userOnly: "loosens",
    why: "paths outside the folders a third-party agent's fence lets it write",
  },
  "delegation.agents": { scope: "machine", userOnly: "runs", why: "agents the model may start in a folder to hand tasks to" },
} as const satisfies Record<string, SettingRule>;

export type SettingId = keyof typeof SETTING_RULES;

/** The settings a workspace value of is ignored (all of them today; a cosmetic setting would not be). */
export const USER_ONLY_SETTINGS: ReadonlySet<string> = new Set(
  Object.entries(SETTING_RULES as Record<string, SettingRule>)
    .filter(([, r]) => r.userOnly !== undefined)
    .map(([id]) => id),
);

/** How the readers see the `manifold` section: `WorkspaceConfiguration.inspect`, and the remote window's name. */
export interface SettingsSource {
  inspect(id: SettingId): InspectedSetting<unknown> | undefined;
  readonly remoteName?: string;
}

const agentsSchema = z.array(
  z.object({
    name: z.string().min(1),
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    clientFs: z.boolean().optional(),
    clientTerminal: z.boolean().optional(),
  }),
);

function str(src: SettingsSource, id: SettingId): string | undefined {
  const v = userValue(src.inspect(id));
  return typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
}

function optional<K extends string>(key: K, v: string | undefined): Partial<Record<K, string>> {
  return v === undefined ? {} : ({ [key]: v } as Record<K, string>);
}

export function thirdPartyAgentsFrom(src: SettingsSource): ThirdPartyAgent[] {
  const parsed = agentsSchema.safeParse(userValue(src.inspect("agents")) ?? []);
  return parsed.success ? parsed.data : [];
}

/**
 * Where `manifold.agents` (machine scope) can come from here. VS Code never shows the extension a
 * value it ignores for this machine (User settings in a remote window), so the error can only say
 * where the value has to go: `inspect()` tells whether the read scope has one at all.
 */
function agentsOrigin(src: SettingsSource): AgentsSettingOrigin {
  const i = src.inspect("agents");
  return {
    ...(src.remoteName ? { remoteName: src.remoteName } : {}),
    machineValue: i?.globalValue !== undefined,
    workspaceValue: hasWorkspaceValue(i),
  };
}

export function agentSettingsFrom(src: SettingsSource): AgentSettings {
  return {
    agent: pickedAgent(src.inspect("agent")),
    agents: thirdPartyAgentsFrom(src),
    agentsOrigin: agentsOrigin(src),
    ...optional("modelProvider", str(src, "model.provider")),
    ...optional("modelBaseUrl", str(src, "model.baseUrl")),
    ...optional("modelName", str(src, "model.name")),
    ...optional("logLevel", str(src, "logLevel")),
  };
}

export function registryUrlFrom(src: SettingsSource): string {
  return registryUrl(src.inspect("agentRegistry.url"));
}

/** Session config defaults applied to new sessions (option id → value), the user's only. */
export function sessionDefaultsFrom(src: SettingsSource): Record<string, string> {
  const out: Record<string, string> = {};
  const mode = str(src, "defaultMode");
  const sandbox = str(src, "defaultSandbox");
  const approval = str(src, "defaultApproval");
  if (mode) out.mode = mode;
  if (sandbox) out.sandbox = sandbox;
  if (approval) out.approval = approval;
  return out;
}

const agentNames = z.array(z.string().min(1));
const writablePaths = z.record(z.string(), z.array(z.string().min(1)));

/** `manifold.agentSandbox.unconfined`: the `manifold.agent` values the user chose to run as themselves (I-119). */
export function unconfinedAgentsFrom(src: SettingsSource): string[] {
  const parsed = agentNames.safeParse(userValue(src.inspect("agentSandbox.unconfined")) ?? []);
  return parsed.success ? parsed.data : [];
}

/** `manifold.delegation.agents`: the `manifold.agent` values the model may hand tasks to (User settings only). */
export function delegationAgentsFrom(src: SettingsSource): string[] {
  const parsed = agentNames.safeParse(userValue(src.inspect("delegation.agents")) ?? []);
  return parsed.success ? [...new Set(parsed.data)] : [];
}

/** `manifold.agentSandbox.writablePaths` for `agent` (its `manifold.agent` value), with the `*` entry's for every agent. */
export function agentWritablePathsFrom(src: SettingsSource, agent: string): string[] {
  const parsed = writablePaths.safeParse(userValue(src.inspect("agentSandbox.writablePaths")) ?? {});
  if (!parsed.success) return [];
  return [...(parsed.data["*"] ?? []), ...(parsed.data[agent] ?? [])];
}

/** `manifold.agentProfiles`, the User value only; a bad value is no profile and a message saying why (I-10). */
export function agentProfilesFrom(src: SettingsSource): { profiles: AgentProfile[]; error?: string } {
  const parsed = parseAgentProfiles(userValue(src.inspect("agentProfiles")) ?? [], "manifold.agentProfiles");
  return parsed.ok ? { profiles: parsed.value } : { profiles: [], error: parsed.message };
}

/** `manifold.mcpServers` (VS Code's mcp.json shape; validated by extension/mcp). */
export function mcpServersFrom(src: SettingsSource): unknown {
  return userValue(src.inspect("mcpServers"));
}

export function traceFrom(src: SettingsSource): boolean {
  const v = userValue(src.inspect("trace"));
  return v === true || v === "messages" || v === "verbose";
}

/** The user-only settings a workspace or folder value of `inspect()` shows (one VS Code ignored for us, or did not). */
export function ignoredInspected(src: SettingsSource): string[] {
  return [...USER_ONLY_SETTINGS].filter((id) => hasWorkspaceValue(src.inspect(id as SettingId)));
}
