// Background tasks of every session in the process. Ownership lives here (owner token = session
// id, I-55/56): every access goes through an owner-bound view, foreign and unknown ids give
// byte-identical errors (I-57/58), ids carry a random suffix (I-62), and disposing an owner kills
// each task's whole tree and resolves only after every one has exited (I-61).
//
// What outlives a session (I-60, I-110): a finished task is reduced to plain data (its command, exit
// code and the output bash_output would show), so no process handle or closure of the session's agent
// stays reachable; and the finished records kept are bounded per live session and, for closed
// sessions, in total (oldest dropped first).
import { randomBytes } from "node:crypto";
import { releaseDescriptors } from "../../../sandbox/bindFds";
import { DEFAULT_KILL_GRACE_MS } from "../../../sandbox/processTree";
import type { CommandSandbox, SandboxContext } from "../../../sandbox/types";
import type { TaskAccess } from "../types";
import { launchTask, type FinishedTask, type RunningTask } from "./task";

export class TaskNotFoundError extends Error {
  constructor(taskId: string) {
    // The same text for "never existed" and "belongs to another session": no existence oracle.
    super(`No background task ${JSON.stringify(taskId)} in this session.`);
    this.name = "TaskNotFoundError";
  }
}

type Task = RunningTask | FinishedTask;

export interface TaskExit {
  taskId: string;
  exitCode: number | null;
}

export interface TaskTable {
  forOwner(sessionId: string, sandboxOf: () => SandboxContext): TaskAccess;
  /** Kill the owner's tasks and wait until they have exited. Their final output stays readable by the same session id (I-60), within the closed-session bound. */
  disposeOwner(sessionId: string): Promise<void>;
  /** Kill and drop every record of the owner's tasks (session deleted). */
  forgetOwner(sessionId: string): Promise<void>;
  disposeAll(): Promise<void>;
  /** Called when a task exits on its own or is killed (owner = session id); for completion notices. */
  onExit(listener: (owner: string, exit: TaskExit) => void): () => void;
}

/** Finished records kept for all closed sessions together (each at most ≈30 K characters of output). */
export const DEFAULT_MAX_CLOSED_TASKS = 64;
/** Finished records kept per live session; running tasks are never dropped. */
export const DEFAULT_MAX_FINISHED_PER_SESSION = 32;

export interface TaskRegistryOptions {
  /** SIGTERM → SIGKILL grace when killing (default 2 s). */
  killGraceMs?: number;
  maxClosedTasks?: number;
  maxFinishedPerSession?: number;
}

/** The table's records, shared by the table and its owner views. */
interface TableState {
  readonly tasks: Map<string, Task>;
  /** Finished records in the order they finished: what the bounds drop from, oldest first. */
  readonly finished: Map<string, FinishedTask>;
  /** Owners with a live agent (between forOwner and disposeOwner). */
  readonly live: Set<string>;
  closed: boolean;
}

/** What an owner view needs of its table besides the records. */
interface ViewDeps {
  readonly state: TableState;
  readonly sandbox: CommandSandbox;
  readonly grace: number;
  /** Defined by the table, outside any view: what a task keeps never reaches the view's `sandboxOf`. */
  readonly onFinish: (record: FinishedTask) => void;
}

function lookup(state: TableState, owner: string, taskId: string): Task {
  const t = state.tasks.get(taskId);
  if (!t || t.owner !== owner) throw new TaskNotFoundError(taskId);
  return t;
}

/** Applies both bounds; O(records kept), which the bounds keep small. */
function prune(state: TableState, maxClosed: number, maxPerSession: number): void {
  const { tasks, finished, live } = state;
  const drop = (t: FinishedTask): void => {
    finished.delete(t.id);
    if (tasks.get(t.id) === t) tasks.delete(t.id);
  };
  let closedCount = 0;
  const perOwner = new Map<string, number>();
  for (const t of finished.values()) {
    if (live.has(t.owner)) perOwner.set(t.owner, (perOwner.get(t.owner) ?? 0) + 1);
    else closedCount++;
  }
  for (const t of [...finished.values()]) {
    if (live.has(t.owner)) {
      const n = perOwner.get(t.owner)!;
      if (n > maxPerSession) {
        perOwner.set(t.owner, n - 1);
        drop(t);
      }
    } else if (closedCount > maxClosed) {
      closedCount--;
      drop(t);
    }
  }
}

