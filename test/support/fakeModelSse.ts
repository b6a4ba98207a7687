// Wire writers for the fake model server: OpenAI Chat Completions chunks and Anthropic Messages
// events, both as SSE. Pure functions of a scripted reply; `fakeModelServer.ts` owns the HTTP side.
import type { FakeReply, FakeToolCall } from "./fakeModelServer";

export type Protocol = "openai" | "anthropic";

/** One SSE frame: `event` is only used by the Anthropic protocol. */
export interface SseFrame {
  event?: string;
  data: string;
}

export function frameToText(frame: SseFrame): string {
  return `${frame.event ? `event: ${frame.event}\n` : ""}data: ${frame.data}\n\n`;
}

/** Splits tool-call arguments the way real servers do: 5 code points per fragment, mid-token. */
export function splitArgs(args: unknown, size = 5): string[] {
  const chars = Array.from(JSON.stringify(args ?? {}));
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out;
}

export function chunksOf(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return (typeof value === "string" ? [value] : value).filter((c) => c.length > 0);
}

export function estimateUsage(reply: FakeReply, requestBody: unknown): { input: number; output: number } {
  if (reply.usage) return reply.usage;
  const outChars = [...chunksOf(reply.text), ...chunksOf(reply.reasoning)].join("").length + JSON.stringify(reply.toolCalls ?? []).length;
  return { input: Math.ceil(JSON.stringify(requestBody ?? "").length / 4), output: Math.ceil(outChars / 4) };
}

function toolId(protocol: Protocol, call: FakeToolCall, seq: number, i: number): string {
  return call.id ?? (protocol === "openai" ? `call_${seq}_${i}` : `toolu_${seq}_${i}`);
}

function openAiFinish(reply: FakeReply): string {
  return reply.finishReason ?? (reply.toolCalls?.length ? "tool_calls" : "stop");
}

export function openAiFrames(reply: FakeReply, model: string, seq: number, requestBody: unknown): SseFrame[] {
  const base = { id: `chatcmpl-fake-${seq}`, object: "chat.completion.chunk", created: 1_700_000_000, model };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): SseFrame => ({
    data: JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] }),
  });
  const frames: SseFrame[] = [chunk({ role: "assistant", content: "" })];
  for (const r of chunksOf(reply.reasoning)) frames.push(chunk({ reasoning_content: r }));
  for (const t of chunksOf(reply.text)) frames.push(chunk({ content: t }));
  (reply.toolCalls ?? []).forEach((call, index) => {
    const id = toolId("openai", call, seq, index);
    frames.push(chunk({ tool_calls: [{ index, id, type: "function", function: { name: call.name, arguments: "" } }] }));
    for (const frag of splitArgs(call.args)) frames.push(chunk({ tool_calls: [{ index, function: { arguments: frag } }] }));
  });
  frames.push(chunk({}, openAiFinish(reply)));
  const usage = estimateUsage(reply, requestBody);
  frames.push({
    data: JSON.stringify({
      ...base,
      choices: [],
      usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
    }),
  });
  frames.push({ data: "[DONE]" });
  return frames;
}

const anthropicStop: Record<string, string> = { stop: "end_turn", tool_calls: "tool_use", length: "max_tokens" };

export function anthropicFrames(reply: FakeReply, model: string, seq: number, requestBody: unknown): SseFrame[] {
  const frames: SseFrame[] = [];
  const ev = (event: string, data: Record<string, unknown>): void => {
    frames.push({ event, data: JSON.stringify({ type: event, ...data }) });
  };
  const usage = estimateUsage(reply, requestBody);
  ev("message_start", {
    message: {
      id: `msg_fake_${seq}`,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: usage.input, output_tokens: 1 },
    },
  });
  let index = 0;
  const reasoning = chunksOf(reply.reasoning);
  if (reasoning.length > 0) {
    ev("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } });
    for (const r of reasoning) ev("content_block_delta", { index, delta: { type: "thinking_delta", thinking: r } });
    ev("content_block_delta", { index, delta: { type: "signature_delta", signature: `fake-signature-${seq}` } });
    ev("content_block_stop", { index });
    index++;
  }
  const text = chunksOf(reply.text);
  if (text.length > 0) {
    ev("content_block_start", { index, content_block: { type: "text", text: "" } });
    for (const t of text) ev("content_block_delta", { index, delta: { type: "text_delta", text: t } });
    ev("content_block_stop", { index });
    index++;
  }
  (reply.toolCalls ?? []).forEach((call, i) => {
    const id = toolId("anthropic", call, seq, i);
    ev("content_block_start", { index, content_block: { type: "tool_use", id, name: call.name, input: {} } });
    for (const frag of splitArgs(call.args)) ev("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: frag } });
    ev("content_block_stop", { index });
    index++;
  });
  const stop = anthropicStop[openAiFinish(reply)] ?? "end_turn";
  ev("message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: usage.output } });
  ev("message_stop", {});
  return frames;
}

export function errorBody(protocol: Protocol, status: number, message: string): unknown {
  if (protocol === "anthropic") {
    const type =
      status === 401 ? "authentication_error" : status === 429 ? "rate_limit_error" : status >= 500 ? "api_error" : "invalid_request_error";
    return { type: "error", error: { type, message } };
  }
  return { error: { message, type: status === 429 ? "rate_limit_exceeded" : "invalid_request_error", code: status } };
}
