// The environment contract (the variables below) → the models a session may pick and the default.
//
//   MANIFOLD_MODEL_PROVIDER   openai-compatible | anthropic | demo   (optional)
//   MANIFOLD_MODEL_BASE_URL   endpoint base including /v1, e.g. http://127.0.0.1:11434/v1 (Anthropic: https://api.anthropic.com/v1)
//   MANIFOLD_MODEL            model name; a comma-separated list offers several (first is default)
//   OPENAI_API_KEY / ANTHROPIC_API_KEY
//   MANIFOLD_MODEL_TIMEOUT_MS, MANIFOLD_MODEL_RETRY_BASE_MS, MANIFOLD_MODEL_CONTEXT_WINDOW
//   MANIFOLD_MODEL_VISION=1|0 says whether the configured models see images (default: ask the endpoint, else by name; visionProbe.ts)
//   MANIFOLD_DETECT_LOCAL_MODELS=0 disables probing Ollama / LM Studio (tests must be hermetic)
//
// With no provider named, a key or a base URL configures a real provider; with nothing at all, local
// servers are probed and offered; otherwise the demo model is the default. The demo model is always
// offered, last, and is never the default when anything real is available.
import { contextWindowFor } from "./contextWindows";
import { DEFAULT_LOCAL_SERVERS, detectLocalServers, type LocalServer } from "./detect";
import { DEMO_MODEL_CONFIG } from "./demo/demoModel";
import { ModelConfigError, type ModelConfig, type ProviderId } from "./types";
import { visionFor, visionOverride } from "./vision";
import { startVision, type EndpointKind } from "./visionProbe";

export interface ResolvedModels {
  /** Every model a session may pick (the `model` config option values), demo last. */
  models: ModelConfig[];
  /** The id new sessions start with. Never the demo when a real model is configured. */
  defaultId: string;
}

export interface ResolveOptions {
  /** Servers to probe when nothing is configured (tests point this at the fake server). */
  localServers?: readonly LocalServer[];
  detectTimeoutMs?: number;
  /** For the vision probes (visionProbe.ts); default the global fetch. */
  fetch?: typeof fetch;
  visionTimeoutMs?: number;
}

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_RETRY_BASE_MS = 1_000;
export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";
/** Used when only a key is set and MANIFOLD_MODEL is not. */
export const DEFAULT_MODEL: Record<"openai-compatible" | "anthropic", string> = {
  "openai-compatible": "gpt-4o-mini",
  anthropic: "claude-sonnet-4-5",
};

const PROVIDERS: readonly ProviderId[] = ["openai-compatible", "anthropic", "demo"];

function nonEmpty(v: string | undefined): string | undefined {
  const t = v?.trim();
  return t ? t : undefined;
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number | undefined): number | undefined {
  const raw = nonEmpty(env[name]);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0)
    throw new ModelConfigError(`${name} must be a non-negative whole number of milliseconds or tokens, got "${raw}".`);
  return n;
}

function parseProvider(raw: string | undefined): ProviderId | undefined {
  const v = nonEmpty(raw)?.toLowerCase();
  if (v === undefined) return undefined;
  if (v === "openai" || v === "openai_compatible") return "openai-compatible";
  if (v === "fake") return "demo";
  if ((PROVIDERS as readonly string[]).includes(v)) return v as ProviderId;
  throw new ModelConfigError(`Unknown model provider "${raw}" in MANIFOLD_MODEL_PROVIDER. Use one of: ${PROVIDERS.join(", ")}.`);
}