/** The owner-bound view: every call is checked against `owner`. */
function ownerView(owner: string, sandboxOf: () => SandboxContext, deps: ViewDeps): TaskAccess {
  const { state, sandbox } = deps;
  return {
    async start(command, { cwd, unconfined, timeoutMs }) {
      if (state.closed) throw new Error("The server is shutting down; no new background tasks.");
      const ctx = sandboxOf();
      if (ctx.sessionId !== owner) throw new Error("Background task sandbox does not belong to its owner session.");
      const id = `bash-${randomBytes(9).toString("base64url")}`;
      const wrapped = sandbox.wrap(command, ctx, { cwd, unconfined });
      try {
        // Launched outside this closure's scope: nothing the task keeps can reach `sandboxOf` (the agent).
        state.tasks.set(id, launchTask({ id, owner, command, wrapped, timeoutMs, graceMs: deps.grace }, deps.onFinish));
      } finally {
        releaseDescriptors(wrapped); // spawnTree closed them already unless launching failed before it
      }
      return { taskId: id };
    },
    async output(taskId) {
      const t = lookup(state, owner, taskId);
      return t.state === "running"
        ? { output: t.output(), running: true, exitCode: null }
        : { output: t.output, running: false, exitCode: t.exitCode };
    },
    async kill(taskId) {
      const t = lookup(state, owner, taskId);
      const done = t.state === "running" ? await t.kill() : t;
      return { output: done.output, exitCode: done.exitCode };
    },
    list() {
      return [...state.tasks.values()]
        .filter((t) => t.owner === owner)
        .map((t) => ({ taskId: t.id, command: t.command, running: t.state === "running" }));
    },
  };
}

export function createTaskTable(sandbox: CommandSandbox, opts: TaskRegistryOptions = {}): TaskTable {
  const state: TableState = { tasks: new Map(), finished: new Map(), live: new Set(), closed: false };
  const { tasks, finished, live } = state;
  const listeners = new Set<(owner: string, exit: TaskExit) => void>();
  const grace = opts.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const maxClosed = opts.maxClosedTasks ?? DEFAULT_MAX_CLOSED_TASKS;
  const maxPerSession = opts.maxFinishedPerSession ?? DEFAULT_MAX_FINISHED_PER_SESSION;
  const pruneAll = (): void => prune(state, maxClosed, maxPerSession);

  const onFinish = (record: FinishedTask): void => {
    tasks.set(record.id, record);
    finished.set(record.id, record);
    pruneAll();
    for (const l of listeners) {
      try {
        l(record.owner, { taskId: record.id, exitCode: record.exitCode });
      } catch {
        /* a listener's failure is not the task's */
      }
    }
  };

  const forOwner = (owner: string, sandboxOf: () => SandboxContext): TaskAccess => {
    if (typeof owner !== "string" || owner.length === 0) throw new Error("Background tasks need an owner session id.");
    live.add(owner);
    return ownerView(owner, sandboxOf, { state, sandbox, grace, onFinish });
  };

  const disposeOwner = async (owner: string): Promise<void> => {
    live.delete(owner);
    const mine = [...tasks.values()].filter((t): t is RunningTask => t.owner === owner && t.state === "running");
    await Promise.all(mine.map((t) => t.kill()));
    pruneAll(); // the owner's records now count against the closed-session bound
  };

  return {
    forOwner,
    disposeOwner,
    async forgetOwner(owner) {
      await disposeOwner(owner);
      for (const t of [...tasks.values()]) {
        if (t.owner !== owner) continue;
        tasks.delete(t.id);
        finished.delete(t.id);
      }
    },
    async disposeAll() {
      state.closed = true;
      const owners = new Set([...tasks.values()].map((t) => t.owner));
      await Promise.all([...owners].map(disposeOwner));
    },
    onExit(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
