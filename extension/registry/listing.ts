// The registry agents as Select Agent… lists them: the registry's entries this machine can install,
// each with its install state, and installed agents the registry no longer lists.
import { installable } from "./plan";
import type { Platform, Registry, RegistryAgent } from "./schema";
import type { InstalledAgent } from "./store";
import { compareVersions } from "./version";

export type RegistryRowState = "not-installed" | "installed" | "update-available" | "not-in-registry";

export interface RegistryRow {
  id: string;
  name: string;
  description: string;
  state: RegistryRowState;
  /** The registry's version (absent when the registry no longer lists the agent). */
  registryVersion?: string;
  installedVersion?: string;
  agent?: RegistryAgent;
}

export function registryRows(
  registry: Registry,
  installed: ReadonlyMap<string, InstalledAgent>,
  platform: Platform | undefined,
): RegistryRow[] {
  const rows: RegistryRow[] = [];
  for (const agent of registry.agents) {
    const have = installed.get(agent.id);
    if (!have && !installable(agent, platform)) continue;
    const state: RegistryRowState = !have
      ? "not-installed"
      : compareVersions(agent.version, have.manifest.version) > 0
        ? "update-available"
        : "installed";
    rows.push({
      id: agent.id,
      name: agent.name,
      description: agent.description,
      state,
      registryVersion: agent.version,
      ...(have ? { installedVersion: have.manifest.version } : {}),
      agent,
    });
  }
  const listed = new Set(registry.agents.map((a) => a.id));
  for (const [id, have] of installed) {
    if (!listed.has(id))
      rows.push({ id, name: have.manifest.name, description: "", state: "not-in-registry", installedVersion: have.manifest.version });
  }
  return rows.sort((a, b) => a.name.localeCompare(b.name));
}

/** What the picker says about a row's version and state. */
export function rowStateText(row: RegistryRow): string {
  switch (row.state) {
    case "not-installed":
      return `${row.registryVersion} · not installed`;
    case "installed":
      return `${row.installedVersion} · installed`;
    case "update-available":
      return `${row.installedVersion} · update available (${row.registryVersion})`;
    case "not-in-registry":
      return `${row.installedVersion} · installed, no longer in the registry`;
  }
}
