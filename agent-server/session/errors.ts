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
