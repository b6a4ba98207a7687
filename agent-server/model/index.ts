// Entry points of the model layer. STUB: replaced by the model work (providers, demo, detection).
import type { ModelClient, ModelConfig } from "./types";

export type { ModelClient, ModelConfig } from "./types";

export interface ResolvedModels {
  /** Every model a session may pick (the `model` config option values), demo last. */
  models: ModelConfig[];
  /** The id new sessions start with. Never the demo when a real model is configured. */
  defaultId: string;
}

/** Reads the environment contract (MANIFOLD_MODEL_PROVIDER, MANIFOLD_MODEL_BASE_URL, MANIFOLD_MODEL, OPENAI_API_KEY, ANTHROPIC_API_KEY). */
export async function resolveModels(_env: NodeJS.ProcessEnv): Promise<ResolvedModels> {
  throw new Error("resolveModels: not implemented yet");
}

export function createModelClient(_config: ModelConfig): ModelClient {
  throw new Error("createModelClient: not implemented yet");
}
