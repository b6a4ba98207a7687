// The one way both processes turn a thrown value into text for a log line or a user-facing message,
// and the one way each decides what becomes of a failure nobody awaits: logged, or dropped for a reason.

/** The message of an Error, or the thrown value as text. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * A `.catch` handler for a failure that is deliberately dropped. `why` says, at the call site, why
 * nothing needs to hear of it (someone else reports it, the file may already be gone, …); every such
 * choice stays findable as `ignoreError(`.
 */
export function ignoreError(_why: string): (err: unknown) => undefined {
  return () => undefined;
}

/** A `.catch` handler that reports the failure to `log` as one line: `what: message`. */
export function logError(log: (message: string) => void, what: string): (err: unknown) => void {
  return (err) => log(`${what}: ${errorMessage(err)}`);
}

let unexpectedErrorHandler: (err: unknown) => void = (err) => console.error("unexpected error:", err);

/**
 * Where a failure goes that nobody awaits and no log is at hand for: the teardown a synchronous
 * `dispose()` started, for one. By default stderr (the agent-server's log, the extension host's log).
 */
export function onUnexpectedError(err: unknown): void {
  unexpectedErrorHandler(err);
}

/** Replaces the handler of `onUnexpectedError` (tests capture with it); returns the previous one. */
export function setUnexpectedErrorHandler(handler: (err: unknown) => void): (err: unknown) => void {
  const previous = unexpectedErrorHandler;
  unexpectedErrorHandler = handler;
  return previous;
}
