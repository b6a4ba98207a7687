import { errorMessage } from "../../base/errors";
// Typed persistence failures, so callers can map them to protocol errors without string matching.

export class SessionNotFoundError extends Error {
  constructor(readonly sessionId: string) {
    super(`no saved session with id ${JSON.stringify(sessionId)}`);
    this.name = "SessionNotFoundError";
  }
}

export class SessionExistsError extends Error {
  constructor(readonly sessionId: string) {
    super(`a session with id ${JSON.stringify(sessionId)} already exists`);
    this.name = "SessionExistsError";
  }
}

export class CorruptSessionError extends Error {
  constructor(
    readonly sessionId: string,
    detail: string,
  ) {
    super(`session ${JSON.stringify(sessionId)} cannot be read: ${detail}`);
    this.name = "CorruptSessionError";
  }
}

export class UnsupportedVersionError extends Error {
  constructor(
    readonly sessionId: string,
    readonly version: unknown,
  ) {
    super(`session ${JSON.stringify(sessionId)} uses log format version ${JSON.stringify(version)}, which this agent cannot read`);
    this.name = "UnsupportedVersionError";
  }
}

/** An event that cannot be turned into a log line (too deep, a cycle, a BigInt): nothing was recorded. */
export class UnserializableEventError extends Error {
  constructor(
    readonly sessionId: string,
    readonly eventType: string,
    cause: unknown,
  ) {
    super(`session ${JSON.stringify(sessionId)}: a ${eventType} event cannot be saved (${errorMessage(cause)})`);
    this.name = "UnserializableEventError";
  }
}

/** The log could not be written or synced (full disk, read-only or vanished data dir). What failed is kept in memory and retried. */
export class LogWriteError extends Error {
  readonly code: string | undefined;
  constructor(
    readonly sessionId: string,
    cause: unknown,
  ) {
    const code =
      typeof cause === "object" && cause !== null && typeof (cause as { code?: unknown }).code === "string"
        ? (cause as { code: string }).code
        : undefined;
    super(`session ${JSON.stringify(sessionId)} could not be saved: ${errorMessage(cause)}`);
    this.name = "LogWriteError";
    this.code = code;
  }
}
