// The AI SDK surface the model layer uses, in one module. The agent-server build emits it as its own
// file (dist/agent-server-providers.js, see esbuild.mjs) that aiSdkStream loads on the first model
// step, so the ~1 MB of SDK and providers is neither read nor parsed before `initialize` is answered.
export { jsonSchema, streamText } from "ai";
export { createAnthropic } from "@ai-sdk/anthropic";
export { createOpenAICompatible } from "@ai-sdk/openai-compatible";
