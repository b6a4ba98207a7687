// macOS backend: /usr/bin/sandbox-exec (absolute, so PATH cannot substitute it) with a generated
// profile. Deny by default, read everywhere, write only under the writable roots (the session
// root in workspace-write, and the session temp area) minus the protected git paths; network only
// when allowed. Paths are canonicalised (/tmp → /private/tmp) and passed as -D parameters, never
// spliced into the profile text. Not runnable on the Linux CI: the profile and argv are unit-tested.
import * as fs from "node:fs";
import * as path from "node:path";
import { childEnv } from "./env";
import { ensureDir } from "./tmpArea";
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

export function seatbeltProfile(ctx: SandboxContext, realpath: (p: string) => string = canonical): SeatbeltParams {
  const params: Array<[string, string]> = [];
  const writable: string[] = [];
  const addRoot = (dir: string, readOnly: string[]): void => {
    const i = writable.length;
    const name = `WRITABLE_ROOT_${i}`;
    params.push([name, realpath(dir)]);
    const ro = readOnly.map((p, j) => {
      const roName = `${name}_RO_${j}`;
      params.push([roName, realpath(p)]);
      return `(require-not (subpath (param "${roName}")))`;
    });
    writable.push(`(require-all (subpath (param "${name}")) ${ro.join(" ")})`.replace(/ \)$/, ")"));
  };
  if (ctx.mode === "workspace-write") {
    addRoot(ctx.root, [path.join(ctx.root, ".git", "hooks"), path.join(ctx.root, ".git", "config")]);
  }
  addRoot(ctx.tmpDir, []);
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
    "(allow file-ioctl (literal \"/dev/tty\") (regex #\"^/dev/ttys[0-9]+\"))",
    "(allow file-read*)",
    "(allow file-write-data (literal \"/dev/null\") (literal \"/dev/tty\") (regex #\"^/dev/ttys[0-9]+\"))",
    `(allow file-write* ${writable.join(" ")})`,
  ];
  if (ctx.network) lines.push("(allow network-outbound)", "(allow network-inbound)", "(allow system-socket)");
  return { params, profile: lines.join("\n") + "\n" };
}

export function seatbeltArgs(command: string, ctx: SandboxContext, shell = "/bin/bash", realpath?: (p: string) => string): string[] {
  const { params, profile } = seatbeltProfile(ctx, realpath);
  const args = ["-p", profile];
  for (const [k, v] of params) args.push(`-D${k}=${v}`);
  args.push("--", shell, "-c", command);
  return args;
}

export function createSeatbeltSandbox(env: NodeJS.ProcessEnv): CommandSandbox {
  return {
    backend: "sandbox-exec",
    wrap(command, ctx, { cwd, unconfined }): WrappedCommand {
      if (unconfined || ctx.mode === "danger-full-access") return unconfinedCommand(command, ctx, cwd, env);
      ensureDir(ctx.tmpDir);
      return { file: SANDBOX_EXEC, args: seatbeltArgs(command, ctx), env: childEnv(env, canonical(ctx.tmpDir)), cwd };
    },
  };
}
