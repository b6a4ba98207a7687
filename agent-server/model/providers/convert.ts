// Our ChatMessage[] → the AI SDK's ModelMessage[], and the SDK's finish reasons/usage → ours.
// Reasoning is not sent back: providers differ on whether they accept it, and none need it here.
import type { AssistantContent, FinishReason as SdkFinishReason, LanguageModelUsage, ModelMessage } from "ai";
import type { ChatMessage, FinishReason, Usage } from "../types";

export function toModelMessages(messages: readonly ChatMessage[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const m of messages) {
    switch (m.role) {
      case "user": {
        const content = m.content.map((p) =>
          p.type === "text" ? { type: "text" as const, text: p.text } : { type: "image" as const, image: p.data, mediaType: p.mimeType },
        );
        if (content.length > 0) out.push({ role: "user", content });
        break;
      }
      case "assistant": {
        const content: Exclude<AssistantContent, string> = [];
        for (const p of m.content) {
          if (p.type === "text" && p.text) content.push({ type: "text", text: p.text });
          if (p.type === "tool-call") content.push({ type: "tool-call", toolCallId: p.toolCallId, toolName: p.toolName, input: p.input });
        }
        if (content.length > 0) out.push({ role: "assistant", content });
        break;
      }
      case "tool": {
        const content = m.content.map((r) => ({
          type: "tool-result" as const,
          toolCallId: r.toolCallId,
          toolName: r.toolName,
          output: r.isError ? { type: "error-text" as const, value: r.output } : { type: "text" as const, value: r.output },
        }));
        if (content.length > 0) out.push({ role: "tool", content });
        break;
      }
    }
  }
  return out;
}

export function toFinishReason(reason: SdkFinishReason | undefined): FinishReason {
  switch (reason) {
    case "stop":
    case "length":
    case "content-filter":
    case "tool-calls":
      return reason;
    default:
      return "other";
  }
}

export function toUsage(usage: LanguageModelUsage | undefined): Usage | undefined {
  if (!usage) return undefined;
  const out: Usage = {};
  if (typeof usage.inputTokens === "number") out.inputTokens = usage.inputTokens;
  if (typeof usage.outputTokens === "number") out.outputTokens = usage.outputTokens;
  if (typeof usage.totalTokens === "number") out.totalTokens = usage.totalTokens;
  else if (out.inputTokens !== undefined && out.outputTokens !== undefined) out.totalTokens = out.inputTokens + out.outputTokens;
  return Object.keys(out).length > 0 ? out : undefined;
}
