import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as z from "zod/v4";
import { childEnv } from "../../sandbox/env";
import { globMatcher } from "./glob";
import { displayPath, fsErrorMessage, resolveRead, shortPath } from "./paths";
import { defineTool } from "./types";
import { walk } from "./walk";
import { describeKind, readRegular } from "../../sandbox/fileRead";
import { createLineMatcher, RegexTimeoutError } from "./regexWorker";
import { errorMessage } from "../../base/errors";

const MAX_MATCHES = 500;
const MAX_FILE_BYTES = 2_000_000;

const params = z.object({
  pattern: z.string().min(1).describe("Regular expression (Rust/JS syntax) searched line by line."),
  path: z.string().optional().describe("File or directory to search (default: the workspace root)."),
  glob: z.string().optional().describe("Only search files matching this glob, e.g. `*.ts` or `src/**/*.tsx`."),
});

let rgPath: string | null | undefined;
function findRg(): string | null {
  if (rgPath !== undefined) return rgPath;
  rgPath = null;
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue;
    const f = path.join(dir, process.platform === "win32" ? "rg.exe" : "rg");
    try {
      fs.accessSync(f, fs.constants.X_OK);
      rgPath = f;
      break;
    } catch {
      /* next */
    }
  }
  return rgPath;
}

function ripgrep(
  rg: string,
  pattern: string,
  target: string,
  glob: string | undefined,
  cwd: string,
  signal: AbortSignal,
): Promise<{ lines: string[]; error?: string }> {
  const args = ["--line-number", "--no-heading", "--color", "never", "--max-columns", "500", "--max-count", String(MAX_MATCHES)];
  if (glob) args.push("--glob", glob);
  args.push("-e", pattern, "--", target);
  return new Promise((resolve) => {
    execFile(rg, args, { cwd, signal, maxBuffer: 20_000_000, env: childEnv(process.env, cwd) }, (err, stdout, stderr) => {
      const code = (err as { code?: unknown } | null)?.code;
      if (err && code !== 1) resolve({ lines: [], error: String(stderr || err.message).trim() });
      else resolve({ lines: String(stdout).split("\n").filter(Boolean) });
    });
  });
}

/** Matching regex time per grep call in the worker (the main thread never runs the pattern). */
const REGEX_BUDGET_MS = 5_000;

async function jsGrep(
  pattern: string,
  target: string,
  isFile: boolean,
  glob: string | undefined,
  root: string,
  signal: AbortSignal,
  refuses: ((real: string) => boolean) | undefined,
): Promise<string[]> {
  const out: string[] = [];
  const match = glob ? globMatcher(glob) : () => true;
  const matcher = createLineMatcher(pattern, "u", REGEX_BUDGET_MS, signal);
  try {
    const files = isFile ? oneFile(target) : regularFilesBelow(target, match, signal, refuses);
    for await (const f of files) {
      if (signal.aborted || out.length >= MAX_MATCHES) break;
      let text: string;
      try {
        // Capped, regular files only (never a FIFO or device; a huge sparse file is skipped).
        const r = await readRegular(f, MAX_FILE_BYTES, { signal });
        if (r.truncated) continue;
        text = r.bytes.toString("utf8");
      } catch {
        continue;
      }
      if (text.slice(0, 8192).includes("\0")) continue;
      for (const [n, line] of await matcher.match(text, MAX_MATCHES - out.length)) {
        out.push(`${shortPath(f, root)}:${n}:${line.length > 500 ? line.slice(0, 500) + "…" : line}`);
      }
    }
  } finally {
    await matcher.close();
  }
  return out;
}

async function* oneFile(f: string): AsyncGenerator<string> {
  yield f;
}

async function* regularFilesBelow(
  dir: string,
  match: (rel: string) => boolean,
  signal: AbortSignal,
  refuses: ((real: string) => boolean) | undefined,
): AsyncGenerator<string> {
  for await (const e of walk(dir, { signal, refuses })) if (e.isFile && match(e.rel)) yield path.join(dir, e.rel);
}

export const grepTool = defineTool<z.infer<typeof params>>({
  name: "grep",
  description: "Search file contents with a regular expression. Returns `path:line:text` for each matching line (at most 500).",
  parameters: params,
  kind: "search",
  title: (a) => `Search ${JSON.stringify(a.pattern)}${a.path ? ` in ${a.path}` : ""}${a.glob ? ` (${a.glob})` : ""}`,
  locations: (a, { cwd }) => [{ path: displayPath(a.path ?? ".", cwd) }],
  access: () => ({ kind: "read" }),
  async run(args, ctx, permit) {
    const input = args.path ?? ".";
    let target: string;
    let isFile: boolean;
    try {
      target = resolveRead(input, ctx, permit.fence).real;
      const st = await fs.promises.stat(target);
      if (!st.isFile() && !st.isDirectory())
        return { output: `${input} is ${describeKind(st)}, not a regular file; file tools only read regular files.`, isError: true };
      isFile = st.isFile();
    } catch (err) {
      return { output: fsErrorMessage(err, input), isError: true };
    }
    let lines: string[];
    // ripgrep walks by itself: when a fenced area lies below the target, the JS walker (which skips it) searches.
    const fenced = !isFile && permit.fence.reachesBelow(target);
    const rg = fenced ? null : findRg();
    if (rg) {
      const r = await ripgrep(rg, args.pattern, target, args.glob, ctx.sandbox.root, ctx.signal);
      if (r.error) return { output: `grep failed: ${r.error}`, isError: true };
      lines = r.lines.map((l) => (l.startsWith(ctx.sandbox.root + path.sep) ? l.slice(ctx.sandbox.root.length + 1) : l));
    } else {
      try {
        new RegExp(args.pattern, "u");
      } catch (err) {
        return { output: `Invalid regular expression: ${errorMessage(err)}`, isError: true };
      }
      try {
        lines = await jsGrep(args.pattern, target, isFile, args.glob, ctx.sandbox.root, ctx.signal, permit.fence.refuses);
      } catch (err) {
        if (err instanceof RegexTimeoutError) return { output: `grep stopped: ${err.message}`, isError: true };
        throw err;
      }
    }
    // A search stopped by a cancel found nothing because it stopped: never answer "No matches" for it.
    if (ctx.signal.aborted) return { output: "grep was cancelled before it finished.", isError: true };
    if (lines.length === 0) return { output: `No matches for ${JSON.stringify(args.pattern)} in ${input}.`, isError: false };
    const capped = lines.length >= MAX_MATCHES ? `\n\n[stopped at ${MAX_MATCHES} matches; narrow the pattern, path or glob]` : "";
    return { output: lines.join("\n") + capped, isError: false };
  },
});
