// Runs one install tool (npm, tar, unzip) as its own process group: a cancel ends the whole tree
// through the one kill mechanism (sandbox/processTree.ts), and the output's tail explains a failure.
import { spawnTree } from "../../sandbox";
import { InstallError } from "./plan";

export interface RunOptions {
  cwd: string;
  env: Record<string, string>;
  signal?: AbortSignal;
  /** Each chunk of output (stdout and stderr), for a log. */
  onOutput?: (chunk: string) => void;
}

const TAIL = 4000;

/** Resolves with its stdout when the tool exits 0; rejects with its output's tail otherwise, or "cancelled". */
export async function runTool(file: string, args: string[], opts: RunOptions): Promise<string> {
  if (opts.signal?.aborted) throw new InstallError("cancelled");
  let output = "";
  let stdout = "";
  const onData = (chunk: string): void => {
    output = (output + chunk).slice(-64_000);
    opts.onOutput?.(chunk);
  };
  // stdout is the result (an archive's listing); stderr only explains a failure.
  const proc = spawnTree({ file, args, cwd: opts.cwd, env: opts.env }, onData, { rawStdout: true });
  proc.child.stdout?.setEncoding("utf8");
  proc.child.stdout?.on("data", (chunk: string) => {
    stdout += chunk;
    onData(chunk);
  });
  const onAbort = (): void => void proc.kill(500);
  opts.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    // `ended`: after a cancel, only once the whole tree is gone (nothing writes into the working folder after it is removed).
    const { exitCode, signal } = await proc.ended;
    if (opts.signal?.aborted) throw new InstallError("cancelled");
    if (exitCode === 127 && /ENOENT/.test(output)) throw new InstallError(`${file} was not found on PATH`);
    if (exitCode !== 0) {
      throw new InstallError(`${file} ${args[0] ?? ""} failed (${signal ?? `exit ${exitCode}`}): ${output.trim().slice(-TAIL)}`);
    }
    return stdout;
  } finally {
    opts.signal?.removeEventListener("abort", onAbort);
  }
}
