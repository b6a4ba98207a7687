import * as z from "zod/v4";
import { truncateMiddle } from "./truncate";
import { defineTool } from "./types";
import { errorMessage } from "../../base/errors";

const params = z.object({ task_id: z.string().min(1).describe("Id returned by bash with background: true.") });

export const bashKillTool = defineTool<z.infer<typeof params>>({
  name: "bash_kill",
  description: "Stop a background task of this session (its whole process tree) and return its final output.",
  parameters: params,
  kind: "execute",
  title: (a) => `Stop ${a.task_id}`,
  access: () => ({ kind: "none" }),
  async run(args, ctx) {
    try {
      const r = await ctx.tasks.kill(args.task_id);
      return { output: `${truncateMiddle(r.output) || "(no output)"}\nTask stopped (exit code ${r.exitCode}).`, isError: false };
    } catch (err) {
      return { output: errorMessage(err), isError: true };
    }
  },
});
