// update_plan: the model's visible plan (Codex's `update_plan`, Claude Code's todo list). Each call
// replaces the whole plan; the agent logs it and sends an ACP `plan` update. Touches nothing, so it
// needs no permission.
import * as z from "zod/v4";
import type { PlanEntry } from "../session/events";
import { defineTool } from "./types";

const STATUS = z.enum(["pending", "in_progress", "completed"]);

const parameters = z.object({
  plan: z
    .array(z.object({ step: z.string().min(1).max(500).describe("One short, verifiable step."), status: STATUS }))
    .max(50)
    .refine((steps) => steps.filter((s) => s.status === "in_progress").length <= 1, { message: "at most one step may be in_progress" })
    .describe("The whole plan, in order. It replaces the previous one."),
  explanation: z.string().max(2000).optional().describe("Why the plan changed (optional)."),
});

export type UpdatePlanArgs = z.infer<typeof parameters>;

export const updatePlanTool = defineTool<UpdatePlanArgs>({
  name: "update_plan",
  description:
    "Show the user your plan for a multi-step task and keep it current: send the whole list each time, marking steps pending, in_progress (at most one) or completed. Skip it for simple one-step requests.",
  parameters,
  kind: "think",
  title: (a) => `Plan: ${a.plan.filter((s) => s.status === "completed").length}/${a.plan.length} done`,
  access: () => ({ kind: "none" }),
  async run(args) {
    const plan: PlanEntry[] = args.plan.map((s) => ({ content: s.step, priority: "medium", status: s.status }));
    return { output: "Plan updated.", isError: false, plan };
  },
});
