// The exact session id a client may mint, and the `_meta` keys that carry it: one rule both
// processes apply. An id is 1–128 characters of [A-Za-z0-9._-] starting with a letter or digit, so
// it is a plain file name component (the log's file name escapes it as well, I-75).

/** `initialize` → `agentCapabilities._meta[EXACT_SESSION_IDS_META]: true`: the agent takes exact ids. */
export const EXACT_SESSION_IDS_META = "manifold.dev/exactSessionIds";
/** `session/new` `_meta`: resume-or-create under this exact id. */
export const SESSION_ID_META = "manifold.dev/sessionId";
/** `session/new` `_meta`: restore this persisted session only. */
export const RESUME_SESSION_ID_META = "manifold.dev/resumeSessionId";
/** The `session/new` answer's `_meta`: what the exact id led to. */
export const SESSION_ORIGIN_META = "manifold.dev/sessionOrigin";

export type SessionOrigin = "created" | "restored" | "live";

const EXACT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Undefined when `value` is a valid exact session id, else why it is not. */
export function exactIdProblem(value: unknown): string | undefined {
  if (typeof value !== "string") return "a session id must be a string";
  if (EXACT_ID.test(value)) return undefined;
  return `session id ${JSON.stringify(value.slice(0, 140))} is not 1-128 characters of [A-Za-z0-9._-] starting with a letter or digit`;
}

export function isExactSessionId(value: unknown): value is string {
  return exactIdProblem(value) === undefined;
}
