// LiveAgents' lifecycle and agent events. One process-wide bus; consumers demultiplex by the exact agent (I-4).
import type { Agent, AgentEvent } from "./agent";
import { errorMessage } from "../../base/errors";
import { toDisposable, type IDisposable } from "../../base/lifecycle";

export type RuntimeEvent =
  | { type: "agent/created"; agent: Agent }
  | { type: "agent/disposed"; agent: Agent }
  | { type: "agent/event"; agent: Agent; event: AgentEvent };

export type RuntimeListener = (ev: RuntimeEvent) => void;

export class RuntimeBus {
  private readonly listeners = new Set<RuntimeListener>();

  on(listener: RuntimeListener): IDisposable {
    this.listeners.add(listener);
    return toDisposable(() => this.listeners.delete(listener));
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
        console.error(`[runtime] listener failed on ${ev.type}: ${errorMessage(err)}`);
      }
    }
  }

  /** Like publish, but a listener failure is thrown (used where a failure must roll back). */
  publishStrict(ev: RuntimeEvent): void {
    for (const l of this.listeners) l(ev);
  }
}
