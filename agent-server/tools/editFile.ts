import * as z from "zod/v4";
import { readText, writeChecked, WriteRefused } from "./fsAccess";
import { displayPath, fsErrorMessage, shortPath } from "./paths";
import { defineTool } from "./types";

const params = z.object({
  path: z.string().describe("File to edit, relative to the workspace root or absolute."),
  old_string: z
    .string()
    .min(1)
    .describe("Exact text to replace, including whitespace and indentation. Must occur exactly once unless replace_all is true."),
  new_string: z.string().describe("Replacement text."),
  replace_all: z.boolean().optional().describe("Replace every occurrence of old_string."),
});

function count(haystack: string, needle: string): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}

export const editFileTool = defineTool<z.infer<typeof params>>({
  name: "edit_file",
  description: "Replace an exact piece of text in an existing file. Read the file first and copy old_string exactly.",
  parameters: params,
  kind: "edit",
  title: (a) => `Edit ${a.path}`,
  locations: (a, { cwd }) => [{ path: displayPath(a.path, cwd) }],
  access: (a) => ({ kind: "write", paths: [a.path] }),
  async run(args, ctx, permit) {
    const target = permit.writes.get(args.path);
    if (!target) return { output: `Internal error: ${args.path} was not checked before writing.`, isError: true };
    if (args.old_string === args.new_string)
      return { output: "old_string and new_string are identical; nothing to change.", isError: true };
    try {
      if (!target.exists) return { output: `File not found: ${args.path}. Use write_file to create a new file.`, isError: true };
      const oldText = await readText(ctx, target.real, ctx.signal);
      const n = count(oldText, args.old_string);
      if (n === 0)
        return {
          output: `old_string was not found in ${args.path}. Read the file again and copy the exact text, including whitespace.`,
          isError: true,
        };
      if (n > 1 && !args.replace_all) {
        return {
          output: `old_string occurs ${n} times in ${args.path}. Add surrounding lines to make it unique, or set replace_all to true.`,
          isError: true,
        };
      }
      const newText = args.replace_all
        ? oldText.split(args.old_string).join(args.new_string)
        : oldText.replace(args.old_string, () => args.new_string);
      await writeChecked(ctx, target, newText);
      const line = oldText.slice(0, oldText.indexOf(args.old_string)).split("\n").length;
      return {
        output: `Edited ${shortPath(target.real, ctx.sandbox.root)}: ${n === 1 ? "1 replacement" : `${n} replacements`}.`,
        isError: false,
        content: [{ type: "diff", path: target.real, oldText, newText }],
        locations: [{ path: target.real, line }],
      };
    } catch (err) {
      if (err instanceof WriteRefused) return { output: err.message, isError: true };
      return { output: fsErrorMessage(err, args.path), isError: true };
    }
  },
});
