// In-process subagents: the runtime side of the `runSubagent` capability. A child is its own session
// (own id, `header.parent` = the parent's id) in the parent's cwd, with the parent's sandbox, approval
// and model; while it runs, its link names the parent and the parent's calling tool, so the bridge
// routes the child's permission asks to the parent's session under that card.
import { randomUUID } from "node:crypto";
import type { Agent } from "./agent";
import type { SubagentOutcome } from "./capabilities";
import type { RuntimeBus } from "./events";
import type { SessionProfile } from "../session/events";
import { logError } from "../../base/errors";

/** child agent → the parent agent and the parent's announced calling tool (exact objects). */
export interface SubagentLink {
  child: Agent;
  parent: Agent;
  toolCallId: string;
}

export class SubagentLinks {
  private readonly links = new Map<string, SubagentLink>();
  set(link: SubagentLink): void {
    this.links.set(link.child.sessionId, link);
  }
  delete(child: Agent): void {
    if (this.links.get(child.sessionId)?.child === child) this.links.delete(child.sessionId);
  }
  /** The link only for this exact child agent. */
  of(child: Agent): SubagentLink | undefined {
    const l = this.links.get(child.sessionId);
    return l && l.child === child ? l : undefined;
  }
}

/** What a subagent run needs from the LiveAgents that owns the sessions. */
export interface SubagentHost {
  readonly bus: RuntimeBus;
  readonly subagents: SubagentLinks;
  create(opts: { cwd: string; parent: string; signal?: AbortSignal; profile?: SessionProfile }): Promise<Agent>;
  dispose(agent: Agent): Promise<void>;
}

export interface SubagentCall {
  parent: Agent;
  toolCallId: string;
  task: string;
  signal: AbortSignal;
  onText(textSoFar: string): void;
}

/** One subagent run: create the child, hand it the task, collect its answer, always dispose it. */
export async function runSubagent(host: SubagentHost, call: SubagentCall): Promise<SubagentOutcome> {
  const { parent } = call;
  if (parent.isDisposed) return { kind: "refused", why: "The parent session is gone." };
  if (parent.session.header.parent !== undefined)
    return { kind: "refused", why: "A subagent cannot delegate further; do the task yourself." };
  // The parent's profile goes with it: the same tool allow-list and instructions.
  const profile = parent.session.header.profile;
  const child = await host.create({ cwd: parent.cwd, parent: parent.sessionId, signal: call.signal, ...(profile ? { profile } : {}) });
  host.subagents.set({ child, parent, toolCallId: call.toolCallId });
  try {
    const s = parent.settings;
    child.appendConfig("sandbox", s.sandbox);
    child.appendConfig("approval", s.approval);
    child.appendConfig("model", s.model);
    const ended = answerOf(host.bus, child, call.onText);
    const onAbort = (): void => void child.cancel();
    call.signal.addEventListener("abort", onAbort, { once: true });
    child.enqueue({ messageId: randomUUID(), content: [{ type: "text", text: call.task }], source: "user" });
    const outcome = await ended;
    call.signal.removeEventListener("abort", onAbort);
    return outcome;
  } finally {
    host.subagents.delete(child);
    await host.dispose(child).catch(logError(console.error, `[runtime] disposing subagent ${child.sessionId}`));
  }
}

/** The child's streamed text until its turn ends, and how it ended. */
function answerOf(bus: RuntimeBus, child: Agent, onText: (textSoFar: string) => void): Promise<SubagentOutcome> {
  const parts: string[] = [];
  return new Promise((resolve) => {
    const off = bus.on((ev) => {
      if (ev.type !== "agent/event" || ev.agent !== child || ev.event.kind !== "entry") return;
      const e = ev.event.entry;
      if (e.type === "assistant/text") {
        parts.push(e.text);
        onText(parts.join(""));
      }
      if (e.type === "turn/end") {
        off.dispose();
        const text = parts.join("");
        resolve(
          e.error !== undefined ? { kind: "ended", reason: e.reason, error: e.error, text } : { kind: "ended", reason: e.reason, text },
        );
      }
    });
  });
}
