// No usable backend: confined commands cannot run (I-73). The policy makes every command in a
// confined mode ask; an approved call runs unconfined. Asking this backend to confine fails closed.
import type { CommandSandbox } from "./types";
import { unconfinedCommand } from "./unconfined";

export const NO_BACKEND_MESSAGE =
  "No command sandbox is available on this machine (install bubblewrap: `apt install bubblewrap`, or allow unprivileged user namespaces), so commands cannot run confined.";

export function createNoSandbox(env: NodeJS.ProcessEnv, reason?: string): CommandSandbox & { reason?: string } {
  return {
    backend: "none",
    reason,
    wrap(command, ctx, { cwd, unconfined }) {
      if (unconfined || ctx.mode === "danger-full-access") return unconfinedCommand(command, ctx, cwd, env);
      throw new Error(NO_BACKEND_MESSAGE);
    },
  };
}
