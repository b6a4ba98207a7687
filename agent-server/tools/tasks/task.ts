// One background task: a running process with its output buffer, then, once it has exited, a plain
// record. The running side is built here, in a scope that holds only what the task needs, so the
// process handle's closures never reach the session that started it (I-110).
import { spawnTree } from "../../../sandbox/processTree";
import type { WrappedCommand } from "../../../sandbox/types";
import { MAX_OUTPUT_CHARS, OutputBuffer, truncateMiddle } from "../truncate";

/** What a finished task keeps: bash_output shows at most MAX_OUTPUT_CHARS, and the margin leaves room for the truncation notice so it is shown as is. */
export const FINISHED_OUTPUT_CHARS = MAX_OUTPUT_CHARS - 256;

export interface FinishedTask {
  readonly state: "finished";
  readonly id: string;
  readonly owner: string;
  readonly command: string;
  readonly output: string;
  readonly exitCode: number | null;
}

export interface RunningTask {
  readonly state: "running";
  readonly id: string;
  readonly owner: string;
  readonly command: string;
  output(): string;
  /** Kills the whole tree; resolves with the finished record once every process has exited. */
  kill(): Promise<FinishedTask>;
}

export interface LaunchSpec {
  id: string;
  owner: string;
  command: string;
  wrapped: WrappedCommand;
  timeoutMs?: number | undefined;
  graceMs: number;
}

export function launchTask(spec: LaunchSpec, onFinish: (record: FinishedTask) => void): RunningTask {
  const { id, owner, command, graceMs } = spec;
  const buf = new OutputBuffer();
  const proc = spawnTree(spec.wrapped, (c) => buf.push(c));
  const timer = spec.timeoutMs !== undefined ? setTimeout(() => void proc.kill(graceMs), spec.timeoutMs) : undefined;
  // `ended`: a task killed by its timeout is finished only once its whole tree is gone.
  const done = proc.ended.then((r): FinishedTask => {
    if (timer) clearTimeout(timer);
    const record: FinishedTask = {
      state: "finished",
      id,
      owner,
      command,
      output: truncateMiddle(buf.text(), FINISHED_OUTPUT_CHARS),
      exitCode: r.exitCode ?? (r.signal ? 128 : null),
    };
    onFinish(record);
    return record;
  });
  return {
    state: "running",
    id,
    owner,
    command,
    output: () => buf.text(),
    async kill() {
      await proc.kill(graceMs);
      return done;
    },
  };
}
