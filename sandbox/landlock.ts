// Landlock backend (Linux hosts where bubblewrap cannot create namespaces, e.g. Ubuntu with
// apparmor_restrict_unprivileged_userns). Weaker than bubblewrap, and logged as such:
// - writes: only the root (workspace-write) and the session temp area (TMPDIR); reads everywhere,
//   so another session's temp area or the data dir can be READ by path (no mount namespace);
// - `.git/hooks` / `.git/config` are NOT protected (Landlock cannot carve exceptions out of a rule);
// - network: off means a seccomp filter refusing every socket() (IP, UDP and unix alike; stream
//   socketpairs stay), plus Landlock's TCP rules from ABI 4 and abstract-socket scoping from ABI 6;
// - no PID namespace: kill is per process group plus the command's descendants at kill time; a
//   grandchild orphaned earlier (a double fork with setsid) escapes it.
import { childEnv } from "./env";
import { LANDLOCK_HELPER_SOURCE } from "./landlockHelper";
import { isInside } from "./pathGuard";
import { seccompSupported, socketFilter } from "./seccomp";
import { ensureDir } from "./tmpArea";
import type { CommandSandbox, SandboxContext, WrappedCommand } from "./types";
import { unconfinedCommand } from "./unconfined";

export interface LandlockOptions {
  python: string;
  env: NodeJS.ProcessEnv;
  shell?: string;
}

// No network namespace here: with the network off every socket() is refused (unix ones too).
const NO_SOCKETS_HEX = socketFilter({ sockets: "all" }).toString("hex");

export function landlockArgs(command: string, ctx: SandboxContext, shell = "/bin/bash"): string[] {
  const writable = ctx.mode === "workspace-write" ? [ctx.root, ctx.tmpDir] : [ctx.tmpDir];
  const filter = ctx.network || !seccompSupported() ? "-" : NO_SOCKETS_HEX;
  return ["-I", "-c", LANDLOCK_HELPER_SOURCE, ctx.network ? "1" : "0", filter, ...writable, "--", shell, "-c", command];
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
  };
}
