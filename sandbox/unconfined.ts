// A command run without confinement (danger-full-access, or one approved escalation): still a
// clean allowlisted environment, still the session's own temp area as TMPDIR.
import { childEnv } from "./env";
import { ensureDir } from "./tmpArea";
import type { SandboxContext, WrappedCommand } from "./types";

export function unconfinedCommand(
  command: string,
  ctx: SandboxContext,
  cwd: string,
  env: NodeJS.ProcessEnv,
  shell = "/bin/bash",
): WrappedCommand {
  ensureDir(ctx.tmpDir);
  return { file: shell, args: ["-c", command], env: childEnv(env, ctx.tmpDir), cwd };
}
