// Whether a model sees images, asked of its endpoint where the endpoint can tell:
// Ollama's `POST /api/show` capabilities, LM Studio's `GET /api/v0/models/{name}` type, OpenRouter's
// `GET {base}/models` input modalities. MANIFOLD_MODEL_VISION overrides; a model whose endpoint
// refused images (a 400 naming them, `imageRefusal`) is text-only for the rest of the process;
// otherwise, or when the endpoint is silent, slow (one short deadline per model) or answers
// something malformed, the name list (vision.ts) decides. Results are cached per model per process.
import * as z from "zod/v4";
import { ModelError, type ChatMessage, type ModelConfig, type ProviderId, type VisionSource } from "./types";
import { imageAsText, visionFor } from "./vision";

export type { VisionSource } from "./types";
export type EndpointKind = "ollama" | "lmstudio" | "openrouter";
export interface VisionDecision {
  vision: boolean;
  source: VisionSource;
}

export interface VisionProbeInput {
  provider: ProviderId;
  model: string;
  baseUrl?: string;
  apiKey?: string;
  /** MANIFOLD_MODEL_VISION, parsed (`visionOverride`). */
  override?: boolean;
  /** The kind of server when known otherwise (local-server detection). */
  kind?: EndpointKind;
  fetch?: typeof fetch;
  /** One deadline for all of this model's probes (default `VISION_PROBE_TIMEOUT_MS`). */
  timeoutMs?: number;
}

export const VISION_PROBE_TIMEOUT_MS = 1_500;

const SOURCE_TEXT: Record<VisionSource, string> = {
  setting: "MANIFOLD_MODEL_VISION says so",
  "endpoint:ollama": "Ollama's /api/show says so",
  "endpoint:lmstudio": "LM Studio's model type says so",
  "endpoint:openrouter": "OpenRouter's input modalities say so",
  "name list": "going by its name",
  "learned (400)": "its endpoint refused an image",
};

/** Why, in words: "Ollama's /api/show says so". */
export function describeVisionSource(source: VisionSource): string {
  return SOURCE_TEXT[source];
}

/** What a model sees, for a client: "sees images (Ollama's /api/show says so)". */
export function visionSummary(config: Pick<ModelConfig, "vision" | "visionSource">): string {
  const what = config.vision === true ? "sees images" : "cannot see images";
  return `${what} (${describeVisionSource(config.visionSource ?? "name list")})`;
}

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** Which endpoints to ask, in order, from the provider and base URL (default ports; openrouter.ai; any other loopback server may be either local kind). */
export function endpointKinds(provider: ProviderId, baseUrl: string | undefined, hint?: EndpointKind): EndpointKind[] {
  if (provider !== "openai-compatible" || !baseUrl) return [];
  if (hint) return [hint];
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return [];
  }
  if (url.hostname === "openrouter.ai" || url.hostname.endsWith(".openrouter.ai")) return ["openrouter"];
  if (url.port === "11434") return ["ollama"];
  if (url.port === "1234") return ["lmstudio"];
  return LOOPBACK.test(url.hostname) ? ["ollama", "lmstudio"] : [];
}

const ollamaShow = z.object({ capabilities: z.array(z.string()) });
const lmStudioModel = z.object({ type: z.string().min(1) });
const openRouterModels = z.object({ data: z.array(z.unknown()) });
const openRouterModel = z.object({
  id: z.string(),
  architecture: z.object({ input_modalities: z.array(z.string()) }),
});

interface Probe {
  fetch: typeof fetch;
  baseUrl: string;
  model: string;
  headers: Record<string, string>;
  signal: AbortSignal;
}

/** The JSON body of a 200, or undefined (any failure: the caller falls back). */
async function json(p: Probe, url: string, init: RequestInit = {}): Promise<unknown> {
  const res = await p.fetch(url, { ...init, headers: { ...p.headers, ...init.headers }, signal: p.signal });
  if (res.status !== 200) {
    await res.body?.cancel().catch(() => undefined);
    return undefined;
  }
  return (await res.json()) as unknown;
}

const ASK: Record<EndpointKind, (p: Probe) => Promise<boolean | undefined>> = {
  async ollama(p) {
    const body = JSON.stringify({ model: p.model });
    const parsed = ollamaShow.safeParse(
      await json(p, `${new URL(p.baseUrl).origin}/api/show`, { method: "POST", body, headers: { "content-type": "application/json" } }),
    );
    return parsed.success ? parsed.data.capabilities.includes("vision") : undefined;
  },
  async lmstudio(p) {
    const path = p.model.split("/").map(encodeURIComponent).join("/");
    const parsed = lmStudioModel.safeParse(await json(p, `${new URL(p.baseUrl).origin}/api/v0/models/${path}`));
    return parsed.success ? parsed.data.type === "vlm" : undefined;
  },
  async openrouter(p) {
    const list = openRouterModels.safeParse(await json(p, `${p.baseUrl.replace(/\/+$/, "")}/models`));
    if (!list.success) return undefined;
    for (const entry of list.data.data) {
      const m = openRouterModel.safeParse(entry);
      if (m.success && m.data.id === p.model) return m.data.architecture.input_modalities.includes("image");
    }
    return undefined;
  },
};

const decided = new Map<string, Promise<VisionDecision>>();
const textOnly = new Set<string>();

function keyOf(c: { provider: ProviderId; baseUrl?: string; model: string }): string {
  return `${c.provider}\u0000${c.baseUrl ?? ""}\u0000${c.model}`;
}

/** Forgets every cached decision and learned refusal (tests). */
export function clearVisionCache(): void {
  decided.clear();
  textOnly.clear();
}

