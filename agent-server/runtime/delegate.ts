// `delegate {task}`: runs an in-process subagent for one task. The child is its own session (own id,
// `header.parent` = the parent's id) in the parent's cwd, with the parent's sandbox, approval and model;
// its permission requests are routed to the parent's session under the delegate call's card.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { ToolContext, ToolDefinition, ToolResult } from "../tools/types";
import type { Agent } from "./agent";
import type { AgentRegistry } from "./registry";

export const DelegateParams = z.object({
  task: z.string().min(1).describe("What the subagent should do, with everything it needs to know."),
});
export type DelegateParams = z.infer<typeof DelegateParams>;

/** child agent → the parent agent and the parent's announced delegate call (exact objects). */
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

export function createDelegateTool(registry: AgentRegistry, links: SubagentLinks): ToolDefinition<DelegateParams> {
  return {
    name: "delegate",
    description: "Hand a self-contained task to a subagent that works in the same project and reports back its final answer.",
    parameters: DelegateParams,
    kind: "think",
    title: (args) => `Subagent: ${args.task.split("\n")[0]!.slice(0, 60)}`,
    access: () => ({ kind: "none" }),
    run: (args, ctx) => runDelegate(registry, links, args, ctx),
  };
}

async function runDelegate(registry: AgentRegistry, links: SubagentLinks, args: DelegateParams, ctx: ToolContext): Promise<ToolResult> {
  const parent = registry.get(ctx.sessionId);
  if (!parent) return { output: "The parent session is gone.", isError: true };
  if (parent.session.header.parent !== undefined) return { output: "A subagent cannot delegate further; do the task yourself.", isError: true };
  const child = await registry.create({ cwd: parent.cwd, parent: parent.sessionId, ...(ctx.signal ? { signal: ctx.signal } : {}) });
  links.set({ child, parent, toolCallId: ctx.toolCallId });
  try {
    const s = parent.settings;
    child.appendConfig("sandbox", s.sandbox);
    child.appendConfig("approval", s.approval);
    child.appendConfig("model", s.model);
    const messageId = randomUUID();
    const parts: string[] = [];
    let end: { reason: string; error?: string } | null = null;
    const done = new Promise<void>((resolve) => {
      const off = registry.bus.on((ev) => {
        if (ev.type !== "agent/event" || ev.agent !== child || ev.event.kind !== "entry") return;
        const e = ev.event.entry;
        if (e.type === "assistant/text") {
          parts.push(e.text);
          ctx.update({ content: [{ type: "content", content: { type: "text", text: parts.join("") } }] });
        }
        if (e.type === "turn/end") {
          end = e.error !== undefined ? { reason: e.reason, error: e.error } : { reason: e.reason };
          off();
          resolve();
        }
      });
    });
    const onAbort = (): void => void child.cancel();
    ctx.signal.addEventListener("abort", onAbort, { once: true });
    child.enqueue({ messageId, content: [{ type: "text", text: args.task }], source: "user" });
    await done;
    ctx.signal.removeEventListener("abort", onAbort);
    const finished = end as { reason: string; error?: string } | null;
    const text = parts.join("").trim();
    if (finished?.reason === "end_turn") return { output: text || "(the subagent finished without a message)", isError: false };
    return { output: `The subagent stopped (${finished?.reason ?? "unknown"}${finished?.error ? `: ${finished.error}` : ""}).${text ? `\nPartial answer:\n${text}` : ""}`, isError: true };
  } finally {
    links.delete(child);
    await registry.dispose(child).catch(() => undefined);
  }
}
