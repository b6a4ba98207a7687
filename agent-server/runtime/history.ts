// Session log → model conversation. Pure. Reasoning is not sent back; every tool call in the log
// is balanced by a result (the loop and recovery guarantee it), unbalanced ones are skipped. A turn
// that got no reply is closed by a short assistant note, never merged into the next request.
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { AssistantPart, ChatMessage, ToolResultPart, UserPart } from "../model/types";
import { describeVisionSource, type VisionSource } from "../model/visionProbe";
import { imageAsText } from "../model/vision";
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

/** The transcript's note for images a blind model was not shown; `source` says who decided it is blind. */
export function unseenImagesNotice(count: number, source?: VisionSource): string {
  const why = source ? ` (${describeVisionSource(source)})` : "";
  return `The selected model cannot see images${why}, so it was told ${count === 1 ? "an image was" : `${count} images were`} attached but not shown. Pick a vision-capable model (or set MANIFOLD_MODEL_VISION=1 if this one can see images) to send them.`;
}

export { base64Bytes } from "../model/vision";

function imagePlaceholder(mimeType: string, data: string, name?: string): UserPart {
  return imageAsText(mimeType, data, name);
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
  const answered = new Set<string>();
  for (const e of entries) if (e.type === "tool/result") answered.add(e.toolCallId);
  const conversation = new Conversation(answered, opts);
  for (const e of entries) conversation.add(e);
  return conversation.finish();
}

/** The conversation being built, one log entry at a time: the open assistant and tool messages, user content joined per turn. */
class Conversation {
  private readonly messages: ChatMessage[] = [];
  private assistant: AssistantPart[] | null = null;
  private tool: ToolResultPart[] | null = null;
  private readonly names = new Map<string, string>();
  private turnId: string | null = null;
  /** The turn of the last user message pushed, and how turns ended (for the no-reply note). */
  private lastUserTurn: string | null = null;
  private readonly endings = new Map<string, string>();

  constructor(
    private readonly answered: ReadonlySet<string>,
    private readonly opts: HistoryOptions,
  ) {}

  add(e: LogEntry): void {
    switch (e.type) {
      case "turn/start":
        this.turnId = e.turnId;
        break;
      case "task/notice":
        this.pushUser([{ type: "text", text: `[Background task notice] ${e.text}` }]);
        break;
      case "user/message": {
        const parts = userMessageParts(e.content, this.opts);
        if (parts) this.pushUser(parts);
        break;
      }
      case "user/steer":
        this.pushUser(promptToUserParts(e.content, this.opts));
        break;
      case "context/reset":
        this.reset(e.summary);
        break;
      case "assistant/text":
        this.assistantText(e.text);
        break;
      case "tool/call":
        if (!this.answered.has(e.toolCallId)) break;
        if (this.tool) this.flush();
        this.assistant ??= [];
        this.names.set(e.toolCallId, e.name);
        this.assistant.push({ type: "tool-call", toolCallId: e.toolCallId, toolName: e.name, input: e.input });
        break;
      case "tool/result": {
        const name = this.names.get(e.toolCallId);
        if (name === undefined) break;
        this.tool ??= [];
        this.tool.push({ type: "tool-result", toolCallId: e.toolCallId, toolName: name, output: e.output, isError: e.isError });
        break;
      }
      case "turn/end":
        this.flush();
        this.endings.set(e.turnId, e.reason);
        break;
      default:
        break;
    }
  }

  finish(): ChatMessage[] {
    this.flush();
    return this.messages;
  }

  private flush(): void {
    if (this.assistant && this.assistant.length > 0) this.messages.push({ role: "assistant", content: this.assistant });
    if (this.tool && this.tool.length > 0) this.messages.push({ role: "tool", content: this.tool });
    this.assistant = null;
    this.tool = null;
  }

  /** Appends user content: joined within one turn (task notices + message), never across turns. */
  private pushUser(content: UserPart[]): void {
    this.flush();
    const last = this.messages[this.messages.length - 1];
    if (last && last.role === "user" && (this.lastUserTurn === this.turnId || this.lastUserTurn === SUMMARY_TURN)) {
      if (this.lastUserTurn === SUMMARY_TURN) this.lastUserTurn = this.turnId;
      last.content.push(...content);
      return;
    }
    if (last && last.role === "user") {
      // The earlier request got no reply (crash, cancel, error): close it, so it is not read as part of this one.
      const how = this.lastUserTurn !== null ? this.endings.get(this.lastUserTurn) : undefined;
      this.messages.push({
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
      this.messages.push({ role: "user", content });
      this.lastUserTurn = this.turnId;
    }
  }

  /** The model's context starts over: nothing before this point is sent again. */
  private reset(summary: string | undefined): void {
    this.assistant = null;
    this.tool = null;
    this.messages.length = 0;
    this.lastUserTurn = null;
    if (summary !== undefined) {
      this.messages.push({ role: "user", content: [{ type: "text", text: summaryMessage(summary) }] });
      this.lastUserTurn = SUMMARY_TURN;
    }
  }

  private assistantText(text: string): void {
    if (this.tool) this.flush();
    this.assistant ??= [];
    const last = this.assistant[this.assistant.length - 1];
    if (last && last.type === "text") last.text += text;
    else this.assistant.push({ type: "text", text });
  }
}
