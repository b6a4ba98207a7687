// Session log → model conversation. Pure. Reasoning is not sent back; every tool call in the log
// is balanced by a result (the loop and recovery guarantee it), unbalanced ones are skipped. A turn
// that got no reply is closed by a short assistant note, never merged into the next request.
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { AssistantPart, ChatMessage, ToolResultPart, UserPart } from "../model/types";
import type { LogEntry } from "../session/events";

export function promptToUserParts(content: readonly ContentBlock[]): UserPart[] {
  const parts: UserPart[] = [];
  for (const block of content) {
    switch (block.type) {
      case "text":
        parts.push({ type: "text", text: block.text });
        break;
      case "image":
        parts.push({ type: "image", data: block.data, mimeType: block.mimeType });
        break;
      case "resource_link":
        parts.push({ type: "text", text: `[Attached file: ${block.uri}${block.name ? ` (${block.name})` : ""}]` });
        break;
      case "resource": {
        const r = block.resource;
        if ("text" in r) parts.push({ type: "text", text: `<file uri="${r.uri}">\n${r.text}\n</file>` });
        else if (r.mimeType?.startsWith("image/")) parts.push({ type: "image", data: r.blob, mimeType: r.mimeType });
        else parts.push({ type: "text", text: `[Attached binary resource ${r.uri} (${r.mimeType ?? "unknown type"}) not shown]` });
        break;
      }
      default:
        break;
    }
  }
  return parts;
}

export function buildMessages(entries: readonly LogEntry[]): ChatMessage[] {
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
    if (last && last.role === "user" && lastUserTurn === turnId) {
      last.content.push(...content);
      return;
    }
    if (last && last.role === "user") {
      // The earlier request got no reply (crash, cancel, error): close it, so it is not read as part of this one.
      const how = lastUserTurn !== null ? endings.get(lastUserTurn) : undefined;
      messages.push({ role: "assistant", content: [{ type: "text", text: `[This request was not answered: the turn ${how === undefined ? "was interrupted" : `ended (${how})`} before any reply.]` }] });
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
      case "user/message":
        pushUser(promptToUserParts(e.content));
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
