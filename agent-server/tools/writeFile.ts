import * as z from "zod/v4";
import { readIfExists, writeChecked, WriteRefused } from "./fsAccess";
import { displayPath, fsErrorMessage, shortPath } from "./paths";
import { defineTool } from "./types";

const params = z.object({
  path: z.string().describe("File to write, relative to the workspace root or absolute. Parent directories are created."),
  content: z.string().describe("The complete new content of the file."),
});

export const writeFileTool = defineTool<z.infer<typeof params>>({
  name: "write_file",
  description: "Create a file or replace its whole content. For small changes to an existing file prefer edit_file.",
  parameters: params,
  kind: "edit",
  title: (a) => `Write ${a.path}`,
  locations: (a, { cwd }) => [{ path: displayPath(a.path, cwd) }],
  access: (a) => ({ kind: "write", paths: [a.path] }),
  async run(args, ctx, permit) {
    const target = permit.writes.get(args.path);
    if (!target) return { output: `Internal error: ${args.path} was not checked before writing.`, isError: true };
    try {
      const oldText = await readIfExists(ctx, target.real, ctx.signal);
      await writeChecked(ctx, target, args.content);
      const lines = args.content.split("\n").length;
      return {
        output: `${oldText === null ? "Created" : "Wrote"} ${shortPath(target.real, ctx.sandbox.root)} (${lines} lines).`,
        isError: false,
        content: [{ type: "diff", path: target.real, oldText, newText: args.content }],
        locations: [{ path: target.real }],
      };
    } catch (err) {
      if (err instanceof WriteRefused) return { output: err.message, isError: true };
      return { output: fsErrorMessage(err, args.path), isError: true };
    }
  },
});
