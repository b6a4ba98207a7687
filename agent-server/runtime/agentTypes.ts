// The runtime Agent's vocabulary that does not name the Agent itself: what it queues, what it
// publishes, the process-wide services it uses. `agent.ts` re-exports all of it.
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { SandboxContext } from "../../sandbox/types";
import type { ModelClient } from "../model/types";
import type { LogEntry, TurnEndReason } from "../session/events";
import type { TaskAccess, ToolCallPatch, ToolRunner } from "../tools/types";

export type MessageSource = "user" | "task" | "subagent";

/** User content sent into a running turn (`_session/steering`). */
export interface SteerMessage {
  messageId: string;
  content: ContentBlock[];
}

export interface QueuedMessage {
  messageId: string;
  content: ContentBlock[];
  source: MessageSource;
}

/** What a live agent publishes (through its hooks onto the LiveAgents's bus; consumers demultiplex by the exact agent, I-4). */
export type AgentEvent =
  /** An entry was appended to the session log (the durable stream). */
  | { kind: "entry"; entry: LogEntry }
  /** A tool call started running, or streamed progress into its card (not persisted). */
  | { kind: "tool-progress"; toolCallId: string; status?: "in_progress"; patch?: ToolCallPatch }
  /** A turn ended and its checkpoint ran; `unsaved` is set when the turn is not on disk (I-109). */
  | { kind: "turn-closed"; turnId: string; reason: TurnEndReason; error?: string; unsaved?: string }
  /** Queued messages that will never run (cancel, dispose). */
  | { kind: "dropped"; messageIds: string[] };

/** Process-wide services every agent uses; nothing in here is per-session state. */
export interface AgentServices {
  modelFor(modelId: string): Promise<ModelClient>;
  readonly tools: ToolRunner;
  tasksFor(sessionId: string, sandboxOf: () => SandboxContext): TaskAccess;
  readonly defaultModelId: string;
  readonly maxSteps: number;
  systemPrompt(cwd: string): string;
}
