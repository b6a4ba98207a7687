// Entry points of the tools layer. STUB: replaced by the tools work.
import type { CommandSandbox } from "../sandbox/types";
import type { TaskAccess, ToolRunner } from "./types";

export type { ToolRunner, ToolContext, ToolResult, TaskAccess } from "./types";

export interface ToolRunnerDeps {
  sandbox: CommandSandbox;
}

/** Validation, policy, permission, execution and output truncation for every built-in tool. */
export function createToolRunner(_deps: ToolRunnerDeps): ToolRunner {
  throw new Error("createToolRunner: not implemented yet");
}

/**
 * Background tasks of every session in the process. Ownership (owner token = session id) lives here,
 * not in the tool objects. `forOwner` gives a session its owner-bound view.
 */
export interface TaskRegistry {
  forOwner(sessionId: string, sandboxOf: () => import("../sandbox/types").SandboxContext): TaskAccess;
  /** Kill the owner's tasks and wait until they have exited. */
  disposeOwner(sessionId: string): Promise<void>;
  disposeAll(): Promise<void>;
}

export function createTaskRegistry(_sandbox: CommandSandbox): TaskRegistry {
  throw new Error("createTaskRegistry: not implemented yet");
}
