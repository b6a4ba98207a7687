// The host directories no session's tools or commands may see (I-116): checked once at start-up by
// whoever detects the sandbox (the agent-server from MANIFOLD_HIDE_DIRS, the extension for its
// terminals). A hidden dir must be absolute and real — masks and the file-tool fence match by path,
// and a relative or symlinked one would hide nothing — and it must exist, or bubblewrap could not
// mount over it. `/`, the home directory and its ancestors are refused: hiding them would take the
// user's toolchains and, usually, the session folders with them.
import * as fs from "node:fs";
import * as path from "node:path";
import { isInside } from "./pathGuard";
import { errorMessage } from "../base/errors";

/** The agent-server's environment variable: the extra dirs to hide, `path.delimiter`-separated. */
export const HIDE_DIRS_ENV = "MANIFOLD_HIDE_DIRS";

export function formatHideDirs(dirs: readonly string[]): string {
  return dirs.join(path.delimiter);
}

export function parseHideDirs(value: string | undefined): string[] {
  return (value ?? "")
    .split(path.delimiter)
    .map((d) => d.trim())
    .filter((d) => d !== "");
}

/** Drops every dir that lies inside (or equals) an earlier or later one: one mask per tree. */
export function outermost(dirs: readonly string[]): string[] {
  const unique = [...new Set(dirs)];
  return unique.filter((d) => !unique.some((o) => o !== d && isInside(d, o)));
}

function realOrNull(p: string | undefined): string | null {
  if (!p || !path.isAbsolute(p)) return null;
  try {
    return fs.realpathSync(p);
  } catch {
    return null;
  }
}

export interface ResolveHideOptions {
  /** The home directory (never hidden, nor any ancestor of it). */
  home?: string;
  log: (line: string) => void;
}

/**
 * Validates, creates (0700) and realpaths each given dir; a bad entry is logged and skipped, never
 * fatal: the rest still hide what they name.
 */
export function resolveHideDirs(given: readonly string[], opts: ResolveHideOptions): string[] {
  const home = realOrNull(opts.home);
  const out: string[] = [];
  for (const dir of given) {
    const skip = (why: string) => opts.log(`[sandbox] not hiding ${JSON.stringify(dir)}: ${why}`);
    if (dir.includes("\0")) {
      skip("contains NUL");
      continue;
    }
    if (!path.isAbsolute(dir)) {
      skip("not an absolute path");
      continue;
    }
    let real: string;
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      real = fs.realpathSync(dir);
      if (!fs.statSync(real).isDirectory()) throw new Error("not a directory");
    } catch (err) {
      skip(errorMessage(err));
      continue;
    }
    if (path.dirname(real) === real) {
      skip("the file system root");
      continue;
    }
    if (home !== null && isInside(home, real)) {
      skip(`it is the home directory or holds it (${home})`);
      continue;
    }
    out.push(real);
  }
  return outermost(out);
}
