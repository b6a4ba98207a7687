// Every `manifold.*` setting and secret key in one table (declared in package.json `contributes`); the
// readers and each setting's scope (I-113) are extension/sessions/settingsScope.ts, this is VS Code's side.
import * as vscode from "vscode";
import type { AgentSecrets, AgentSettings, ThirdPartyAgent } from "../agent/agentSpec";
import { settingsSetIn } from "../common/userSettings";
import {
  agentProfilesFrom,
  agentSettingsFrom,
  agentWritablePathsFrom,
  unconfinedAgentsFrom,
  ignoredInspected,
  mcpServersFrom,
  registryUrlFrom,
  sessionDefaultsFrom,
  thirdPartyAgentsFrom,
  traceFrom,
  USER_ONLY_SETTINGS,
  type SettingId,
  type SettingsSource,
  delegationAgentsFrom,
} from "../sessions/settingsScope";

export const SETTINGS = {
  agent: "agent",
  agents: "agents",
  modelProvider: "model.provider",
  modelBaseUrl: "model.baseUrl",
  modelName: "model.name",
  agentProfiles: "agentProfiles",
  defaultMode: "defaultMode",
  defaultSandbox: "defaultSandbox",
  defaultApproval: "defaultApproval",
  logLevel: "logLevel",
  trace: "trace",
  mcpServers: "mcpServers",
  agentRegistryUrl: "agentRegistry.url",
  agentUnconfined: "agentSandbox.unconfined",
  agentWritablePaths: "agentSandbox.writablePaths",
} as const satisfies Record<string, SettingId>;

export const SECRET_KEYS = {
  openai: "manifold.openaiApiKey",
  anthropic: "manifold.anthropicApiKey",
} as const;

/** The `manifold` section as the readers of extension/sessions/settingsScope.ts see it: `inspect()` only. */
function source(scope?: vscode.Uri): SettingsSource {
  const section = vscode.workspace.getConfiguration("manifold", scope);
  return {
    inspect: (id) => section.inspect<unknown>(id),
    ...(vscode.env.remoteName ? { remoteName: vscode.env.remoteName } : {}),
  };
}

export function thirdPartyAgents(): ThirdPartyAgent[] {
  return thirdPartyAgentsFrom(source());
}

/** `manifold.agentProfiles` from User or Remote settings only (I-113); a bad value is none, and why. */
export function readAgentProfiles(): ReturnType<typeof agentProfilesFrom> {
  return agentProfilesFrom(source());
}

export function readAgentSettings(): AgentSettings {
  return agentSettingsFrom(source());
}

/** `manifold.agent` from user or machine settings only (I-107): a workspace cannot pick an agent to run. */
export function selectedAgent(): string {
  return readAgentSettings().agent;
}

/** Whether the user chose to run `agent` (its `manifold.agent` value) without the fence, from User settings only (I-119). */
export function runsUnconfined(agent: string): boolean {
  return unconfinedAgentsFrom(source()).includes(agent);
}

/** Records the user's "Always run unconfined" for `agent` in their User settings. */
export async function rememberUnconfined(agent: string): Promise<void> {
  const now = unconfinedAgentsFrom(source());
  if (now.includes(agent)) return;
  await vscode.workspace.getConfiguration("manifold").update(SETTINGS.agentUnconfined, [...now, agent], vscode.ConfigurationTarget.Global);
}

/** The agents the model may hand tasks to (`manifold.delegation.agents`, User settings only). */
export function delegationAgents(): string[] {
  return delegationAgentsFrom(source());
}

/** The user's extra writable paths for `agent`'s fence (User settings only). */
export function agentWritablePaths(agent: string): string[] {
  return agentWritablePathsFrom(source(), agent);
}

/** `manifold.agentRegistry.url` from user or machine settings only (I-107): a workspace cannot name a registry. */
export function agentRegistryUrl(): string {
  return registryUrlFrom(source());
}

export async function readSecrets(secrets: vscode.SecretStorage): Promise<AgentSecrets> {
  const [openaiApiKey, anthropicApiKey] = await Promise.all([secrets.get(SECRET_KEYS.openai), secrets.get(SECRET_KEYS.anthropic)]);
  return { ...(openaiApiKey ? { openaiApiKey } : {}), ...(anthropicApiKey ? { anthropicApiKey } : {}) };
}

/** Session config defaults applied to new sessions (option id → value), from User settings only (I-113). */
export function sessionDefaults(): Record<string, string> {
  return sessionDefaultsFrom(source());
}

/**
 * `manifold.mcpServers` from user/machine settings only (VS Code's mcp.json shape; validated by
 * extension/mcp). A workspace value is ignored, as for `manifold.agents`: it would start commands.
 */
export function mcpServersSetting(): unknown {
  return mcpServersFrom(source());
}

export function traceEnabled(): boolean {
  return traceFrom(source());
}

/** A settings file's text, or undefined when it is missing, not a regular file or too big to be settings. */
async function settingsText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    const st = await vscode.workspace.fs.stat(uri);
    if (st.type !== vscode.FileType.File || st.size > 4 * 1024 * 1024) return undefined;
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

/**
 * The user-only settings (I-113) that this workspace's settings set and that were ignored: what
 * `inspect()` shows for the folder, and what the `.code-workspace` file and the folder's
 * `.vscode/settings.json` hold (VS Code drops a machine-scoped value from `inspect()`).
 */
export async function ignoredWorkspaceSettings(folder: vscode.Uri): Promise<string[]> {
  const found = new Set(ignoredInspected(source(folder)));
  const file = vscode.workspace.workspaceFile;
  const files: Array<[vscode.Uri, boolean]> = [[vscode.Uri.joinPath(folder, ".vscode", "settings.json"), false]];
  if (file?.scheme === "file") files.push([file, true]);
  for (const [uri, workspaceFile] of files) {
    const text = await settingsText(uri);
    if (text !== undefined) for (const id of settingsSetIn(text, USER_ONLY_SETTINGS, workspaceFile)) found.add(id);
  }
  return [...found];
}

export function affectsAgent(e: vscode.ConfigurationChangeEvent): boolean {
  return ["agent", "agents", "agentProfiles", "model", "logLevel"].some((k) => e.affectsConfiguration(`manifold.${k}`));
}
