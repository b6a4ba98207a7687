import { z } from "zod";
import { spawnTree } from "../../sandbox/processTree";
import type { CommandSandbox } from "../../sandbox/types";
import type { ConfigHold } from "./configHold";
import { OutputBuffer, truncateMiddle } from "./truncate";
import type { ToolDefinition } from "./types";
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

/** `hold`: the catch-and-hold of protected config a confined command creates or changes (I-112). */
export function createBashTool(sandbox: CommandSandbox, hold?: ConfigHold): ToolDefinition<BashArgs> {
  return {
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
      if (args.background) {
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
      const output = truncateMiddle(buf.text());
      const status =
        why === "timeout"
          ? `Command timed out after ${timeoutMs} ms and was killed.`
          : why === "cancelled"
            ? "Command was cancelled."
            : result.signal
              ? `Command was killed by ${result.signal}.`
              : `Exit code ${result.exitCode}.`;
      const body = output.length > 0 ? `${output}${output.endsWith("\n") ? "" : "\n"}${status}` : `(no output)\n${status}`;
      const text = held === null ? body : `${body}\n${held}`;
      return {
        output: text,
        isError: why !== null || result.exitCode !== 0,
        content: [{ type: "content", content: { type: "text", text } }],
      };
    },
  };
}
