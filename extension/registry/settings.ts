// Which agent the window runs and which registry lists agents: user or machine settings only (I-107).
// A workspace (a cloned repository) must neither pick an agent to run nor name a registry to
// install from, so only the values of `inspect()` that the user wrote are read.
import { checkDownloadUrl } from "./http";
import { DEFAULT_REGISTRY_URL } from "./source";

/** The scopes of a `WorkspaceConfiguration.inspect()` result this code reads or reports. */
export interface InspectedSetting<T> {
  defaultValue?: T;
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

/** `manifold.agent` of an agent installed from the registry. */
export const REGISTRY_AGENT_PREFIX = "registry:";

export function registryAgentId(agent: string): string | undefined {
  return agent.startsWith(REGISTRY_AGENT_PREFIX) ? agent.slice(REGISTRY_AGENT_PREFIX.length) : undefined;
}

export function registryAgentSetting(id: string): string {
  return `${REGISTRY_AGENT_PREFIX}${id}`;
}

/** The user's (or machine's) value, else the default; a workspace or folder value is never read. */
export function userValue<T>(i: InspectedSetting<T> | undefined): T | undefined {
  return i?.globalValue ?? i?.defaultValue;
}

export function hasWorkspaceValue(i: InspectedSetting<unknown> | undefined): boolean {
  return i?.workspaceValue !== undefined || i?.workspaceFolderValue !== undefined;
}

function nonEmpty(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
}

/** `manifold.agent`: `builtin`, a `manifold.agents` name or `registry:<id>`. */
export function pickedAgent(i: InspectedSetting<unknown> | undefined): string {
  return nonEmpty(userValue(i)) ?? "builtin";
}

/** `manifold.agentRegistry.url`: the user's URL when it is one the registry may be read from, else the published one. */
export function registryUrl(i: InspectedSetting<unknown> | undefined): string {
  const v = nonEmpty(userValue(i));
  if (v === undefined) return DEFAULT_REGISTRY_URL;
  try {
    return checkDownloadUrl(v).toString();
  } catch {
    return DEFAULT_REGISTRY_URL;
  }
}
