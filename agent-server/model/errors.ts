// Turning provider failures into `ModelError`s with messages fit for the user, and keeping keys out
// of them. Also the AbortError helpers: aborts are never ModelErrors.
import { redact } from "../../sandbox/redact";
import { ModelError, type ModelErrorKind } from "./types";

export function abortError(): Error {
  return new DOMException("The model request was cancelled.", "AbortError");
}

export function isAbortError(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { name?: unknown }).name === "AbortError";
}

// One redaction for both processes (sandbox/redact.ts); re-exported for the model layer.
export { redact };

/** The URL as safe to show: origin and path only (no query, no credentials). */
export function displayUrl(url: string | undefined): string {
  if (!url) return "the model endpoint";
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return "the model endpoint";
  }
}

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ETIMEDOUT",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_SOCKET",
]);

/** Walks `cause` chains looking for a Node/undici error code. */
export function errorCode(err: unknown): string | undefined {
  let cur: unknown = err;
  for (let i = 0; i < 6 && typeof cur === "object" && cur !== null; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === "string") return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

export function isNetworkCode(code: string | undefined): boolean {
  return code !== undefined && NETWORK_CODES.has(code);
}

/** Pulls the provider's own error text out of a JSON error body, if any (short, redacted later). */
export function providerMessage(body: string | undefined): string | undefined {
  if (!body) return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    const err = (parsed as { error?: unknown }).error;
    const msg = typeof err === "string" ? err : (err as { message?: unknown } | undefined)?.message;
    if (typeof msg === "string" && msg.trim()) return msg.trim().slice(0, 300);
  } catch {
    // not JSON: fall through
  }
  const text = body.trim();
  return text && text.length <= 300 && !text.startsWith("<") ? text : undefined;
}

export interface HttpFailure {
  status: number;
  url?: string;
  body?: string;
  retryAfterMs?: number;
}

export function statusKind(status: number): ModelErrorKind {
  if (status === 401 || status === 403) return "auth";
  if (status === 429) return "rate-limit";
  if (status >= 500) return "server";
  if (status === 408) return "timeout";
  return "bad-request";
}

export function httpErrorMessage(f: HttpFailure, providerLabel: string, attempts: number): string {
  const where = displayUrl(f.url);
  const detail = providerMessage(f.body);
  const said = detail ? ` The endpoint said: "${detail}".` : "";
  switch (statusKind(f.status)) {
    case "auth":
      return `The endpoint rejected the API key (HTTP ${f.status}) at ${where}. Set it with "Manifold: Set API Key…" (or the ${providerLabel} key environment variable) and try again.${said}`;
    case "rate-limit":
      return `The model endpoint is rate limiting requests (HTTP 429) at ${where}; gave up after ${attempts} attempt${attempts === 1 ? "" : "s"}. Wait a moment and try again.${said}`;
    case "server":
      return `The model endpoint had a server error (HTTP ${f.status}) at ${where}; gave up after ${attempts} attempt${attempts === 1 ? "" : "s"}.${said}`;
    case "timeout":
      return `The model endpoint timed out (HTTP ${f.status}) at ${where}.${said}`;
    default:
      return `The model endpoint refused the request (HTTP ${f.status}) at ${where}.${said}`;
  }
}

/** Builds a ModelError whose message has been redacted. */
export function modelError(kind: ModelErrorKind, message: string, secrets: ReadonlyArray<string | undefined>, status?: number): ModelError {
  return new ModelError(kind, redact(message, secrets), status);
}

/** Parses `retry-after-ms` / `retry-after` (seconds or an HTTP date) into milliseconds. */
export function retryAfterMs(headers: Record<string, string | undefined> | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const get = (name: string): string | undefined => {
    for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
    return undefined;
  };
  const ms = Number(get("retry-after-ms"));
  if (Number.isFinite(ms) && ms >= 0 && get("retry-after-ms") !== undefined) return ms;
  const raw = get("retry-after");
  if (raw === undefined) return undefined;
  const secs = Number(raw);
  if (Number.isFinite(secs) && secs >= 0) return secs * 1000;
  const date = Date.parse(raw);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}
