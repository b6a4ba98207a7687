// The model contract. The agent loop talks only to this interface; providers (Vercel AI SDK v6,
// the offline demo model) live behind it. One call = one model step; tools are never executed here.

export type UserPart = { type: "text"; text: string } | { type: "image"; data: string; mimeType: string };

export type AssistantPart =
  | { type: "text"; text: string }
  | { type: "reasoning"; text: string }
  | { type: "tool-call"; toolCallId: string; toolName: string; input: unknown };

export type ToolResultPart = { type: "tool-result"; toolCallId: string; toolName: string; output: string; isError: boolean };

export type ChatMessage =
  { role: "user"; content: UserPart[] } | { role: "assistant"; content: AssistantPart[] } | { role: "tool"; content: ToolResultPart[] };

/** A tool as the model sees it: name, description and a JSON Schema for its input. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
}

export type FinishReason = "stop" | "tool-calls" | "length" | "content-filter" | "other";

export type ModelEvent =
  | { type: "text-delta"; text: string }
  | { type: "reasoning-delta"; text: string }
  | { type: "tool-call"; toolCallId: string; toolName: string; input: unknown }
  | { type: "finish"; reason: FinishReason; usage?: Usage };

export interface ModelStreamRequest {
  system: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
  signal: AbortSignal;
}

export type ProviderId = "openai-compatible" | "anthropic" | "demo";

/** Who decided whether a model sees images (`visionProbe.ts`). */
export type VisionSource = "setting" | "endpoint:ollama" | "endpoint:lmstudio" | "endpoint:openrouter" | "name list" | "learned (400)";

/** What one session's `model` config option points at. `apiKey` is never logged or persisted. */
export interface ModelConfig {
  /** Stable id used as the `model` config option value, e.g. `openai-compatible:gpt-4o-mini` or `demo`. */
  id: string;
  provider: ProviderId;
  model: string;
  baseUrl?: string;
  apiKey?: string;
  /** Human label for pickers, e.g. "gpt-4o-mini (Ollama)". */
  label: string;
  /** Whether the model can see images (`visionProbe.ts`: MANIFOLD_MODEL_VISION, its endpoint, else a per-name heuristic, `vision.ts`); without it images reach it as text placeholders. */
  vision?: boolean;
  /** Who decided `vision` when the name list did not (absent: the name list): "setting" | "endpoint:ollama" | "endpoint:lmstudio" | "endpoint:openrouter" | "name list" | "learned (400)". */
  visionSource?: VisionSource;
  /** Context window size in tokens when known (for `usage_update.size`). */
  contextWindow?: number;
  /** Give up (kind `timeout`) when the endpoint sends nothing for this long (MANIFOLD_MODEL_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Base delay of the retry backoff for 429/5xx (MANIFOLD_MODEL_RETRY_BASE_MS; tests set it low). */
  retryBaseMs?: number;
}

export interface ModelClient {
  readonly config: Readonly<ModelConfig>;
  readonly isDemo: boolean;
  /** Streams one model step. Throws `ModelError` on failure, an AbortError when `signal` aborts. */
  stream(request: ModelStreamRequest): AsyncIterable<ModelEvent>;
}

export type ModelErrorKind = "auth" | "rate-limit" | "server" | "timeout" | "protocol" | "network" | "bad-request";

/** Invalid model configuration (unknown provider, bad URL, missing model), found at resolve time. */
export class ModelConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ModelConfigError";
  }
}

/** A model failure, with a message fit to show the user (never containing a key). */
export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "ModelError";
  }
}
