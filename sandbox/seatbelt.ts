// macOS backend: /usr/bin/sandbox-exec (absolute, so PATH cannot substitute it) with a generated
// profile. Deny by default, read everywhere, write only under the writable roots (the session
// root in workspace-write, and the session temp area) minus the protected git paths; network only
// when allowed. Paths are canonicalised (/tmp → /private/tmp) and passed as -D parameters, never
// spliced into the profile text. Not runnable on the Linux CI: the profile and argv are unit-tested.
import * as fs from "node:fs";
import * as path from "node:path";
import { childEnv } from "./env";
import { ensureDir } from "./tmpArea";
import { CONFIG_DIRS, extraInRoot, protectionPlan } from "./configPaths";
import type { CommandSandbox, SandboxContext, WrappedCommand } from "./types";
import { unconfinedCommand } from "./unconfined";

export const SANDBOX_EXEC = "/usr/bin/sandbox-exec";

export interface SeatbeltParams {
  /** -D name → value */
  params: Array<[string, string]>;
  profile: string;
}

function canonical(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return p;
  }
}

/**
 * `hide`: directories no command may read or write (the data dir with every session's log, the
 * parent of the session temp areas); the session's own temp area is allowed again after them.
 */
export function seatbeltProfile(
  ctx: SandboxContext,
  realpath: (p: string) => string = canonical,
  hide: readonly string[] = [],
): SeatbeltParams {
  const params: Array<[string, string]> = [];
  const writable: string[] = [];
  /** `readOnly`: subtrees excluded from writes; `pinned`: paths whose own entry may not be renamed or removed. */
  const addRoot = (dir: string, readOnly: string[], pinned: string[] = []): void => {
    const i = writable.length;
    const name = `WRITABLE_ROOT_${i}`;
    params.push([name, realpath(dir)]);
    const ro = readOnly.map((p, j) => {
      const roName = `${name}_RO_${j}`;
      params.push([roName, realpath(p)]);
      return `(require-not (subpath (param "${roName}")))`;
    });
    const pins = pinned.map((p, j) => {
      const pinName = `${name}_PIN_${j}`;
      params.push([pinName, p]);
      return `(require-not (literal (param "${pinName}")))`;
    });
    writable.push(`(require-all (subpath (param "${name}")) ${[...ro, ...pins].join(" ")})`.replace(/ \)$/, ")"));
  };
  if (ctx.mode === "workspace-write") {
    // By name always (this also covers a repo the agent would create at the root), plus what
    // gitPlan finds the way git does. Seatbelt checks the path itself, so `.git` may not be renamed
    // or replaced even when it is a symlink or a `gitdir:` file.
    // Protected config (I-112) the same way: the config folders by name, existing or not (a path
    // rule needs nothing to exist), the entries the plan found in any spelling, and the client's
    // extra paths. A new `*.code-workspace` has no fixed name: the catch-and-hold covers it.
    const plan = protectionPlan(ctx.root, ctx.protectedPaths ?? []);
    const dotgit = path.join(ctx.root, ".git");
    const readOnly = [path.join(dotgit, "hooks"), path.join(dotgit, "config")];
    for (const name of CONFIG_DIRS) readOnly.push(path.join(ctx.root, name));
    readOnly.push(...extraInRoot(ctx.root, ctx.protectedPaths ?? []));
    for (const p of [...plan.readOnly, ...plan.masked]) if (!readOnly.includes(p)) readOnly.push(p);
    addRoot(ctx.root, readOnly, [realpath(dotgit), ...plan.pinned.map(realpath)]);
  }
  addRoot(ctx.tmpDir, []);
  const hidden = [...hide, path.dirname(ctx.tmpDir)].map((d, i) => {
    params.push([`HIDDEN_${i}`, realpath(d)]);
    return `(subpath (param "HIDDEN_${i}"))`;
  });
  const ownTmp = `(subpath (param "WRITABLE_ROOT_${writable.length - 1}"))`;
  const lines = [
    "(version 1)",
    "(deny default)",
    "(allow process-exec)",
    "(allow process-fork)",
    "(allow signal (target same-sandbox))",
    "(allow process-info* (target same-sandbox))",
    "(allow sysctl-read)",
    "(allow mach-lookup)",
    "(allow ipc-posix-shm)",
    "(allow pseudo-tty)",
    '(allow file-ioctl (literal "/dev/tty") (regex #"^/dev/ttys[0-9]+"))',
    "(allow file-read*)",
    '(allow file-write-data (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/ttys[0-9]+"))',
    `(allow file-write* ${writable.join(" ")})`,
    // Later rules win: hide the data dir and the temp areas, then give back the session's own area.
    `(deny file-read* file-write* ${hidden.join(" ")})`,
    `(allow file-read* file-write* ${ownTmp})`,
  ];
  if (ctx.network) lines.push("(allow network-outbound)", "(allow network-inbound)", "(allow system-socket)");
  return { params, profile: lines.join("\n") + "\n" };
}

export function seatbeltArgs(
  command: string,
  ctx: SandboxContext,
  shell = "/bin/bash",
  realpath?: (p: string) => string,
  hide: readonly string[] = [],
): string[] {
  const { params, profile } = seatbeltProfile(ctx, realpath, hide);
  const args = ["-p", profile];
  for (const [k, v] of params) args.push(`-D${k}=${v}`);
  args.push("--", shell, "-c", command);
  return args;
}

export function createSeatbeltSandbox(env: NodeJS.ProcessEnv, hide: readonly string[] = []): CommandSandbox {
  return {
    backend: "sandbox-exec",
    wrap(command, ctx, { cwd, unconfined }): WrappedCommand {
      if (unconfined || ctx.mode === "danger-full-access") return unconfinedCommand(command, ctx, cwd, env);
      ensureDir(ctx.tmpDir);
      return {
        file: SANDBOX_EXEC,
        args: seatbeltArgs(command, ctx, "/bin/bash", canonical, hide),
        env: childEnv(env, canonical(ctx.tmpDir)),
        cwd,
      };
    },
  };
}
