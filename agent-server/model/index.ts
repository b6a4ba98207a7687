// Entry points of the model layer: which models exist (from the environment) and a client for one.
import { createDemoModelClient } from "./demo/demoModel";
import { createAiSdkClient, type RetryOptions } from "./providers/aiSdkClient";
import type { ModelClient, ModelConfig, ModelEvent, ModelStreamRequest } from "./types";
import { hasImages, isImageRefusal, learnTextOnly, withoutImages } from "./visionProbe";

export { resolveModels } from "./resolve";
export { DEMO_MODEL_CONFIG } from "./demo/demoModel";
export type { RetryOptions } from "./providers/aiSdkClient";

/** A client for one model. Cheap: the AI SDK is loaded on the first `stream` call, not here. */
export function createModelClient(config: ModelConfig, retry?: RetryOptions): ModelClient {
  if (config.provider === "demo") return createDemoModelClient(config);
  return textOnlyOnRefusal(createAiSdkClient(config, retry), config);
}

const REFUSED = "the model's endpoint refused images, so this model is treated as text-only";

/**
 * A request with images that the endpoint refuses as images (`isImageRefusal`) before anything
 * streamed: the model is remembered as text-only for the rest of the process (`config.vision` is
 * false from the next request on) and the same request goes once more with each image replaced by
 * its text placeholder, so the turn goes on.
 */
export function textOnlyOnRefusal(client: ModelClient, config: ModelConfig): ModelClient {
  return {
    config: client.config,
    isDemo: client.isDemo,
    async *stream(request: ModelStreamRequest): AsyncGenerator<ModelEvent> {
      let yielded = false;
      try {
        for await (const event of client.stream(request)) {
          yielded = true;
          yield event;
        }
        return;
      } catch (err) {
        if (yielded || request.signal.aborted || !hasImages(request.messages) || !isImageRefusal(err)) throw err;
        learnTextOnly(config);
        console.error(`[agent-server] ${config.label}: ${REFUSED}; sending the request again without them`);
      }
      yield* client.stream({ ...request, messages: withoutImages(request.messages, REFUSED) });
    },
  };
}
