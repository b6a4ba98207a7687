// Session ids this client mints for agents that take exact ids (`initialize` advertises
// `manifold.dev/exactSessionIds`), and how a "no such session" answer is recognised.
import { randomUUID } from "node:crypto";

/** `${label}-session-${uuid}` for a labelled start, else a UUID v4. */
export function mintSessionId(label?: string): string {
  const id = randomUUID();
  return label ? `${label}-session-${id}` : id;
}

/** ACP's resource-not-found (the SDK's `sessionNotFound`). */
const NOT_FOUND = -32002;

/** Whether `err` is an agent's answer that the session does not exist. */
export function isSessionNotFound(err: unknown): boolean {
  if (typeof err !== "object" || err === null) return false;
  const code = (err as { code?: unknown }).code;
  return code === NOT_FOUND;
}
