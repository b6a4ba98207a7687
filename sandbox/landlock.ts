// Landlock backend (Linux hosts where bubblewrap cannot create namespaces, e.g. Ubuntu with
// apparmor_restrict_unprivileged_userns). Weaker than bubblewrap, and logged as such:
// - writes: only the root (workspace-write) and the session temp area (TMPDIR); reads everywhere,
//   so another session's temp area or the data dir can be READ by path (no mount namespace);
// - `.git/hooks` / `.git/config` are NOT protected (Landlock cannot carve exceptions out of a rule);
// - a genuine linked worktree (gitWorktree.ts, I-122) also gets its repository's `objects`, `refs`,
//   `logs` and its own git dir writable, the same grants as under bubblewrap, but that git dir's
//   `commondir`, `gitdir`, `config.worktree` and `modules/` are writable with it, for the same
//   reason; the repository's `hooks`, `config`, `HEAD` and other worktrees stay read-only here too;
// - network: off means a seccomp filter refusing every socket() (IP, UDP and unix alike; stream
//   socketpairs stay), plus Landlock's TCP rules from ABI 4 and abstract-socket scoping from ABI 6;
// - no PID namespace: kill is per process group plus the command's descendants at kill time; a
//   grandchild orphaned earlier (a double fork with setsid) escapes it;
// - no capability: the helper drops every one before the exec, so a command run as root has none.
// A fenced agent (`fenceAgent`, I-118) gets the same helper with the network on: writes only in the
// window's folders, its state dirs and files and its temp area, no unix socket (a seccomp filter
// refusing socket(AF_UNIX) where it knows the arch; abstract ones scoped from ABI 6 as well), no
// capability (the helper drops them all, root or not) and no new privileges. It falls short of
// I-118 where there is no mount namespace, and says so here: the hidden entries (the home
// folder's secrets, other agents' credentials, Manifold's storage) stay READABLE, and each
// folder's `.git` hooks and config and its protected config (I-112) stay WRITABLE, since a
// Landlock rule grants a whole subtree and nothing can be taken back below it. No PID namespace
// either: a double-forked grandchild outlives the agent's kill, as for a command.
import * as fs from "node:fs";
import * as path from "node:path";
import { settleFence, workDirOf, writableOf } from "./agentFence";
import { childEnv } from "./env";
import { gitProtectionPlan } from "./gitPlan";
import { clearOfMasks } from "./gitWorktree";
import { LANDLOCK_HELPER_SOURCE } from "./landlockHelper";
import { isInside } from "./pathGuard";
import { seccompSupported, socketFilter } from "./seccomp";
import { ensureDir } from "./tmpArea";
import type { AgentCommand, AgentFence, CommandSandbox, SandboxContext, WrappedCommand } from "./types";
import { unconfinedCommand } from "./unconfined";

export interface LandlockOptions {
  python: string;
  env: NodeJS.ProcessEnv;
  shell?: string;
}

// No network namespace here: with the network off every socket() is refused (unix ones too).
const NO_SOCKETS_HEX = socketFilter({ sockets: "all" }).toString("hex");
// A fenced agent keeps the network: only unix sockets are refused.
const NO_UNIX_SOCKETS_HEX = socketFilter({ sockets: "unix" }).toString("hex");

/** The helper's argv (landlockHelper.ts), one copy for a command and for an agent; "-" is no seccomp filter. */
function helperArgs(network: boolean, filterHex: string, writable: readonly string[], argv: readonly string[]): string[] {
  return ["-I", "-c", LANDLOCK_HELPER_SOURCE, network ? "1" : "0", filterHex, ...writable, "--", ...argv];
}

/**
 * The dirs outside `root` its plan makes writable (a genuine linked worktree's share of its
 * repository, gitWorktree.ts), none in or around a dir no command may write (`masks`). Landlock
 * grants whole hierarchies, so the plan's read-only entries inside them are not expressed.
 */
export function outsideGrants(root: string, masks: readonly string[]): string[] {
  return clearOfMasks(gitProtectionPlan(root), root, masks).writable;
}

export function landlockArgs(command: string, ctx: SandboxContext, shell = "/bin/bash"): string[] {
  // The parent of the session temp areas holds the other sessions' areas: nothing there is granted.
  const writable =
    ctx.mode === "workspace-write" ? [ctx.root, ctx.tmpDir, ...outsideGrants(ctx.root, [path.dirname(ctx.tmpDir)])] : [ctx.tmpDir];
  const filter = ctx.network || !seccompSupported() ? "-" : NO_SOCKETS_HEX;
  return helperArgs(ctx.network, filter, writable, [shell, "-c", command]);
}

/** The helper's argv for a whole agent (the fence must be settled): network on, its writable entries, its own argv. */
export function landlockFenceArgs(cmd: AgentCommand, f: AgentFence): string[] {
  const grants = f.folders.flatMap((root) => outsideGrants(root, [...f.hidden, path.dirname(f.tmpDir)]));
  return helperArgs(true, seccompSupported() ? NO_UNIX_SOCKETS_HEX : "-", [...writableOf(f), ...grants], [cmd.command, ...cmd.args]);
}

function real(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

export function createLandlockSandbox(opts: LandlockOptions): CommandSandbox {
  const shell = opts.shell ?? "/bin/bash";
  return {
    backend: "landlock",
    wrap(command, ctx, { cwd, unconfined }): WrappedCommand {
      if (unconfined || ctx.mode === "danger-full-access") return unconfinedCommand(command, ctx, cwd, opts.env, shell);
      if (isInside(opts.python, ctx.root)) throw new Error(`Refusing to use ${opts.python}: the sandbox helper lies inside the workspace.`);
      ensureDir(ctx.tmpDir);
      return { file: opts.python, args: landlockArgs(command, ctx, shell), env: childEnv(opts.env, ctx.tmpDir), cwd };
    },
    fenceAgent(cmd, fence): WrappedCommand {
      const settled = settleFence(fence);
      // The helper runs before the fence exists: one the agent could have rewritten on an earlier
      // run (in a folder, a state dir or its temp area) would run unconfined. Spelled and real path.
      for (const w of writableOf(settled))
        for (const p of new Set([opts.python, real(opts.python)]))
          if (isInside(p, w))
            throw new Error(`Refusing to use ${opts.python}: the sandbox helper lies inside ${w}, which the agent may write.`);
      const env = { ...cmd.env, TMPDIR: settled.tmpDir };
      return { file: opts.python, args: landlockFenceArgs({ ...cmd, env }, settled), env, cwd: workDirOf(settled) };
    },
  };
}
