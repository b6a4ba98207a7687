// `delegate {task, agent?}`: hands one task to an in-process subagent through the `runSubagent`
// capability the runtime puts in every tool context, or, with `agent`, to another agent the client
// offered this session (`runRemote`; granted per agent by the policy). The runtime and the bridge own
// sessions; this file only words the result.
import * as z from "zod/v4";
import { defineTool, type ToolResult } from "./types";
import type { DelegateTarget, SubagentOutcome } from "../runtime/capabilities";

export const DelegateParams = z.object({
  task: z.string().min(1).describe("What the subagent should do, with everything it needs to know."),
  agent: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .describe("Only when other agents are offered in your instructions: the id of the agent to hand the task to."),
});
export type DelegateParams = z.infer<typeof DelegateParams>;

export const delegateTool = defineTool<DelegateParams>({
  name: "delegate",
  description: "Hand a self-contained task to a subagent that works in the same project and reports back its final answer.",
  parameters: DelegateParams,
  kind: "think",
  title: (args) => `${args.agent ? `Delegate to ${args.agent}` : "Subagent"}: ${args.task.split("\n")[0]!.slice(0, 60)}`,
  access: (args) => (args.agent ? { kind: "delegate", agent: args.agent } : { kind: "none" }),
  async run(args, ctx) {
    if (args.agent !== undefined) {
      if (!ctx.runRemote)
        return { output: "No other agents are offered to this session; leave `agent` out to use your own subagent.", isError: true };
      return delegateResult(await ctx.runRemote(args.agent, args.task));
    }
    const outcome = await ctx.runSubagent(args.task, (text) =>
      ctx.update({ content: [{ type: "content", content: { type: "text", text } }] }),
    );
    return delegateResult(outcome);
  },
});

function delegateResult(outcome: SubagentOutcome): ToolResult {
  if (outcome.kind === "refused") return { output: outcome.why, isError: true };
  const text = outcome.text.trim();
  if (outcome.reason === "end_turn") return { output: text || "(the subagent finished without a message)", isError: false };
  return {
    output: `The subagent stopped (${outcome.reason}${outcome.error ? `: ${outcome.error}` : ""}).${text ? `\nPartial answer:\n${text}` : ""}`,
    isError: true,
  };
}

/** What the model is told about the agents it may hand a task to (undefined: none offered). */
export function delegateNote(targets: readonly DelegateTarget[]): string | undefined {
  if (targets.length === 0) return undefined;
  const lines = targets.map((t) => `- \`${t.id}\`: ${t.name}${t.description ? ` (${t.description})` : ""}`);
  return [
    "Besides your own subagent, `delegate` can hand a task to another coding agent working in this folder: set `agent` to one of these ids.",
    "The user is asked before each delegation unless they allowed that agent for the session.",
    ...lines,
  ].join("\n");
}

/** The model's answer when it names an agent the client did not offer. */
export function notOffered(agentId: string, offered: readonly DelegateTarget[]): string {
  const ids = offered.map((t) => t.id).join(", ");
  return `No agent "${agentId}" is offered to this session (${ids ? `offered: ${ids}` : "none is offered"}).`;
}
