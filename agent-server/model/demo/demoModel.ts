// The demo model: offline, scripted, deterministic, always labelled "Demo model (offline)".
// Streams its text in small chunks and emits real tool calls (see script.ts).
import { abortError } from "../errors";
import type { ModelClient, ModelConfig, ModelEvent, ModelStreamRequest } from "../types";
import { chunkText, demoStep } from "./script";

export const DEMO_MODEL_CONFIG: Readonly<ModelConfig> = Object.freeze({
  id: "demo",
  provider: "demo",
  model: "demo",
  label: "Demo model (offline)",
  vision: false,
  contextWindow: 128_000,
});

const approxTokens = (s: string): number => Math.ceil(s.length / 4);

export function createDemoModelClient(config: ModelConfig = DEMO_MODEL_CONFIG): ModelClient {
  return {
    config,
    isDemo: true,
    async *stream(request: ModelStreamRequest): AsyncGenerator<ModelEvent> {
      const { signal } = request;
      if (signal.aborted) throw abortError();
      const step = demoStep(request.messages, new Set(request.tools.map((t) => t.name)));
      for (const text of chunkText(step.text)) {
        if (signal.aborted) throw abortError();
        yield { type: "text-delta", text };
      }
      if (signal.aborted) throw abortError();
      if (step.toolCall) {
        yield {
          type: "tool-call",
          toolCallId: `demo-call-${request.messages.length}`,
          toolName: step.toolCall.toolName,
          input: step.toolCall.input,
        };
      }
      const inputTokens = approxTokens(request.system + JSON.stringify(request.messages));
      const outputTokens = approxTokens(step.text + JSON.stringify(step.toolCall ?? ""));
      yield {
        type: "finish",
        reason: step.toolCall ? "tool-calls" : "stop",
        usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
      };
    },
  };
}
