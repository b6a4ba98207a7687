// `delegate {task}`: hands one task to an in-process subagent through the `runSubagent` capability
// the runtime puts in every tool context (the runtime owns sessions; this file only words the result).
import { z } from "zod";
import { defineTool, type ToolResult } from "./types";
import type { SubagentOutcome } from "../runtime/capabilities";

export const DelegateParams = z.object({
  task: z.string().min(1).describe("What the subagent should do, with everything it needs to know."),
});
export type DelegateParams = z.infer<typeof DelegateParams>;

export const delegateTool = defineTool<DelegateParams>({
  name: "delegate",
  description: "Hand a self-contained task to a subagent that works in the same project and reports back its final answer.",
  parameters: DelegateParams,
  kind: "think",
  title: (args) => `Subagent: ${args.task.split("\n")[0]!.slice(0, 60)}`,
  access: () => ({ kind: "none" }),
  async run(args, ctx) {
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