async function askEndpoints(input: VisionProbeInput, kinds: readonly EndpointKind[]): Promise<VisionDecision> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error("vision probe timed out")), input.timeoutMs ?? VISION_PROBE_TIMEOUT_MS);
  try {
    return await askEach(input, kinds, deadline.signal);
  } finally {
    clearTimeout(timer);
  }
}

async function askEach(input: VisionProbeInput, kinds: readonly EndpointKind[], signal: AbortSignal): Promise<VisionDecision> {
  const probe: Probe = {
    fetch: input.fetch ?? fetch,
    baseUrl: input.baseUrl ?? "",
    model: input.model,
    headers: { accept: "application/json", ...(input.apiKey ? { authorization: `Bearer ${input.apiKey}` } : {}) },
    signal,
  };
  for (const kind of kinds) {
    if (signal.aborted) break;
    try {
      const vision = await ASK[kind](probe);
      if (vision !== undefined) return { vision, source: `endpoint:${kind}` };
    } catch {
      // refused, unreachable, timed out or not JSON: the next kind, then the list
    }
  }
  return { vision: visionFor(input.provider, input.model), source: "name list" };
}

/** Decides whether the model sees images: the setting, a refusal learned this process, its endpoint, or the name list. Never throws. */
export function decideVision(input: VisionProbeInput): Promise<VisionDecision> {
  const key = keyOf(input);
  if (textOnly.has(key)) return Promise.resolve({ vision: false, source: "learned (400)" });
  if (input.override !== undefined) return Promise.resolve({ vision: input.override, source: "setting" });
  if (input.provider === "demo") return Promise.resolve({ vision: false, source: "name list" });
  const kinds = endpointKinds(input.provider, input.baseUrl, input.kind);
  if (kinds.length === 0) return Promise.resolve({ vision: visionFor(input.provider, input.model), source: "name list" });
  let pending = decided.get(key);
  if (!pending) {
    pending = askEndpoints(input, kinds);
    decided.set(key, pending);
  }
  return pending;
}

/** Each model's decision still on its way (`applyVision`), so the first request that reads it can wait for it. */
const pendingVision = new WeakMap<ModelConfig, Promise<void>>();

/**
 * Resolves once `config.vision` holds its endpoint's answer (at once when nothing was asked). The
 * probes run in the background from start-up, so a new session never waits for them; a model
 * request waits, bounded by the probe's own deadline.
 */
export function visionKnown(config: ModelConfig): Promise<void> {
  return pendingVision.get(config) ?? Promise.resolve();
}

/** Starts `applyVision` without waiting for it; each model's request waits through `visionKnown`. */
export function startVision(models: ModelConfig[], opts: Parameters<typeof applyVision>[1]): void {
  const all = applyVision(models, opts);
  for (const m of models) pendingVision.set(m, all);
}

/** Sets `vision` and `visionSource` on each model from `decideVision` (in parallel; each bounded by its deadline). */
export async function applyVision(
  models: ModelConfig[],
  opts: { override?: boolean; fetch?: typeof fetch; timeoutMs?: number; kindOf?: (m: ModelConfig) => EndpointKind | undefined },
): Promise<void> {
  await Promise.all(
    models.map(async (m) => {
      const kind = opts.kindOf?.(m);
      const d = await decideVision({
        provider: m.provider,
        model: m.model,
        ...(m.baseUrl !== undefined ? { baseUrl: m.baseUrl } : {}),
        ...(m.apiKey !== undefined ? { apiKey: m.apiKey } : {}),
        ...(opts.override !== undefined ? { override: opts.override } : {}),
        ...(kind ? { kind } : {}),
        ...(opts.fetch ? { fetch: opts.fetch } : {}),
        ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
      });
      m.vision = d.vision;
      if (d.source !== "name list") m.visionSource = d.source; // absent: the name list (configs stay as they were)
      if (d.source.startsWith("endpoint:")) console.error(`[agent-server] ${m.label} ${visionSummary(m)}`);
    }),
  );
}

const NAMES_IMAGES = /image|vision|multimodal|multi-modal/i;
const REFUSES = /support|vision|multimodal|multi-modal|text[- ]only|only text|modalit/i;
const REFUSAL_STATUSES: ReadonlySet<number> = new Set([400, 404, 415, 422]);

/** A model error that says the endpoint does not take images ("image input is not supported", "does not support images", …). */
export function isImageRefusal(err: unknown): boolean {
  if (!(err instanceof ModelError) || err.status === undefined || !REFUSAL_STATUSES.has(err.status)) return false;
  const said = /The endpoint said: "(.*)"/s.exec(err.message)?.[1] ?? err.message;
  return NAMES_IMAGES.test(said) && REFUSES.test(said);
}

export function hasImages(messages: readonly ChatMessage[]): boolean {
  return messages.some((m) => m.role === "user" && m.content.some((p) => p.type === "image"));
}

/** The messages with every image replaced by its text placeholder (the same one history.ts writes for a blind model). */
export function withoutImages(messages: readonly ChatMessage[], why: string): ChatMessage[] {
  return messages.map((m) =>
    m.role === "user"
      ? { role: "user", content: m.content.map((p) => (p.type === "image" ? imageAsText(p.mimeType, p.data, undefined, why) : p)) }
      : m,
  );
}

/** Remembers the model as text-only for the rest of the process (its config says so from the next request on). */
export function learnTextOnly(config: ModelConfig): void {
  textOnly.add(keyOf(config));
  config.vision = false;
  config.visionSource = "learned (400)";
}
