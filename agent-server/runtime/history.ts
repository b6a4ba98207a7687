// Session log → model conversation. Pure. Reasoning is not sent back; every tool call in the log
// is balanced by a result (the loop and recovery guarantee it), unbalanced ones are skipped. A turn
// that got no reply is closed by a short assistant note, never merged into the next request.
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { AssistantPart, ChatMessage, ToolResultPart, UserPart } from "../model/types";
import type { LogEntry } from "../session/events";
import { initPrompt, isLocalCommand, parseCommand, summaryMessage } from "./slashCommands";

export interface HistoryOptions {
  /** The model sees images; without it each image becomes a text placeholder naming it (default true). */
  vision?: boolean;
}

/** An image the prompt carries: an image block, or an embedded resource whose blob is an image. */
export function isImageBlock(block: ContentBlock): boolean {
  return (
    block.type === "image" ||
    (block.type === "resource" && "blob" in block.resource && (block.resource.mimeType?.startsWith("image/") ?? false))
  );
}

/** How many images the user sent (prompts and steers) after `seq`. */
export function imagesAfter(entries: readonly LogEntry[], seq: number): number {
  let count = 0;
  for (const e of entries) {
    if (e.seq > seq && (e.type === "user/message" || e.type === "user/steer")) count += e.content.filter(isImageBlock).length;
  }
  return count;
}

export function unseenImagesNotice(count: number): string {
  return `The selected model cannot see images, so it was told ${count === 1 ? "an image was" : `${count} images were`} attached but not shown. Pick a vision-capable model (or set MANIFOLD_MODEL_VISION=1 if this one can see images) to send them.`;
}

/** Decoded size of base64 data, without decoding it. */
export function base64Bytes(data: string): number {
  const pad = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - pad);
}

function imagePlaceholder(mimeType: string, data: string, name?: string): UserPart {
  const kib = Math.max(1, Math.round(base64Bytes(data) / 1024));
  return { type: "text", text: `[image${name ? ` ${name}` : ""}: ${mimeType}, ${kib} KiB — not shown: this model cannot see images]` };
}

export function promptToUserParts(content: readonly ContentBlock[], opts: HistoryOptions = {}): UserPart[] {
  const vision = opts.vision ?? true;
  const parts: UserPart[] = [];
  for (const block of content) {
    switch (block.type) {
      case "text":
        parts.push({ type: "text", text: block.text });
        break;
      case "image":
        parts.push(
          vision
            ? { type: "image", data: block.data, mimeType: block.mimeType }
            : imagePlaceholder(block.mimeType, block.data, block.uri ?? undefined),
        );
        break;
      case "resource_link":
        parts.push({ type: "text", text: `[Attached file: ${block.uri}${block.name ? ` (${block.name})` : ""}]` });
        break;
      case "resource": {
        const r = block.resource;
        if ("text" in r) parts.push({ type: "text", text: `<file uri="${r.uri}">\n${r.text}\n</file>` });
        else if (r.mimeType?.startsWith("image/"))
          parts.push(vision ? { type: "image", data: r.blob, mimeType: r.mimeType } : imagePlaceholder(r.mimeType, r.blob, r.uri));
        else parts.push({ type: "text", text: `[Attached binary resource ${r.uri} (${r.mimeType ?? "unknown type"}) not shown]` });
        break;
      }
      default:
        break;
    }
  }
  return parts;
}

/** What a user prompt says to the model: `/init` expands to its instruction; `/compact` and `/clear` say nothing. */
function userMessageParts(content: readonly ContentBlock[], opts: HistoryOptions): UserPart[] | null {
  const cmd = parseCommand(content);
  if (cmd && isLocalCommand(cmd)) return null;
  if (cmd?.name === "init") return [{ type: "text", text: initPrompt(cmd.args) }];
  return promptToUserParts(content, opts);
}

/** After `/compact`: the summary opens the next user message (it is not a turn of its own). */
const SUMMARY_TURN = "\u0000summary";

export function buildMessages(entries: readonly LogEntry[], opts: HistoryOptions = {}): ChatMessage[] {
  const messages: ChatMessage[] = [];
  const answered = new Set<string>();
  for (const e of entries) if (e.type === "tool/result") answered.add(e.toolCallId);

  let assistant: AssistantPart[] | null = null;
  let tool: ToolResultPart[] | null = null;
  const names = new Map<string, string>();
  let turnId: string | null = null;
  /** The turn of the last user message pushed, and how turns ended (for the no-reply note). */
  let lastUserTurn: string | null = null;
  const endings = new Map<string, string>();
  const flush = (): void => {
    if (assistant && assistant.length > 0) messages.push({ role: "assistant", content: assistant });
    if (tool && tool.length > 0) messages.push({ role: "tool", content: tool });
    assistant = null;
    tool = null;
  };
  /** Appends user content: joined within one turn (task notices + message), never across turns. */
  const pushUser = (content: UserPart[]): void => {
    flush();
    const last = messages[messages.length - 1];
    if (last && last.role === "user" && (lastUserTurn === turnId || lastUserTurn === SUMMARY_TURN)) {
      if (lastUserTurn === SUMMARY_TURN) lastUserTurn = turnId;
      last.content.push(...content);
      return;
    }
    if (last && last.role === "user") {
      // The earlier request got no reply (crash, cancel, error): close it, so it is not read as part of this one.
      const how = lastUserTurn !== null ? endings.get(lastUserTurn) : undefined;
      messages.push({
        role: "assistant",
        content: [
          {
            type: "text",
            text: `[This request was not answered: the turn ${how === undefined ? "was interrupted" : `ended (${how})`} before any reply.]`,
          },
        ],
      });
    }
    if (content.length > 0) {
      messages.push({ role: "user", content });
      lastUserTurn = turnId;
    }
  };
  for (const e of entries) {
    switch (e.type) {
      case "turn/start":
        turnId = e.turnId;
        break;
      case "task/notice":
        pushUser([{ type: "text", text: `[Background task notice] ${e.text}` }]);
        break;
      case "user/message": {
        const parts = userMessageParts(e.content, opts);
        if (parts) pushUser(parts);
        break;
      }
      case "user/steer":
        pushUser(promptToUserParts(e.content, opts));
        break;
      case "context/reset":
        // The model's context starts over: nothing before this point is sent again.
        assistant = null;
        tool = null;
        messages.length = 0;
        lastUserTurn = null;
        if (e.summary !== undefined) {
          messages.push({ role: "user", content: [{ type: "text", text: summaryMessage(e.summary) }] });
          lastUserTurn = SUMMARY_TURN;
        }
        break;
      case "assistant/text": {
        if (tool) flush();
        assistant ??= [];
        const last = assistant[assistant.length - 1];
        if (last && last.type === "text") last.text += e.text;
        else assistant.push({ type: "text", text: e.text });
        break;
      }
      case "tool/call":
        if (!answered.has(e.toolCallId)) break;
        if (tool) flush();
        assistant ??= [];
        names.set(e.toolCallId, e.name);
        assistant.push({ type: "tool-call", toolCallId: e.toolCallId, toolName: e.name, input: e.input });
        break;
      case "tool/result": {
        const name = names.get(e.toolCallId);
        if (name === undefined) break;
        tool ??= [];
        tool.push({ type: "tool-result", toolCallId: e.toolCallId, toolName: name, output: e.output, isError: e.isError });
        break;
      }
      case "turn/end":
        flush();
        endings.set(e.turnId, e.reason);
        break;
      default:
        break;
    }
  }
  flush();
  return messages;
}
