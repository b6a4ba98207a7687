// The session log format: one JSONL file per session, an immutable header line, then events with
// contiguous `seq`. Everything a session is (history, settings, title) is folded from these events.
import * as z from "zod/v4";
import { ContentBlockSchema, ToolCallContentSchema } from "./acpContent";

export const LOG_FORMAT_VERSION = 1;

/** The agent profile a session started from (runtime/profiles.ts): its label, tool allow-list, instructions. */
export const SessionProfile = z.object({
  id: z.string().min(1),
  tools: z.array(z.string()).optional(),
  instructions: z.string().optional(),
});
export type SessionProfile = z.infer<typeof SessionProfile>;

export const SessionHeader = z.object({
  type: z.literal("header"),
  version: z.number().int(),
  id: z.string().min(1),
  cwd: z.string().min(1),
  createdAt: z.string(),
  parent: z.string().optional(),
  profile: SessionProfile.optional(),
});
export type SessionHeader = z.infer<typeof SessionHeader>;

export const PlanEntrySchema = z.object({
  content: z.string(),
  priority: z.enum(["high", "medium", "low"]),
  status: z.enum(["pending", "in_progress", "completed"]),
});
export type PlanEntry = z.infer<typeof PlanEntrySchema>;

export const TurnEndReason = z.enum([
  "end_turn", // the model finished
  "aborted", // cancelled by the user (session/cancel, session/close)
  "disposed", // ended by teardown
  "error", // model or internal failure
  "interrupted", // synthesized at recovery: the process died mid-turn
  "max_turn_requests",
  "max_tokens",
  "refusal",
]);
export type TurnEndReason = z.infer<typeof TurnEndReason>;

export const SessionEvent = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("turn/start"),
    turnId: z.string(),
    messageId: z.string().nullable(),
    source: z.enum(["user", "task", "subagent"]),
  }),
  // The prompt as the client sent it (ACP ContentBlocks; the SDK validated them on the way in).
  z.object({ type: z.literal("user/message"), messageId: z.string(), content: z.array(ContentBlockSchema) }),
  // A steer: user content taken into a running turn at a model step (`applied`), or recorded at the
  // end of a turn that stopped before any step could take it in (`applied: false`). Either way it is history.
  z.object({ type: z.literal("user/steer"), messageId: z.string(), content: z.array(ContentBlockSchema), applied: z.boolean() }),
  z.object({ type: z.literal("assistant/text"), messageId: z.string(), text: z.string() }),
  z.object({ type: z.literal("assistant/thought"), messageId: z.string(), text: z.string() }),
  z.object({
    type: z.literal("tool/call"),
    toolCallId: z.string(),
    name: z.string(),
    input: z.unknown(),
    title: z.string(),
    kind: z.string(),
    locations: z.array(z.object({ path: z.string(), line: z.number().optional() })).optional(),
  }),
  z.object({
    type: z.literal("tool/result"),
    toolCallId: z.string(),
    status: z.enum(["completed", "failed"]),
    output: z.string(),
    isError: z.boolean(),
    /** What the card shows at the end (ACP tool-call content: diffs, command output). */
    content: z.array(ToolCallContentSchema).optional(),
  }),
  z.object({ type: z.literal("config/set"), configId: z.string(), value: z.string() }),
  // A background-task completion notice, delivered inside the owner's next user turn (before the user message).
  z.object({ type: z.literal("task/notice"), taskId: z.string(), text: z.string() }),
  z.object({ type: z.literal("session/title"), title: z.string() }),
  // A note for the user's transcript only (e.g. "this model cannot see images"); never sent to the model.
  z.object({ type: z.literal("notice"), text: z.string() }),
  // The model's plan (`update_plan`): each one replaces the previous one.
  z.object({ type: z.literal("plan"), entries: z.array(PlanEntrySchema) }),
  // The model's context starts over here: `/clear` forgets, `/compact` keeps only `summary`.
  z.object({ type: z.literal("context/reset"), command: z.enum(["clear", "compact"]), summary: z.string().optional() }),
  z.object({ type: z.literal("usage"), used: z.number(), size: z.number() }),
  z.object({ type: z.literal("turn/end"), turnId: z.string(), reason: TurnEndReason, error: z.string().optional() }),
]);
export type SessionEvent = z.infer<typeof SessionEvent>;

/** A persisted event: contiguous `seq` from 1, ISO timestamp. */
export type LogEntry = SessionEvent & { seq: number; at: string };
