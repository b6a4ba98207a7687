import * as fs from "node:fs";
import * as path from "node:path";
import * as z from "zod/v4";
import { globMatcher } from "./glob";
import { displayPath, fsErrorMessage, resolveRead } from "./paths";
import { defineTool } from "./types";
import { walk } from "./walk";

const MAX_ENTRIES = 1_000;

const params = z.object({
  path: z.string().optional().describe("Directory to list, relative to the workspace root or absolute (default: the root)."),
  pattern: z
    .string()
    .optional()
    .describe("Glob matched recursively below the directory, e.g. `**/*.ts` or `*.md` (basename anywhere). Without it, lists one level."),
});

export const listFilesTool = defineTool<z.infer<typeof params>>({
  name: "list_files",
  description:
    "List a directory (one level, directories end with `/`), or find files below it by glob. .git and node_modules are skipped in recursive listings.",
  parameters: params,
  kind: "search",
  title: (a) => (a.pattern ? `Find ${a.pattern}${a.path ? ` in ${a.path}` : ""}` : `List ${a.path ?? "."}`),
  locations: (a, { cwd }) => [{ path: displayPath(a.path ?? ".", cwd) }],
  access: () => ({ kind: "read" }),
  async run(args, ctx, permit) {
    const input = args.path ?? ".";
    let dir: string;
    try {
      dir = resolveRead(input, ctx, permit.fence).real;
      const st = await fs.promises.stat(dir);
      if (!st.isDirectory()) return { output: `${input} is not a directory.`, isError: true };
    } catch (err) {
      return { output: fsErrorMessage(err, input), isError: true };
    }
    const out: string[] = [];
    let more = false;
    if (!args.pattern) {
      const entries = await fs.promises.readdir(dir, { withFileTypes: true });
      entries.sort((a, b) => a.name.localeCompare(b.name));
      for (const e of entries) {
        if (e.isDirectory() && permit.fence.refuses(path.join(dir, e.name))) continue;
        out.push(e.isDirectory() ? `${e.name}/` : e.name);
      }
      if (out.length > MAX_ENTRIES) {
        out.length = MAX_ENTRIES;
        more = true;
      }
    } else {
      const match = globMatcher(args.pattern);
      for await (const e of walk(dir, { signal: ctx.signal, refuses: permit.fence.refuses })) {
        if (!match(e.rel)) continue;
        if (out.length >= MAX_ENTRIES) {
          more = true;
          break;
        }
        out.push(e.isDir ? `${e.rel}/` : e.rel);
      }
    }
    if (out.length === 0)
      return { output: args.pattern ? `No files match ${args.pattern} in ${input}.` : `${input} is empty.`, isError: false };
    return {
      output: out.join("\n") + (more ? `\n\n[listing truncated at ${MAX_ENTRIES} entries; narrow the path or pattern]` : ""),
      isError: false,
      locations: [{ path: dir }],
    };
  },
});
