// The fence around a whole third-party agent process (I-118), as plain data (types.ts `AgentFence`,
// made by the extension: extension/agent/confinement.ts): what one agent of a window may write
// (every workspace folder, its own state folders, its own temp area) and what it may not read (the
// home folder's secrets, Manifold's and VS Code's storage). Each backend turns a settled fence into
// its own argv (`fenceAgent` in bwrap.ts, landlock.ts, seatbelt.ts) with the primitives its
// per-command sandbox uses, so there is one copy of each mechanism.
import * as fs from "node:fs";
import { shellQuote } from "./shellQuote";
import type { AgentCommand, AgentFence } from "./types";

/** The variable that carries dist/fence-run.js its `{ cmd, fence }` (extension/agent/fenceRun.ts). */
export const FENCE_RUN_ENV = "MANIFOLD_FENCE_RUN";

function real(p: string): string | undefined {
  try {
    return fs.realpathSync(p);
  } catch {
    return undefined;
  }
}

/** The fence with every path real and deduplicated; state dirs and the temp area exist afterwards. */
export function settleFence(f: AgentFence): AgentFence {
  fs.mkdirSync(f.tmpDir, { recursive: true, mode: 0o700 });
  for (const d of f.stateDirs) fs.mkdirSync(d, { recursive: true, mode: 0o700 });
  const reals = (ps: readonly string[] | undefined) => [...new Set((ps ?? []).map(real).filter((p): p is string => p !== undefined))];
  // Outer folders first: a folder inside another is bound after it, so its own plan wins below it.
  const byDepth = (ps: string[]) => ps.sort((a, b) => a.length - b.length);
  return {
    folders: byDepth(reals(f.folders)),
    stateDirs: byDepth(reals(f.stateDirs)),
    stateFiles: reals(f.stateFiles).filter((p) => fs.statSync(p).isFile()),
    readable: reals(f.readable),
    tmpDir: real(f.tmpDir) ?? f.tmpDir,
    hidden: reals(f.hidden).filter((p) => p !== "/"),
    protectedPaths: f.protectedPaths ?? [],
  };
}

/** Every dir or file the agent may write, real paths. */
export function writableOf(f: AgentFence): string[] {
  return [...f.folders, ...f.stateDirs, ...(f.stateFiles ?? []), f.tmpDir];
}

/**
 * Where the agent starts: the first folder (codex and gemini take their cwd for the workspace),
 * else its temp area. Inside the fence whatever the folder holds runs fenced too.
 */
export function workDirOf(f: AgentFence): string {
  return f.folders[0] ?? f.tmpDir;
}

/** `exec` of the agent's argv as one POSIX shell line (for backends that start it through a shell). */
export function execLine(cmd: AgentCommand): string {
  return ["exec", ...[cmd.command, ...cmd.args].map(shellQuote)].join(" ");
}
