import * as z from "zod/v4";
import { spawnTree, type RunningProcess } from "../../sandbox/processTree";
import type { ConfigSnapshot } from "../../sandbox/configSnapshot";
import type { CommandSandbox } from "../../sandbox/types";
import type { ConfigHold } from "./configHold";
import { OutputBuffer, truncateMiddle } from "./truncate";
import { defineTool, type CallPermit, type Tool, type ToolContext, type ToolResult } from "./types";
import { errorMessage } from "../../base/errors";

export const DEFAULT_TIMEOUT_MS = 120_000;
export const MAX_TIMEOUT_MS = 600_000;
const UPDATE_EVERY_MS = 150;

const params = z.object({
  command: z.string().min(1).describe("Shell command, run with bash -c in the workspace root."),
  timeout_ms: z
    .number()
    .int()
    .min(1)
    .max(MAX_TIMEOUT_MS)
    .optional()
    .describe(`Kill the command after this many ms (default ${DEFAULT_TIMEOUT_MS}, max ${MAX_TIMEOUT_MS}).`),
  background: z
    .boolean()
    .optional()
    .describe("Start it in the background and return a task id at once; read it with bash_output, stop it with bash_kill."),
  unsandboxed: z
    .boolean()
    .optional()
    .describe(
      "Ask to run outside the sandbox (network access, writes outside the workspace). The user is asked first; use only when the sandbox blocked the command.",
    ),
});

export type BashArgs = z.infer<typeof params>;

type Snapshot = ConfigSnapshot | null;
type Exit = Awaited<RunningProcess["ended"]>;

/** `hold`: the catch-and-hold of protected config a confined command creates or changes (I-112). */
export function createBashTool(sandbox: CommandSandbox, hold?: ConfigHold): Tool {
  return defineTool<BashArgs>({
    name: "bash",
    description:
      "Run a shell command in the workspace root. Commands run sandboxed: writes only inside the workspace and /tmp (private to this session), no network. Output (stdout+stderr) is returned with the exit code.",
    parameters: params,
    kind: "execute",
    title: (a) => (a.background ? `Run in background: ${a.command}` : `Run ${a.command}`),
    locations: () => [],
    access: (a) => ({ kind: "command", command: a.command, escalate: a.unsandboxed === true }),
    async run(args, ctx, permit) {
      // Taken before the command can write anything: what differs afterwards is its doing.
      const before = hold?.snapshot(ctx.sandbox, permit.unconfined) ?? null;
      if (args.background) return runInBackground(args, ctx, permit, hold, before);
      return runInForeground(sandbox, args, ctx, permit, hold, before);
    },
  });
}

async function runInBackground(
  args: BashArgs,
  ctx: ToolContext,
  permit: CallPermit,
  hold: ConfigHold | undefined,
  before: Snapshot,
): Promise<ToolResult> {
  const { taskId } = await ctx.tasks.start(args.command, {
    cwd: ctx.sandbox.root,
    unconfined: permit.unconfined,
    timeoutMs: args.timeout_ms,
  });
  const running = ctx.tasks.list().some((t) => t.taskId === taskId && t.running);
  hold?.watchTask(ctx.sandbox, taskId, before, running);
  return {
    output: `Started background task ${taskId}. Read its output with bash_output {"task_id":"${taskId}"}; stop it with bash_kill.`,
    isError: false,
  };
}

/** Runs the command to its end (or its timeout, or the turn's cancel), streaming its output into the card. */
async function runInForeground(
  sandbox: CommandSandbox,
  args: BashArgs,
  ctx: ToolContext,
  permit: CallPermit,
  hold: ConfigHold | undefined,
  before: Snapshot,
): Promise<ToolResult> {
  let wrapped;
  try {
    wrapped = sandbox.wrap(args.command, ctx.sandbox, { cwd: ctx.sandbox.root, unconfined: permit.unconfined });
  } catch (err) {
    return { output: errorMessage(err), isError: true };
  }
  const buf = new OutputBuffer();
  let dirty = false;
  const flush = (): void => {
    if (!dirty) return;
    dirty = false;
    ctx.update({ content: [{ type: "content", content: { type: "text", text: truncateMiddle(buf.text()) } }] });
  };
  const ticker = setInterval(flush, UPDATE_EVERY_MS);
  const proc = spawnTree(wrapped, (chunk) => {
    buf.push(chunk);
    dirty = true;
  });
  let why: "timeout" | "cancelled" | null = null;
  const timeoutMs = args.timeout_ms ?? DEFAULT_TIMEOUT_MS;
  const timer = setTimeout(() => {
    why = "timeout";
    void proc.kill();
  }, timeoutMs);
  const onAbort = (): void => {
    why ??= "cancelled";
    void proc.kill();
  };
  if (ctx.signal.aborted) onAbort();
  else ctx.signal.addEventListener("abort", onAbort, { once: true });
  let result;
  try {
    // Not `exited`: after a timeout or a cancel the result waits until the whole tree is gone.
    result = await proc.ended;
  } finally {
    clearTimeout(timer);
    clearInterval(ticker);
    ctx.signal.removeEventListener("abort", onAbort);
  }
  flush();
  const held = (await hold?.afterCommand(before, ctx)) ?? null;
  return finalResult(truncateMiddle(buf.text()), statusLine(why, timeoutMs, result), held, why !== null || result.exitCode !== 0);
}

function statusLine(why: "timeout" | "cancelled" | null, timeoutMs: number, result: Exit): string {
  if (why === "timeout") return `Command timed out after ${timeoutMs} ms and was killed.`;
  if (why === "cancelled") return "Command was cancelled.";
  return result.signal ? `Command was killed by ${result.signal}.` : `Exit code ${result.exitCode}.`;
}

function finalResult(output: string, status: string, held: string | null, isError: boolean): ToolResult {
  const body = output.length > 0 ? `${output}${output.endsWith("\n") ? "" : "\n"}${status}` : `(no output)\n${status}`;
  const text = held === null ? body : `${body}\n${held}`;
  return { output: text, isError, content: [{ type: "content", content: { type: "text", text } }] };
}
