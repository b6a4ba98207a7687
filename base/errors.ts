// The one way both processes turn a thrown value into text for a log line or a user-facing message.

/** The message of an Error, or the thrown value as text. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
