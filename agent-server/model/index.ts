// Entry points of the model layer: which models exist (from the environment) and a client for one.
import { createDemoModelClient } from "./demo/demoModel";
import { createAiSdkClient, type RetryOptions } from "./providers/aiSdkClient";
import type { ModelClient, ModelConfig } from "./types";

export { resolveModels } from "./resolve";
export { DEMO_MODEL_CONFIG } from "./demo/demoModel";
export type { RetryOptions } from "./providers/aiSdkClient";

/** A client for one model. Cheap: the AI SDK is loaded on the first `stream` call, not here. */
export function createModelClient(config: ModelConfig, retry?: RetryOptions): ModelClient {
  if (config.provider === "demo") return createDemoModelClient(config);
  return createAiSdkClient(config, retry);
}
