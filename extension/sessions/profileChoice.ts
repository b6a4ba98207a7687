// What New Session… offers: "Default" (no profile) and each configured agent profile, and the
// `session/new` `_meta` the choice becomes. Only the built-in agent knows the profiles (they reach it
// as its config file, extension/agent/profilesConfig.ts), so another agent is offered none. Pure.
import { PROFILE_META_KEY, type AgentProfile } from "../../base/agentProfiles";

export interface ProfileChoice {
  label: string;
  description?: string;
  detail?: string;
  /** Undefined: no profile. */
  profileId: string | undefined;
}

/** The quick pick's items, or none (no pick: a plain new session) without profiles or for another agent. */
export function profileChoices(profiles: readonly AgentProfile[], builtin: boolean): ProfileChoice[] {
  if (!builtin || profiles.length === 0) return [];
  return [
    { label: "Default", description: "no profile", profileId: undefined },
    ...profiles.map((p) => ({
      label: p.name,
      description: p.id,
      ...(p.description !== undefined ? { detail: p.description } : {}),
      profileId: p.id,
    })),
  ];
}

/** `meta` of a `session/new` with the profile's key added (unchanged without a profile). */
export function withProfileMeta(
  meta: Record<string, unknown> | undefined,
  profileId: string | undefined,
): Record<string, unknown> | undefined {
  if (profileId === undefined) return meta;
  return { ...meta, [PROFILE_META_KEY]: profileId };
}
