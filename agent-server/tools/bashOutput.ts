import * as z from "zod/v4";
import { truncateMiddle } from "./truncate";
import { defineTool } from "./types";
import { errorMessage } from "../../base/errors";

const params = z.object({ task_id: z.string().min(1).describe("Id returned by bash with background: true.") });

export const bashOutputTool = defineTool<z.infer<typeof params>>({
  name: "bash_output",
  description: "Read the output so far of a background task of this session, and whether it is still running.",
  parameters: params,
  kind: "read",
  title: (a) => `Output of ${a.task_id}`,
  access: () => ({ kind: "none" }),
  async run(args, ctx) {
    try {
      const r = await ctx.tasks.output(args.task_id);
      const status = r.running ? "Still running." : `Finished with exit code ${r.exitCode}.`;
      return { output: `${truncateMiddle(r.output) || "(no output yet)"}\n${status}`, isError: false };
    } catch (err) {
      return { output: errorMessage(err), isError: true };
    }
  },
});
