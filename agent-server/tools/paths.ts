// Path helpers shared by the file tools.
import * as path from "node:path";
import { guardPath, PathGuardError, type GuardedPath } from "../../sandbox/pathGuard";
import { fileRefusalMessage } from "./fsAccess";
import { FenceError, OPEN_FENCE, type FileFence } from "./fence";
import type { ToolContext } from "./types";
import { errorMessage } from "../../base/errors";

/** Resolve a read target against the session root (reads are allowed anywhere but the fenced areas, still canonical). */
export function resolveRead(input: string, ctx: Pick<ToolContext, "sandbox">, fence: FileFence = OPEN_FENCE): GuardedPath {
  const g = guardPath(input, ctx.sandbox.root, [ctx.sandbox.root]);
  if (fence.refuses(g.real)) throw new FenceError(input);
  return g;
}

/** Best-effort absolute path for cards (never throws). */
export function displayPath(input: string, cwd: string): string {
  try {
    return guardPath(input, cwd, []).real;
  } catch {
    return path.isAbsolute(input) ? input : cwd + path.sep + input;
  }
}

/** Path relative to the root when inside it, for compact model-facing output. */
export function shortPath(real: string, root: string): string {
  const rel = path.relative(root, real);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel : real;
}

export function guardMessage(err: unknown, input: string): string | null {
  if (err instanceof PathGuardError) return `Invalid path ${JSON.stringify(input)}: ${err.message}`;
  if (err instanceof FenceError) return err.message;
  const refusal = fileRefusalMessage(err, input);
  if (refusal) return refusal;
  return null;
}

export function fsErrorMessage(err: unknown, input: string): string {
  const guard = guardMessage(err, input);
  if (guard) return guard;
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case "ENOENT":
      return `File not found: ${input}`;
    case "EISDIR":
      return `${input} is a directory; use list_files to see its contents.`;
    case "EACCES":
    case "EPERM":
      return `Permission denied: ${input}`;
    case "ENOTDIR":
      return `A component of ${input} is not a directory.`;
    default:
      return `Could not access ${input}: ${errorMessage(err)}`;
  }
}
