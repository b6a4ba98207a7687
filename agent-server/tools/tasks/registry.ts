// Background tasks of every session in the process. Ownership lives here (owner token = session
// id, I-55/56): every access goes through an owner-bound view, foreign and unknown ids give
// byte-identical errors (I-57/58), ids carry a random suffix (I-62), and disposing an owner kills
// each task's whole tree and resolves only after every one has exited (I-61).
import { randomBytes } from "node:crypto";
import { DEFAULT_KILL_GRACE_MS, spawnTree, type RunningProcess } from "../../../sandbox/processTree";
import type { CommandSandbox, SandboxContext } from "../../../sandbox/types";
import { OutputBuffer } from "../truncate";
import type { TaskAccess } from "../types";

export class TaskNotFoundError extends Error {
  constructor(taskId: string) {
    // The same text for "never existed" and "belongs to another session": no existence oracle.
    super(`No background task ${JSON.stringify(taskId)} in this session.`);
    this.name = "TaskNotFoundError";
  }
}

interface Task {
  readonly id: string;
  readonly owner: string;
  readonly command: string;
  readonly proc: RunningProcess;
  readonly buf: OutputBuffer;
  exitCode: number | null;
  running: boolean;
  timer?: NodeJS.Timeout;
}

export interface TaskExit {
  taskId: string;
  exitCode: number | null;
}

export interface TaskRegistry {
  forOwner(sessionId: string, sandboxOf: () => SandboxContext): TaskAccess;
  /** Kill the owner's tasks and wait until they have exited. Their final output stays readable by the same session id (I-60). */
  disposeOwner(sessionId: string): Promise<void>;
  /** Kill and drop every record of the owner's tasks (session deleted). */
  forgetOwner(sessionId: string): Promise<void>;
  disposeAll(): Promise<void>;
  /** Called when a task exits on its own or is killed (owner = session id); for completion notices. */
  onExit(listener: (owner: string, exit: TaskExit) => void): () => void;
}

export interface TaskRegistryOptions {
  /** SIGTERM → SIGKILL grace when killing (default 2 s). */
  killGraceMs?: number;
}

export function createTaskRegistry(sandbox: CommandSandbox, opts: TaskRegistryOptions = {}): TaskRegistry {
  const tasks = new Map<string, Task>();
  const listeners = new Set<(owner: string, exit: TaskExit) => void>();
  const grace = opts.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  let closed = false;

  const lookup = (owner: string, taskId: string): Task => {
    const t = tasks.get(taskId);
    if (!t || t.owner !== owner) throw new TaskNotFoundError(taskId);
    return t;
  };

  const killTask = async (t: Task): Promise<void> => {
    await t.proc.kill(grace);
  };

  const forOwner = (owner: string, sandboxOf: () => SandboxContext): TaskAccess => {
    if (typeof owner !== "string" || owner.length === 0) throw new Error("Background tasks need an owner session id.");
    return {
      async start(command, { cwd, unconfined, timeoutMs }) {
        if (closed) throw new Error("The server is shutting down; no new background tasks.");
        const ctx = sandboxOf();
        if (ctx.sessionId !== owner) throw new Error("Background task sandbox does not belong to its owner session.");
        const wrapped = sandbox.wrap(command, ctx, { cwd, unconfined });
        const id = `bash-${randomBytes(9).toString("base64url")}`;
        const buf = new OutputBuffer();
        const proc = spawnTree(wrapped, (c) => buf.push(c));
        const task: Task = { id, owner, command, proc, buf, exitCode: null, running: true };
        tasks.set(id, task);
        if (timeoutMs !== undefined) task.timer = setTimeout(() => void killTask(task), timeoutMs);
        void proc.exited.then((r) => {
          task.running = false;
          task.exitCode = r.exitCode ?? (r.signal ? 128 : null);
          if (task.timer) clearTimeout(task.timer);
          for (const l of listeners) {
            try {
              l(owner, { taskId: id, exitCode: task.exitCode });
            } catch {
              /* a listener's failure is not the task's */
            }
          }
        });
        return { taskId: id };
      },
      async output(taskId) {
        const t = lookup(owner, taskId);
        return { output: t.buf.text(), running: t.running, exitCode: t.exitCode };
      },
      async kill(taskId) {
        const t = lookup(owner, taskId);
        await killTask(t);
        return { output: t.buf.text(), exitCode: t.exitCode };
      },
      list() {
        return [...tasks.values()].filter((t) => t.owner === owner).map((t) => ({ taskId: t.id, command: t.command, running: t.running }));
      },
    };
  };

  const disposeOwner = async (owner: string): Promise<void> => {
    const mine = [...tasks.values()].filter((t) => t.owner === owner);
    await Promise.all(mine.map(killTask));
  };

  return {
    forOwner,
    disposeOwner,
    async forgetOwner(owner) {
      await disposeOwner(owner);
      for (const t of [...tasks.values()]) if (t.owner === owner) tasks.delete(t.id);
    },
    async disposeAll() {
      closed = true;
      const owners = new Set([...tasks.values()].map((t) => t.owner));
      await Promise.all([...owners].map(disposeOwner));
    },
    onExit(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
