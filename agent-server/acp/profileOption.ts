// Agent profiles on the wire: `_meta["manifold.dev/profile"]` on `session/new` (an unknown id is
// -32602), the `profile` select config option every session reports when profiles are configured,
// the label in `session/list` `_meta`. A live session keeps the profile it started with: a switch
// to another one is refused (its tool allow-list and instructions are fixed in its header); the
// settings it set (mode, model, …) stay switchable as usual.
import { RequestError, type SessionConfigOption } from "@agentclientprotocol/sdk";
import { PROFILE_CONFIG_ID, PROFILE_META_KEY, RESERVED_PROFILE_ID, type AgentProfile } from "../../base/agentProfiles";
import type { ModelConfig } from "../model/types";
import type { Agent } from "../runtime/agent";
import { profileSwitches } from "../runtime/profiles";
import type { SessionProfile } from "../session/events";

/** The profile a `session/new` asks for (`default` or none: no profile); checked before anything is built. */
export function requestedProfile(
  profiles: readonly AgentProfile[],
  models: readonly ModelConfig[],
  meta: Record<string, unknown> | null | undefined,
): AgentProfile | undefined {
  const raw = meta?.[PROFILE_META_KEY];
  if (raw === undefined || raw === null || raw === RESERVED_PROFILE_ID) return undefined;
  if (typeof raw !== "string") throw RequestError.invalidParams(undefined, `_meta["${PROFILE_META_KEY}"] must be a profile id (a string)`);
  const profile = profiles.find((p) => p.id === raw);
  if (!profile) {
    const known = profiles.map((p) => p.id).join(", ") || "none is configured";
    throw RequestError.invalidParams(undefined, `unknown agent profile ${JSON.stringify(raw)} (known: ${known})`);
  }
  if (profile.model !== undefined && !models.some((m) => m.id === profile.model))
    throw RequestError.invalidParams(
      undefined,
      `agent profile "${profile.id}" names the model ${JSON.stringify(profile.model)}, which is not configured`,
    );
  return profile;
}

/** Records the profile's settings in the new session's log, as its first config switches. */
export function applyProfileSettings(agent: Agent, profile: AgentProfile | undefined): void {
  if (!profile) return;
  for (const [id, value] of profileSwitches(profile)) agent.appendConfig(id, value);
}

/** The `profile` option (none when no profile is configured). */
export function profileOptions(profiles: readonly AgentProfile[], current: SessionProfile | undefined): SessionConfigOption[] {
  if (profiles.length === 0) return [];
  const options = [
    { value: RESERVED_PROFILE_ID, name: "Default", description: "No profile: the agent's own defaults." },
    ...profiles.map((p) => ({ value: p.id, name: p.name, description: p.description ?? null })),
  ];
  // A session of a profile no longer configured still shows its label.
  if (current && !profiles.some((p) => p.id === current.id))
    options.push({ value: current.id, name: current.id, description: "No longer configured." });
  return [
    {
      id: PROFILE_CONFIG_ID,
      name: "Profile",
      description: 'Chosen when the session starts (session/new `_meta["manifold.dev/profile"]`); fixed for the session\'s life.',
      category: "_manifold_profile",
      type: "select",
      currentValue: current?.id ?? RESERVED_PROFILE_ID,
      options,
    },
  ];
}

/** A `set_config_option` of `profile`: the current value changes nothing; any other is refused. True when handled. */
export function handleProfileSwitch(configId: string, value: unknown, current: SessionProfile | undefined): boolean {
  if (configId !== PROFILE_CONFIG_ID) return false;
  if (value === (current?.id ?? RESERVED_PROFILE_ID)) return true;
  throw RequestError.invalidParams(
    undefined,
    `a session's profile is fixed when it starts (it is "${current?.id ?? RESERVED_PROFILE_ID}"); start a new session to use ${JSON.stringify(value)}`,
  );
}

/** `session/list` `_meta` of a session started from a profile. */
export function profileListMeta(profile: string | undefined): { _meta?: Record<string, unknown> } {
  return profile === undefined ? {} : { _meta: { [PROFILE_META_KEY]: profile } };
}
