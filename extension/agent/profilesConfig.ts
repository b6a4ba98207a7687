// How `manifold.agentProfiles` reaches the built-in agent: the checked profiles written to a config
// file in Manifold's storage (hidden from every session, I-116), named by `--config` on the spawn.
// No profile: no file and no flag. The agent-server checks the file again (I-10) and exits 2 on a
// bad one, so a value this side refused never reaches it.
import { realpath, rm } from "node:fs/promises";
import * as path from "node:path";
import type { AgentProfile } from "../../base/agentProfiles";
import { writeFileAtomic } from "../../sandbox/safeWrite";

export const AGENT_CONFIG_FILE = "agent-config.json";

/** Writes (or removes) the config file in `dir`; returns its path, or undefined when there are no profiles. */
export async function writeAgentConfig(dir: string, profiles: readonly AgentProfile[]): Promise<string | undefined> {
  const file = path.join(await realpath(dir), AGENT_CONFIG_FILE);
  if (profiles.length === 0) {
    await rm(file, { force: true });
    return undefined;
  }
  await writeFileAtomic(file, JSON.stringify({ agentProfiles: profiles }, null, 2) + "\n");
  return file;
}

/** The agent-server's arguments for it. */
export function configArgs(file: string | undefined): string[] {
  return file === undefined ? [] : ["--config", file];
}
