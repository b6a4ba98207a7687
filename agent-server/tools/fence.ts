// Areas no file tool may read or write, in any mode: the server's data dir
// (every session's log), the client's storage it was told to hide (MANIFOLD_HIDE_DIRS: checkpoints,
// logs, VS Code's state, I-116) and the other sessions' temp areas. A session whose folder is the home
// directory would otherwise reach `~/.local/share/…/sessions/*.jsonl` with read_file or grep. A
// hidden dir that holds the session's own folder still refuses everything around that folder, never
// the folder itself: bubblewrap re-exposes the root below its masks the same way.
import * as path from "node:path";
import { canonicalize, isInside } from "../../sandbox/pathGuard";
import type { SandboxContext } from "../../sandbox/types";

export class FenceError extends Error {
  constructor(input: string) {
    super(`Access refused: ${input} belongs to the agent server or to another session.`);
    this.name = "FenceError";
  }
}

export interface FileFence {
  /** True when `real` (canonical) lies in a refused area. */
  refuses(real: string): boolean;
  /** True when a refused area lies at or below the canonical directory `dir` (a walker must skip it). */
  reachesBelow(dir: string): boolean;
}

function canonicalOrNull(p: string): string | null {
  try {
    return canonicalize(path.resolve(p));
  } catch {
    return null;
  }
}

/** `hidden`: server-wide refused dirs (the data dir, MANIFOLD_HIDE_DIRS). The temp areas' parent is refused except the session's own. */
export function createFence(hidden: readonly string[], sb: Pick<SandboxContext, "tmpDir" | "root">): FileFence {
  const refused = hidden.map(canonicalOrNull).filter((p): p is string => p !== null);
  const ownTmp = canonicalOrNull(sb.tmpDir);
  const tmpParent = ownTmp === null ? null : path.dirname(ownTmp);
  const root = canonicalOrNull(sb.root);
  const holdsRoot = (h: string) => root !== null && isInside(root, h);
  return {
    refuses(real) {
      if (refused.some((h) => isInside(real, h) && !(holdsRoot(h) && root !== null && isInside(real, root)))) return true;
      return tmpParent !== null && ownTmp !== null && isInside(real, tmpParent) && !isInside(real, ownTmp);
    },
    reachesBelow(dir) {
      return [...refused, ...(tmpParent === null ? [] : [tmpParent])].some((area) => isInside(area, dir));
    },
  };
}

/** A fence that refuses nothing (direct tool calls outside the runner, e.g. tests of one tool). */
export const OPEN_FENCE: FileFence = { refuses: () => false, reachesBelow: () => false };
