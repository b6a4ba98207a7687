// dist/fence-run.js: runs one agent command inside its fence, attached to the terminal it was
// started in. A terminal sign-in method (ACP `terminal` auth) runs the agent's own command with the
// method's args; VS Code's terminal cannot hand a child the fence's bind descriptors, so the terminal
// starts this small program (on VS Code's Node), which sets the fence up itself with the same
// backend and code the agent's start uses (confinement.ts → `CommandSandbox.fenceAgent`) and waits.
// Input: MANIFOLD_FENCE_RUN, JSON `{ cmd, fence }` (it holds the agent's environment, so it travels
// in the environment, never in argv). Exit code: the command's, 126 when the fence cannot be set up.
import { spawn } from "node:child_process";
import { z } from "zod";
import { FENCE_RUN_ENV } from "../../sandbox/agentFence";
import { detectSandbox } from "../../sandbox/detect";
import { errorMessage } from "../../base/errors";

const paths = z.array(z.string());
const Input = z.object({
  cmd: z.object({ command: z.string().min(1), args: paths, env: z.record(z.string(), z.string()) }),
  fence: z.object({
    folders: paths,
    stateDirs: paths,
    stateFiles: paths.optional(),
    readable: paths.optional(),
    tmpDir: z.string().min(1),
    hidden: paths,
    protectedPaths: paths.optional(),
  }),
});

async function main(): Promise<number> {
  const input = Input.parse(JSON.parse(process.env[FENCE_RUN_ENV] ?? "null"));
  const sandbox = await detectSandbox(process.env, { excludeDirs: input.fence.folders, log: () => {} });
  if (!sandbox.fenceAgent) throw new Error(`no sandbox backend works here (${sandbox.backend})`);
  const w = sandbox.fenceAgent(input.cmd, input.fence);
  const child = spawn(w.file, w.args, { env: w.env, cwd: w.cwd, stdio: ["inherit", "inherit", "inherit", ...(w.fds ?? [])] });
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(sig, () => child.kill(sig));
  return new Promise((resolve) => {
    child.once("error", (err) => {
      process.stderr.write(`could not start the sign-in command: ${err.message}\n`);
      resolve(126);
    });
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

if (require.main === module)
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`Manifold could not set up the agent's fence for sign-in: ${errorMessage(err)}\n`);
      process.exit(126);
    },
  );
