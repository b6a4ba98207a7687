// The ModelClient for real providers: bounded retries (429, 5xx) with backoff that honours
// `retry-after` within caps, only before anything was yielded; every failure becomes a redacted
// ModelError; aborts stay AbortErrors.
import {
  abortError,
  displayUrl,
  errorCode,
  httpErrorMessage,
  isAbortError,
  isNetworkCode,
  modelError,
  redact,
  retryAfterMs,
  statusKind,
} from "../errors";
import { ModelError, type ModelClient, type ModelConfig, type ModelEvent, type ModelStreamRequest } from "../types";
import { REAL_TIMERS, streamAttempt, type AttemptState, type ModelTimers } from "./aiSdkStream";

export type { ModelTimers, TimerPhase } from "./aiSdkStream";

export interface RetryOptions {
  /** Total attempts for 429 and 5xx (default 3). */
  maxAttempts?: number;
  /** Longest single wait, including a server's `retry-after` (default 10 s). */
  maxDelayMs?: number;
  /** Longest total waiting across retries (default 20 s). */
  maxTotalWaitMs?: number;
  /** Where the inactivity timeout and the backoff waits are scheduled (default: the real timers; tests inject a manual clock). */
  timers?: ModelTimers;
}

const DEFAULTS = { maxAttempts: 3, maxDelayMs: 10_000, maxTotalWaitMs: 20_000 };

const PROVIDER_LABEL = { "openai-compatible": "OPENAI_API_KEY", anthropic: "ANTHROPIC_API_KEY", demo: "" } as const;

interface Failure {
  error: ModelError;
  retryable: boolean;
  /** The server asked for this wait (ms). */
  retryAfter?: number;
}

function sleep(ms: number, signal: AbortSignal, timers: ModelTimers): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError());
    const onAbort = (): void => {
      timers.clear(t);
      reject(abortError());
    };
    const t = timers.set(
      () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      },
      ms,
      "backoff",
    );
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}

interface ApiCallErrorLike {
  statusCode?: number;
  url?: string;
  responseBody?: string;
  responseHeaders?: Record<string, string>;
  message?: string;
}

function classify(err: unknown, config: ModelConfig, state: AttemptState, attempt: number): Failure {
  const secrets = [config.apiKey];
  const where = displayUrl(state.url ?? config.baseUrl);
  if (err instanceof ModelError) return { error: modelError(err.kind, err.message, secrets, err.status), retryable: false };
  if (state.timedOut) {
    const what = state.responded ? "stopped sending data" : "did not answer";
    return {
      error: modelError(
        "timeout",
        `The model endpoint ${what} within ${duration(config.timeoutMs ?? 0)} (${where}). Set MANIFOLD_MODEL_TIMEOUT_MS to wait longer.`,
        secrets,
      ),
      retryable: false,
    };
  }
  const api = (typeof err === "object" && err !== null ? err : {}) as ApiCallErrorLike;
  if (typeof api.statusCode === "number" && api.statusCode >= 400 && !isUnparsableStreamError(api, state)) {
    const status = api.statusCode;
    const kind = statusKind(status);
    const message = httpErrorMessage(
      { status, url: api.url ?? state.url, body: api.responseBody },
      PROVIDER_LABEL[config.provider],
      attempt,
    );
    const retryAfter = retryAfterMs(api.responseHeaders);
    return {
      error: modelError(kind, message, secrets, status),
      retryable: kind === "rate-limit" || kind === "server",
      ...(retryAfter !== undefined ? { retryAfter } : {}),
    };
  }
  const code = errorCode(err);
  if (!state.responded && (isNetworkCode(code) || /cannot connect/i.test(api.message ?? ""))) {
    return {
      error: modelError(
        "network",
        `Could not connect to the model endpoint at ${where}${code ? ` (${code})` : ""}. Is the server running and the URL right?`,
        secrets,
      ),
      retryable: false,
    };
  }
  const detail = err instanceof Error ? redact(err.message, secrets).slice(0, 200) : "";
  if (state.url === undefined) {
    return {
      error: modelError("bad-request", `The model request could not be built${detail ? `: ${detail}` : ""}.`, secrets),
      retryable: false,
    };
  }
  return {
    error: modelError(
      "protocol",
      `The model endpoint sent a malformed or truncated response (${where})${detail ? `: ${detail}` : ""}.`,
      secrets,
    ),
    retryable: false,
  };
}

/**
 * The Anthropic provider turns an error as the stream's first event into an HTTP-like error (500,
 * or 529 when overloaded) although the response was 200. A real `error` event carries a `type`;
 * an event that failed to parse does not, and is a protocol failure, not a server one.
 */
function isUnparsableStreamError(api: ApiCallErrorLike, state: AttemptState): boolean {
  if (state.status === undefined || state.status >= 400) return false;
  try {
    const body: unknown = JSON.parse(api.responseBody ?? "");
    return typeof (body as { type?: unknown } | null)?.type !== "string";
  } catch {
    return true;
  }
}

export function createAiSdkClient(config: ModelConfig, retry: RetryOptions = {}): ModelClient {
  const opts = { ...DEFAULTS, ...retry };
  const timers = retry.timers ?? REAL_TIMERS;
  const baseMs = config.retryBaseMs ?? 1_000;
  return {
    config,
    isDemo: false,
    async *stream(request: ModelStreamRequest): AsyncGenerator<ModelEvent> {
      let waited = 0;
      for (let attempt = 1; ; attempt++) {
        const state: AttemptState = { responded: false, timedOut: false };
        let yielded = false;
        try {
          for await (const event of streamAttempt(config, request, state, timers)) {
            yielded = true;
            yield event;
          }
          return;
        } catch (err) {
          if (request.signal.aborted) throw abortError();
          if (isAbortError(err) && !state.timedOut) throw abortError();
          const failure = classify(err, config, state, attempt);
          if (yielded || !failure.retryable || attempt >= opts.maxAttempts) throw failure.error;
          const backoff = baseMs * 2 ** (attempt - 1);
          const delay = failure.retryAfter ?? backoff;
          if (delay > opts.maxDelayMs || waited + delay > opts.maxTotalWaitMs) throw failure.error;
          waited += delay;
          await sleep(delay, request.signal, timers);
        }
      }
    },
  };
}
