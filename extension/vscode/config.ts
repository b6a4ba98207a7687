// Every `manifold.*` setting and secret key in one table (declared in package.json `contributes`).
import * as vscode from "vscode";
import { z } from "zod";
import type { AgentSecrets, AgentSettings, AgentsSettingOrigin, ThirdPartyAgent } from "../agent/agentSpec";
import { pickedAgent, registryUrl } from "../registry/settings";

export const SETTINGS = {
  agent: "agent",
  agents: "agents",
  modelProvider: "model.provider",
  modelBaseUrl: "model.baseUrl",
  modelName: "model.name",
  defaultMode: "defaultMode",
  defaultSandbox: "defaultSandbox",
  defaultApproval: "defaultApproval",
  logLevel: "logLevel",
  trace: "trace",
  mcpServers: "mcpServers",
  agentRegistryUrl: "agentRegistry.url",
} as const;

export const SECRET_KEYS = {
  openai: "manifold.openaiApiKey",
  anthropic: "manifold.anthropicApiKey",
} as const;

const agentsSchema = z.array(
  z.object({
    name: z.string().min(1),
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
  }),
);

function section(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration("manifold");
}

function str(key: string): string | undefined {
  const v = section().get<unknown>(key);
  return typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
}

export function thirdPartyAgents(): ThirdPartyAgent[] {
  const parsed = agentsSchema.safeParse(section().get<unknown>(SETTINGS.agents) ?? []);
  return parsed.success ? parsed.data : [];
}

/**
 * Where `manifold.agents` (machine scope) can come from here. VS Code never shows the extension a
 * value it ignores for this machine (User settings in a remote window), so the error can only say
 * where the value has to go: `inspect()` tells whether the read scope has one at all.
 */
function agentsOrigin(): AgentsSettingOrigin {
  const i = section().inspect<unknown>(SETTINGS.agents);
  return {
    ...(vscode.env.remoteName ? { remoteName: vscode.env.remoteName } : {}),
    machineValue: i?.globalValue !== undefined,
    workspaceValue: i?.workspaceValue !== undefined || i?.workspaceFolderValue !== undefined,
  };
}

export function readAgentSettings(): AgentSettings {
  return {
    agent: selectedAgent(),
    agents: thirdPartyAgents(),
    agentsOrigin: agentsOrigin(),
    ...optional("modelProvider", str(SETTINGS.modelProvider)),
    ...optional("modelBaseUrl", str(SETTINGS.modelBaseUrl)),
    ...optional("modelName", str(SETTINGS.modelName)),
    ...optional("logLevel", str(SETTINGS.logLevel)),
  };
}

/** `manifold.agent` from user or machine settings only (I-107): a workspace cannot pick an agent to run. */
export function selectedAgent(): string {
  return pickedAgent(section().inspect<unknown>(SETTINGS.agent));
}

/** `manifold.agentRegistry.url` from user or machine settings only (I-107): a workspace cannot name a registry. */
export function agentRegistryUrl(): string {
  return registryUrl(section().inspect<unknown>(SETTINGS.agentRegistryUrl));
}

function optional<K extends string>(key: K, v: string | undefined): Partial<Record<K, string>> {
  return v === undefined ? {} : ({ [key]: v } as Record<K, string>);
}

export async function readSecrets(secrets: vscode.SecretStorage): Promise<AgentSecrets> {
  const [openaiApiKey, anthropicApiKey] = await Promise.all([secrets.get(SECRET_KEYS.openai), secrets.get(SECRET_KEYS.anthropic)]);
  return { ...(openaiApiKey ? { openaiApiKey } : {}), ...(anthropicApiKey ? { anthropicApiKey } : {}) };
}

/** Session config defaults applied to new sessions (option id → value). */
export function sessionDefaults(): Record<string, string> {
  const out: Record<string, string> = {};
  const mode = str(SETTINGS.defaultMode);
  const sandbox = str(SETTINGS.defaultSandbox);
  const approval = str(SETTINGS.defaultApproval);
  if (mode) out.mode = mode;
  if (sandbox) out.sandbox = sandbox;
  if (approval) out.approval = approval;
  return out;
}

/**
 * `manifold.mcpServers` from user/machine settings only (VS Code's mcp.json shape; validated by
 * extension/mcp). A workspace value is ignored, as for `manifold.agents`: it would start commands.
 */
export function mcpServersSetting(): unknown {
  const i = section().inspect<unknown>(SETTINGS.mcpServers);
  return i?.globalValue ?? i?.defaultValue;
}

export function traceEnabled(): boolean {
  const v = section().get<unknown>(SETTINGS.trace);
  return v === true || v === "messages" || v === "verbose";
}

export function affectsAgent(e: vscode.ConfigurationChangeEvent): boolean {
  return ["agent", "agents", "model", "logLevel"].some((k) => e.affectsConfiguration(`manifold.${k}`));
}
