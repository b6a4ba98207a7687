// Session log entries → ACP `session/update` payloads. One mapping for live streaming and for
// `session/load` replay, so a replayed session looks like the live one did. Pure. Two updates are
// never logged and so never replayed: a running tool's progress and the slash-command list.
import type { SessionUpdate, ToolCallContent, ToolKind } from "@agentclientprotocol/sdk";
import type { LogEntry, TurnEndReason } from "../session/events";

const TOOL_KINDS: readonly string[] = ["read", "edit", "delete", "move", "search", "execute", "think", "fetch", "switch_mode", "other"];

export function turnEndText(reason: TurnEndReason, error?: string): string | null {
  switch (reason) {
    case "error":
      return `\n\n⚠️ The turn stopped with an error: ${error ?? "unknown error"}`;
    case "interrupted":
      return "\n\n⚠️ This turn was interrupted: the agent stopped before it finished.";
    case "max_turn_requests":
      return "\n\n⚠️ The turn stopped: too many model requests in one turn.";
    default:
      return null;
  }
}

/** The `_meta` key marking a `user_message_chunk` as a steer (`{messageId, applied}`). */
export const STEER_META = "manifold/steer";
/** The `_meta` key marking an `agent_message_chunk` as the agent's notice, not the model's words. */
export const NOTICE_META = "manifold/notice";

export const UNAPPLIED_STEER_TEXT =
  "\n\n⚠️ The message above arrived as the turn stopped, so the model did not act on it; it stays in the conversation.";

function notice(text: string, messageId: string, kind: string): SessionUpdate {
  return { sessionUpdate: "agent_message_chunk", content: { type: "text", text }, messageId, _meta: { [NOTICE_META]: { kind } } };
}

/** The title of a compaction as claude-agent-acp sends it (a synthetic `think` call), and what it says to other clients. */
export const COMPACTION_TITLE = "Compact conversation";
export const COMPACTION_TEXT = "Conversation compacted: the model now sees the summary above instead of the earlier turns.";

/**
 * `/compact` done, as the synthetic "Compact conversation" call with `_meta.contextCompaction`: Manifold's
 * panel shows it as one compaction entry, any other client as a finished tool call saying what happened
 * (no client capability needed, unlike `compaction_update`).
 */
function compactionCall(seq: number): SessionUpdate {
  return {
    sessionUpdate: "tool_call",
    toolCallId: `compact-${seq}`,
    title: COMPACTION_TITLE,
    kind: "think",
    status: "completed",
    content: [{ type: "content", content: { type: "text", text: COMPACTION_TEXT } }],
    _meta: { contextCompaction: { trigger: "manual" } },
  };
}

export function entryToUpdates(e: LogEntry): SessionUpdate[] {
  switch (e.type) {
    case "user/message":
      return e.content.map((block) => ({ sessionUpdate: "user_message_chunk", content: block, messageId: e.messageId }));
    case "user/steer": {
      const chunks: SessionUpdate[] = e.content.map((block) => ({
        sessionUpdate: "user_message_chunk",
        content: block,
        messageId: e.messageId,
        _meta: { [STEER_META]: { messageId: e.messageId, applied: e.applied } },
      }));
      return e.applied ? chunks : [...chunks, notice(UNAPPLIED_STEER_TEXT, `steer-unapplied-${e.messageId}`, "steerNotApplied")];
    }
    case "notice":
      return [notice(`\n\nℹ️ ${e.text}\n\n`, `notice-${e.seq}`, "info")];
    case "plan":
      return [{ sessionUpdate: "plan", entries: e.entries }];
    case "context/reset":
      return e.command === "compact" ? [compactionCall(e.seq)] : [];
    case "assistant/text":
      return [{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: e.text }, messageId: e.messageId }];
    case "assistant/thought":
      return [{ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: e.text }, messageId: e.messageId }];
    case "tool/call": {
      const kind = (TOOL_KINDS.includes(e.kind) ? e.kind : "other") as ToolKind;
      const u: SessionUpdate = {
        sessionUpdate: "tool_call",
        toolCallId: e.toolCallId,
        title: e.title,
        kind,
        status: "pending",
        rawInput: e.input,
      };
      if (e.locations) u.locations = e.locations;
      return [u];
    }
    case "tool/result": {
      const content: ToolCallContent[] = e.content ?? (e.output ? [{ type: "content", content: { type: "text", text: e.output } }] : []);
      return [
        {
          sessionUpdate: "tool_call_update",
          toolCallId: e.toolCallId,
          status: e.status,
          content,
          rawOutput: { output: e.output, isError: e.isError },
        },
      ];
    }
    case "session/title":
      return [{ sessionUpdate: "session_info_update", title: e.title, updatedAt: e.at }];
    case "usage":
      return [{ sessionUpdate: "usage_update", used: e.used, size: e.size }];
    case "turn/end": {
      const text = turnEndText(e.reason, e.error);
      return text
        ? [
            {
              sessionUpdate: "agent_message_chunk",
              content: { type: "text", text },
              messageId: `turn-end-${e.turnId}`,
              _meta: { "manifold/turnEnd": { reason: e.reason } },
            },
          ]
        : [];
    }
    default:
      return [];
  }
}

/** Replay: the whole log as updates, adjacent text chunks of one message merged (fewer frames, same text). */
export function replayUpdates(entries: readonly LogEntry[]): SessionUpdate[] {
  const out: SessionUpdate[] = [];
  // The run being merged: its text grows by concatenation (no parts array per message).
  let runType: "assistant/text" | "assistant/thought" | null = null;
  let runMessageId = "";
  let runText = "";
  const flush = (): void => {
    if (runType === null) return;
    out.push({
      sessionUpdate: runType === "assistant/text" ? "agent_message_chunk" : "agent_thought_chunk",
      content: { type: "text", text: runText },
      messageId: runMessageId,
    });
    runType = null;
  };
  for (const e of entries) {
    if (e.type === "assistant/text" || e.type === "assistant/thought") {
      if (runType === e.type && runMessageId === e.messageId) runText += e.text;
      else {
        flush();
        runType = e.type;
        runMessageId = e.messageId;
        runText = e.text;
      }
      continue;
    }
    const updates = entryToUpdates(e);
    if (updates.length === 0) continue;
    flush();
    for (const u of updates) out.push(u);
  }
  flush();
  return out;
}
