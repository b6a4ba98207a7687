// Test helper: run a command through a CommandSandbox and collect its output.
import { spawnTree } from "../../../sandbox/processTree";
import type { CommandSandbox, SandboxContext } from "../../../sandbox/types";

export async function runIn(
  sb: CommandSandbox,
  ctx: SandboxContext,
  command: string,
  unconfined = false,
): Promise<{ out: string; code: number | null }> {
  const wrapped = sb.wrap(command, ctx, { cwd: ctx.root, unconfined });
  let out = "";
  const p = spawnTree(wrapped, (c) => (out += c));
  const r = await p.exited;
  return { out, code: r.exitCode };
}
