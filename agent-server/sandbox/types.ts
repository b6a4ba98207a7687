import type { ApprovalPolicy, SandboxMode } from "../policy/types";

/** Everything a tool call needs to know about its confinement, computed per call from the calling session only. */
export interface SandboxContext {
  readonly sessionId: string;
  readonly mode: SandboxMode;
  readonly approval: ApprovalPolicy;
  /** realpath of the session cwd: the workspace-write root. */
  readonly root: string;
  /** The session's own temp area (bound at /tmp inside confined commands). */
  readonly tmpDir: string;
  /** Network allowed for commands (false unless the mode or an approved escalation allows it). */
  readonly network: boolean;
}

export type SandboxBackendName = "bubblewrap" | "sandbox-exec" | "landlock" | "none";

/** A command ready to spawn. */
export interface WrappedCommand {
  file: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

export interface CommandSandbox {
  readonly backend: SandboxBackendName;
  /** Wrap `bash -c command` for the given context. `unconfined` runs it without the sandbox (approved escalation / full access). */
  wrap(command: string, ctx: SandboxContext, opts: { cwd: string; unconfined: boolean }): WrappedCommand;
}
