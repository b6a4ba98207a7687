// One attempt of one model step on the Vercel AI SDK v6: `streamText` with tools declared by JSON
// Schema and no `execute`, `maxRetries: 0` (retries are ours), and an inactivity timeout. For an
// OpenAI-compatible endpoint the plain text and reasoning deltas skip the SDK (./leanSse.ts): the
// SDK builds the request and handles everything else of the answer (tool calls, finish, usage, errors).
// The SDK and its providers are imported on first use (./sdk, a separate file in the build) so the
// agent-server's cold start skips them.
import type { LanguageModel, ToolSet } from "ai";
import { abortError } from "../errors";
import { ModelError, type ModelConfig, type ModelEvent, type ModelStreamRequest } from "../types";
import { toFinishReason, toModelMessages, toUsage } from "./convert";
import { EventQueue } from "./eventQueue";
import { deltaFilter } from "./leanSse";

/** What an attempt learned, read by the retry loop to classify a failure. */
export interface AttemptState {
  /** The endpoint answered with response headers (so a later failure is mid-stream). */
  responded: boolean;
  timedOut: boolean;
  url?: string;
  /** HTTP status of the response, once it arrived. */
  status?: number;
}

type Fetch = typeof globalThis.fetch;

/** What a timer waits for: an answer (response headers), more data of a started stream, or a retry. */
export type TimerPhase = "waiting" | "streaming" | "backoff";

/** A clock for the client's waits (injectable so tests fire a timeout by an event, not by time). */
export interface ModelTimers {
  set(fn: () => void, ms: number, phase: TimerPhase): unknown;
  clear(handle: unknown): void;
}

export const REAL_TIMERS: ModelTimers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout | undefined),
};

type Sdk = typeof import("./sdk");
let sdk: Promise<Sdk> | undefined;
/**
 * The one load of the SDK; the build keeps it a runtime load of dist/agent-server-providers.js. A
 * `require`, not `import()`: Node's ESM loader would first scan the 1.4 MB CommonJS file for its
 * export names (≈ 300 ms on the first model step).
 */
function loadSdk(): Promise<Sdk> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a second file, loaded late on purpose (above)
  sdk ??= Promise.resolve().then(() => require("./sdk") as Sdk);
  return sdk;
}

/** The SDK prints warnings with console.warn; stdout/stderr belong to us, so turn that off. */
function silenceSdkWarnings(): void {
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
}

async function loadModel(config: ModelConfig, fetchImpl: Fetch): Promise<LanguageModel> {
  const { createAnthropic, createOpenAICompatible } = await loadSdk();
  if (config.provider === "anthropic") {
    const provider = createAnthropic({
      apiKey: config.apiKey ?? "",
      ...(config.baseUrl ? { baseURL: config.baseUrl } : {}),
      fetch: fetchImpl,
    });
    return provider(config.model);
  }
  const provider = createOpenAICompatible({
    name: "openai-compatible",
    baseURL: config.baseUrl ?? "https://api.openai.com/v1",
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    includeUsage: true,
    fetch: fetchImpl,
  });
  return provider.chatModel(config.model);
}

export async function* streamAttempt(
  config: ModelConfig,
  request: ModelStreamRequest,
  state: AttemptState,
  timers: ModelTimers = REAL_TIMERS,
): AsyncGenerator<ModelEvent> {
  const { signal } = request;
  if (signal.aborted) throw abortError();
  const controller = new AbortController();
  const onAbort = (): void => controller.abort();
  signal.addEventListener("abort", onAbort, { once: true });
  const timeoutMs = config.timeoutMs ?? 0;
  let timer: unknown;
  let over = false;
  const arm = (): void => {
    if (timeoutMs <= 0 || over) return;
    timers.clear(timer);
    timer = timers.set(
      () => {
        state.timedOut = true;
        controller.abort();
      },
      timeoutMs,
      state.responded ? "streaming" : "waiting",
    );
  };
  const fetchImpl: Fetch = async (input, init) => {
    state.url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    arm(); // the endpoint's clock starts with the request, not with our (lazy, possibly slow) SDK load
    const res = await globalThis.fetch(input, init);
    state.responded = true;
    state.status = res.status;
    arm();
    if (config.provider !== "openai-compatible" || !res.ok || !res.body || !isEventStream(res)) return res;
    const body = res.body.pipeThrough(deltaFilter((d) => events.push(d), arm));
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  const events = new EventQueue();

  try {
    const [{ streamText, jsonSchema }, model] = await Promise.all([loadSdk(), loadModel(config, fetchImpl)]);
    silenceSdkWarnings();
    const tools: ToolSet = {};
    for (const t of request.tools) tools[t.name] = { description: t.description, inputSchema: jsonSchema(t.inputSchema) };
    const result = streamText({
      model,
      system: request.system,
      messages: toModelMessages(request.messages),
      ...(request.tools.length > 0 ? { tools } : {}),
      maxRetries: 0,
      abortSignal: controller.signal,
      // The default handler console.error()s the raw error, response body and all (which may echo
      // the key). Errors reach us as `error` parts of fullStream instead.
      onError: () => undefined,
    });
    void pumpSdk(result.fullStream, events, arm, () => signal.aborted || state.timedOut);
    for (let ev = await events.next(); ev !== null; ev = await events.next()) yield ev;
  } finally {
    over = true;
    timers.clear(timer);
    signal.removeEventListener("abort", onAbort);
    if (!controller.signal.aborted) controller.abort(); // the consumer stopped early: release the connection
  }
}

function isEventStream(res: Response): boolean {
  return (res.headers.get("content-type") ?? "").includes("text/event-stream");
}

type FullStream = ReturnType<Sdk["streamText"]>["fullStream"];

/** The SDK's side of the answer into the queue: tool calls, the finish, and any failure, in order. */
async function pumpSdk(parts: FullStream, events: EventQueue, arm: () => void, stopped: () => boolean): Promise<void> {
  try {
    let finished = false;
    for await (const part of parts) {
      arm();
      switch (part.type) {
        case "text-delta":
          if (part.text) events.push({ type: "text-delta", text: part.text });
          break;
        case "reasoning-delta":
          if (part.text) events.push({ type: "reasoning-delta", text: part.text });
          break;
        case "tool-call":
          events.push({ type: "tool-call", toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
          break;
        case "error":
          throw part.error;
        case "abort":
          throw abortError();
        case "finish": {
          if (part.finishReason === "error") throw new ModelError("protocol", "The model stream reported an error without details.");
          finished = true;
          const usage = toUsage(part.totalUsage);
          events.push({ type: "finish", reason: toFinishReason(part.finishReason), ...(usage ? { usage } : {}) });
          break;
        }
        default:
          break;
      }
    }
    if (!finished) throw stopped() ? abortError() : new ModelError("protocol", "The model stream ended before it finished.");
    events.end();
  } catch (err) {
    events.fail(err);
  }
}
