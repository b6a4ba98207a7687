import * as fs from "node:fs";
import * as z from "zod/v4";
import { readText } from "./fsAccess";
import { displayPath, fsErrorMessage, resolveRead } from "./paths";
import { defineTool } from "./types";

const DEFAULT_LIMIT = 2_000;
const MAX_LINE = 2_000;

const params = z.object({
  path: z.string().describe("File to read, relative to the workspace root or absolute."),
  offset: z.number().int().min(1).optional().describe("1-based line number to start at."),
  limit: z.number().int().min(1).optional().describe(`Number of lines to read (default ${DEFAULT_LIMIT}).`),
});

export const readFileTool = defineTool<z.infer<typeof params>>({
  name: "read_file",
  description: "Read a text file. Lines come back numbered (`N\\tline`); use offset/limit to page through long files.",
  parameters: params,
  kind: "read",
  title: (a) => `Read ${a.path}${a.offset ? ` from line ${a.offset}` : ""}`,
  locations: (a, { cwd }) => [{ path: displayPath(a.path, cwd), line: a.offset ?? null }],
  access: () => ({ kind: "read" }),
  async run(args, ctx, permit) {
    let real: string;
    let text: string;
    try {
      real = resolveRead(args.path, ctx, permit.fence).real;
      const st = await fs.promises.stat(real);
      if (st.isDirectory()) return { output: `${args.path} is a directory; use list_files to see its contents.`, isError: true };
      text = await readText(ctx, real, ctx.signal);
    } catch (err) {
      return { output: fsErrorMessage(err, args.path), isError: true };
    }
    if (text.slice(0, 8192).includes("\0")) return { output: `${args.path} looks like a binary file; not shown.`, isError: true };
    const lines = text.split("\n");
    if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
    const start = (args.offset ?? 1) - 1;
    const limit = args.limit ?? DEFAULT_LIMIT;
    if (start >= lines.length && !(start === 0 && lines.length === 0)) {
      return { output: `${args.path} has ${lines.length} lines; offset ${start + 1} is past the end.`, isError: true };
    }
    const slice = lines.slice(start, start + limit);
    const width = String(start + slice.length).length;
    const body = slice
      .map(
        (l, i) => `${String(start + i + 1).padStart(width, " ")}\t${l.length > MAX_LINE ? `${l.slice(0, MAX_LINE)} [line truncated]` : l}`,
      )
      .join("\n");
    const more =
      start + slice.length < lines.length
        ? `\n\n[${lines.length - start - slice.length} more lines; read again with offset ${start + slice.length + 1}]`
        : "";
    return { output: text.length === 0 ? "(empty file)" : body + more, isError: false, locations: [{ path: real, line: start + 1 }] };
  },
});
