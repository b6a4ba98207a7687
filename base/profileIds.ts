// The names agent profiles are known by on the wire, apart from their schema (./agentProfiles.ts) so
// that the webview, which shows the profile option, loads no zod for them. Pure.
export const PROFILE_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,39}$/;
/** The id of "no profile": a client may not name a profile so. */
export const RESERVED_PROFILE_ID = "default";
/** `session/new` `_meta` key naming the profile to start from. */
export const PROFILE_META_KEY = "manifold.dev/profile";
/** The ACP config option offering the profiles. */
export const PROFILE_CONFIG_ID = "profile";
