// Which agent the window runs and which registry lists agents: user or machine settings only (I-107).
// A workspace (a cloned repository) must neither pick an agent to run nor name a registry to
// install from, so only the values of `inspect()` that the user wrote are read
// (extension/common/userSettings.ts `userValue`, the one reader of user-only settings).
import { userValue, type InspectedSetting } from "../common/userSettings";
import { checkDownloadUrl } from "./http";
import { DEFAULT_REGISTRY_URL } from "./source";

/** `manifold.agent` of an agent installed from the registry. */
export const REGISTRY_AGENT_PREFIX = "registry:";

export function registryAgentId(agent: string): string | undefined {
  return agent.startsWith(REGISTRY_AGENT_PREFIX) ? agent.slice(REGISTRY_AGENT_PREFIX.length) : undefined;
}

export function registryAgentSetting(id: string): string {
  return `${REGISTRY_AGENT_PREFIX}${id}`;
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
