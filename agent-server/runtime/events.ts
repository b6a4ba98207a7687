// What a live agent publishes. One process-wide bus; consumers demultiplex by the exact agent (I-4).
import type { ToolCallPatch } from "../tools/types";
import type { LogEntry, TurnEndReason } from "../session/events";
import type { Agent } from "./agent";

export type AgentEvent =
  /** An entry was appended to the session log (the durable stream). */
  | { kind: "entry"; entry: LogEntry }
  /** A tool call started running, or streamed progress into its card (not persisted). */
  | { kind: "tool-progress"; toolCallId: string; status?: "in_progress"; patch?: ToolCallPatch }
  /** A turn ended and its checkpoint ran; `unsaved` is set when the turn is not on disk (I-109). */
  | { kind: "turn-closed"; turnId: string; reason: TurnEndReason; error?: string; unsaved?: string }
  /** Queued messages that will never run (cancel, dispose). */
  | { kind: "dropped"; messageIds: string[] };

export type RuntimeEvent =
  | { type: "agent/created"; agent: Agent }
  | { type: "agent/disposed"; agent: Agent }
  | { type: "agent/event"; agent: Agent; event: AgentEvent };

export type RuntimeListener = (ev: RuntimeEvent) => void;

export class RuntimeBus {
  private readonly listeners = new Set<RuntimeListener>();

  on(listener: RuntimeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  /** Listener failures are reported, never propagated into the agent. */
  publish(ev: RuntimeEvent): void {
    for (const l of this.listeners) {
      try {
        l(ev);
      } catch (err) {
        console.error(`[runtime] listener failed on ${ev.type}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  /** Like publish, but a listener failure is thrown (used where a failure must roll back). */
  publishStrict(ev: RuntimeEvent): void {
    for (const l of this.listeners) l(ev);
  }
}
