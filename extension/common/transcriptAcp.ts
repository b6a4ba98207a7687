// The agent's `session/update`s folded into the transcript: message and thought chunks (merged per
// message), user chunks and steers, tool cards and compactions (transcriptTools.ts), the plan,
// commands, modes, config options, title, usage and the agent's notices. The largest part of the
// reducer, kept apart from the host's own events (transcript.ts), which call `applyAcp` for the `acp` event.
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { AgentTextEntry, TranscriptState, TranscriptUpdate, UserEntry } from "./transcriptModel";
import { markedTurnEnd } from "./turnEnd";
import { imageSrc, type ImageData } from "./images";
import { applyCompactionUpdate, applyNestedText, applyToolCall, applyToolCallUpdate } from "./transcriptTools";
import { parentToolCallId } from "./adapterConventions";
import { assertNever, blockText, mintId, withLast, withNotice, withTurnEnd } from "./transcriptEntries";

function appendChunk(s: TranscriptState, kind: "agent" | "thought", text: string, messageId: string | undefined): TranscriptState {
  const last = s.entries[s.entries.length - 1];
  if (last && last.kind === kind && (messageId === undefined || last.messageId === undefined || last.messageId === messageId)) {
    const id = last.messageId ?? messageId;
    const merged: AgentTextEntry = { ...last, text: last.text + text, ...(id !== undefined ? { messageId: id } : {}) };
    return { ...s, entries: withLast(s.entries, merged) };
  }
  const [id, nextId] = mintId(s);
  const entry: AgentTextEntry = { kind, id, text, ...(messageId !== undefined ? { messageId } : {}) };
  return { ...s, nextId, entries: s.entries.concat([entry]) };
}

/** An image block the panel can show (an admitted type): kept as an image, not as the "[image]" label. */
function shownImage(block: ContentBlock): ImageData | undefined {
  if (block.type !== "image") return undefined;
  const img = { mimeType: block.mimeType, data: block.data };
  return imageSrc(img) ? img : undefined;
}

function appendUserChunk(s: TranscriptState, block: ContentBlock, meta: unknown): TranscriptState {
  const steer = steerMark(meta);
  const last = s.entries[s.entries.length - 1];
  const image = shownImage(block);
  const isAttachment = block.type === "resource_link" || block.type === "resource";
  const name =
    block.type === "resource_link" ? block.name : block.type === "resource" ? (block.resource.uri.split("/").pop() ?? "resource") : "";
  // A steer is its own message: it never joins the prompt (or another steer) before it.
  if (last && last.kind === "user" && !steer && !last.steered) {
    const merged: UserEntry = image
      ? { ...last, images: [...(last.images ?? []), image] }
      : isAttachment
        ? { ...last, attachments: [...last.attachments, name] }
        : { ...last, text: last.text + blockText(block) };
    return { ...s, entries: withLast(s.entries, merged) };
  }
  const [id, nextId] = mintId(s);
  const entry: UserEntry = {
    kind: "user",
    id,
    text: isAttachment || image ? "" : blockText(block),
    attachments: isAttachment ? [name] : [],
    ...(steer ? { steered: true as const } : {}),
    ...(image ? { images: [image] } : {}),
  };
  return { ...s, nextId, entries: s.entries.concat([entry]) };
}

/** A child's text, thought or plan update that names its parent card (a delegation's), as text for that card. */
function nestedText(u: TranscriptUpdate): { parent: string; text: string } | undefined {
  if (u.sessionUpdate !== "agent_message_chunk" && u.sessionUpdate !== "agent_thought_chunk" && u.sessionUpdate !== "plan")
    return undefined;
  const parent = parentToolCallId(u._meta, "");
  if (parent === undefined) return undefined;
  if (u.sessionUpdate === "plan")
    return { parent, text: `\n${u.entries.map((e) => `${e.status === "completed" ? "☑" : "☐"} ${e.content}`).join("\n")}\n` };
  return { parent, text: u.sessionUpdate === "agent_thought_chunk" ? "" : blockText(u.content) };
}

export function applyAcp(s: TranscriptState, u: TranscriptUpdate): TranscriptState {
  const nested = nestedText(u);
  if (nested) return nested.text === "" ? s : applyNestedText(s, nested.parent, nested.text);
  switch (u.sessionUpdate) {
    case "user_message_chunk":
      return appendUserChunk(s, u.content, u._meta);
    case "agent_message_chunk": {
      const marked = markedTurnEnd(u._meta, blockText(u.content));
      if (marked) return withTurnEnd(s, marked, "marker");
      if (isSteerNotAppliedNotice(u._meta))
        return withNotice(
          s,
          "warning",
          blockText(u.content)
            .trim()
            .replace(/^⚠️\s*/u, ""),
        );
      return appendChunk(s, "agent", blockText(u.content), u.messageId ?? undefined);
    }
    case "agent_thought_chunk":
      return appendChunk(s, "thought", blockText(u.content), u.messageId ?? undefined);
    case "tool_call":
      return applyToolCall(s, u);
    case "tool_call_update":
      return applyToolCallUpdate(s, u);
    case "plan":
      return { ...s, plan: u.entries };
    case "available_commands_update":
      return { ...s, commands: u.availableCommands };
    case "current_mode_update":
      return s.modes ? { ...s, modes: { ...s.modes, currentModeId: u.currentModeId } } : s;
    case "config_option_update":
      return { ...s, configOptions: u.configOptions };
    case "session_info_update": {
      if (u.title === undefined) return s;
      const { title: _old, ...rest } = s;
      return u.title === null ? rest : { ...s, title: u.title };
    }
    case "usage_update":
      return {
        ...s,
        usage: { used: u.used, size: u.size, ...(u.cost ? { cost: { amount: u.cost.amount, currency: u.cost.currency } } : {}) },
      };
    case "notice": {
      const [id, nextId] = mintId(s);
      const severity = u.severity === "warning" || u.severity === "error" ? u.severity : "info";
      const text = u.description ? `${u.title}: ${u.description}` : u.title;
      return { ...s, nextId, entries: s.entries.concat([{ kind: "notice", id, severity, text }]) };
    }
    case "compaction_update":
      return applyCompactionUpdate(s, u);
    case "compaction_summary_chunk":
      return s;
    default:
      return assertNever(u);
  }
}

/** The `_meta` an agent puts on a `user_message_chunk` that is a steer (agent-server/acp/updates.ts). */
function steerMark(meta: unknown): boolean {
  if (typeof meta !== "object" || meta === null) return false;
  const m = (meta as Record<string, unknown>)["manifold/steer"];
  return typeof m === "object" && m !== null;
}

/** The agent's notice that a steer arrived too late for the model to act on it. */
function isSteerNotAppliedNotice(meta: unknown): boolean {
  if (typeof meta !== "object" || meta === null) return false;
  const n = (meta as Record<string, unknown>)["manifold/notice"];
  return typeof n === "object" && n !== null && (n as Record<string, unknown>).kind === "steerNotApplied";
}