export function parseBaseUrl(raw: string | undefined, varName = "MANIFOLD_MODEL_BASE_URL"): string | undefined {
  const v = nonEmpty(raw);
  if (v === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw new ModelConfigError(`${varName} is not a valid URL: "${v}". Expected something like http://127.0.0.1:11434/v1.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ModelConfigError(`${varName} must be an http(s) URL, got "${url.protocol}".`);
  }
  if (url.username || url.password) {
    throw new ModelConfigError(`${varName} must not contain credentials; put the key in OPENAI_API_KEY or ANTHROPIC_API_KEY.`);
  }
  return v.replace(/\/+$/, "");
}

function modelNames(env: NodeJS.ProcessEnv): string[] {
  return (nonEmpty(env.MANIFOLD_MODEL) ?? "")
    .split(",")
    .map((m) => m.trim())
    .filter((m) => m.length > 0);
}

const providerLabel: Record<"openai-compatible" | "anthropic", string> = {
  "openai-compatible": "OpenAI-compatible",
  anthropic: "Anthropic",
};

function configured(
  provider: "openai-compatible" | "anthropic",
  env: NodeJS.ProcessEnv,
  common: Pick<ModelConfig, "timeoutMs" | "retryBaseMs">,
  contextOverride: number | undefined,
  vision: boolean | undefined,
): ModelConfig[] {
  const baseUrl = parseBaseUrl(env.MANIFOLD_MODEL_BASE_URL) ?? (provider === "openai-compatible" ? OPENAI_DEFAULT_BASE_URL : undefined);
  const apiKey = nonEmpty(provider === "anthropic" ? env.ANTHROPIC_API_KEY : env.OPENAI_API_KEY);
  const names = modelNames(env);
  if (names.length === 0 && provider === "openai-compatible" && baseUrl !== OPENAI_DEFAULT_BASE_URL) {
    throw new ModelConfigError(`MANIFOLD_MODEL is not set: name the model to use at ${baseUrl} (for example MANIFOLD_MODEL=llama3.1).`);
  }
  return (names.length > 0 ? names : [DEFAULT_MODEL[provider]]).map((model) => ({
    id: `${provider}:${model}`,
    provider,
    model,
    ...(baseUrl ? { baseUrl } : {}),
    ...(apiKey ? { apiKey } : {}),
    label: `${model} (${providerLabel[provider]})`,
    vision: vision ?? visionFor(provider, model),
    contextWindow: contextOverride ?? contextWindowFor(model),
    ...common,
  }));
}

/** Reads the environment contract. Throws `ModelConfigError` on invalid configuration. */
export async function resolveModels(env: NodeJS.ProcessEnv, options: ResolveOptions = {}): Promise<ResolvedModels> {
  const explicit = parseProvider(env.MANIFOLD_MODEL_PROVIDER);
  const common = {
    timeoutMs: positiveInt(env, "MANIFOLD_MODEL_TIMEOUT_MS", DEFAULT_TIMEOUT_MS),
    retryBaseMs: positiveInt(env, "MANIFOLD_MODEL_RETRY_BASE_MS", DEFAULT_RETRY_BASE_MS),
  };
  const contextOverride = positiveInt(env, "MANIFOLD_MODEL_CONTEXT_WINDOW", undefined);
  const vision = visionOverride(env.MANIFOLD_MODEL_VISION);
  parseBaseUrl(env.MANIFOLD_MODEL_BASE_URL); // validate early whatever the provider
  const demo: ModelConfig = { ...DEMO_MODEL_CONFIG };
  const kinds = new Map<ModelConfig, EndpointKind>();
  const result = (real: ModelConfig[]): ResolvedModels => {
    // Asked in the background: start-up and `session/new` never wait for an endpoint's answer.
    startVision(real, {
      ...(vision !== undefined ? { override: vision } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.visionTimeoutMs !== undefined ? { timeoutMs: options.visionTimeoutMs } : {}),
      kindOf: (m) => kinds.get(m),
    });
    const models = [...real, demo];
    return { models, defaultId: (models[0] as ModelConfig).id };
  };

  if (explicit === "demo") return result([]);
  if (explicit) return result(configured(explicit, env, common, contextOverride, vision));

  const hasOpenAi = nonEmpty(env.OPENAI_API_KEY) !== undefined;
  const hasAnthropic = nonEmpty(env.ANTHROPIC_API_KEY) !== undefined;
  const hasEndpoint = nonEmpty(env.MANIFOLD_MODEL_BASE_URL) !== undefined;
  if (hasOpenAi || hasAnthropic || hasEndpoint) {
    const real: ModelConfig[] = [];
    if (hasOpenAi || hasEndpoint) real.push(...configured("openai-compatible", env, common, contextOverride, vision));
    if (hasAnthropic) real.push(...configured("anthropic", env, common, contextOverride, vision));
    return result(real);
  }

  if (nonEmpty(env.MANIFOLD_DETECT_LOCAL_MODELS) === "0") return result([]);
  const detected = await detectLocalServers(options.localServers ?? DEFAULT_LOCAL_SERVERS, options.detectTimeoutMs);
  const local = detected.flatMap(({ server, models }) =>
    models.map((model): ModelConfig => {
      const m: ModelConfig = {
        id: `${server.id}:${model}`,
        provider: "openai-compatible",
        model,
        baseUrl: server.baseUrl,
        label: `${model} (${server.name})`,
        vision: vision ?? visionFor("openai-compatible", model),
        contextWindow: contextOverride ?? contextWindowFor(model),
        ...common,
      };
      if (server.id === "ollama" || server.id === "lmstudio") kinds.set(m, server.id);
      return m;
    }),
  );
  // MANIFOLD_MODEL may name one of the detected models: start with it.
  const wanted = modelNames(env)[0];
  const preferred = local.findIndex((m) => m.model === wanted);
  if (preferred > 0) local.unshift(...local.splice(preferred, 1));
  return result(local);
}
