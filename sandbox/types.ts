// The sandbox's vocabulary. Node-only and free of ACP and VS Code: both the agent-server and the
// extension import this folder, so each security primitive exists once.

export const SANDBOX_MODES = ["read-only", "workspace-write", "danger-full-access"] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];

export const APPROVAL_POLICIES = ["untrusted", "on-request", "never"] as const;
export type ApprovalPolicy = (typeof APPROVAL_POLICIES)[number];

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
  /**
   * Extra absolute paths protected like editor config (I-112): files a configured MCP server reads
   * (its `envFile`), named by the client. Only those inside `root` count (`configPaths.extraInRoot`).
   */
  readonly protectedPaths?: readonly string[];
}

export type SandboxBackendName = "bubblewrap" | "sandbox-exec" | "landlock" | "none";

/** A command ready to spawn. */
export interface WrappedCommand {
  file: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /**
   * Descriptors the child must get as extra stdio: `fds[i]` becomes its fd `3 + i` (bwrap binds and
   * its seccomp filter by descriptor, sandbox/bindFds.ts). Single-use: the spawner closes them once
   * spawn() returned, whatever happened (`spawnTree` does; `releaseDescriptors` for one not spawned).
   */
  fds?: number[];
}

export interface CommandSandbox {
  readonly backend: SandboxBackendName;
  /** Wrap `bash -c command` for the given context. `unconfined` runs it without the sandbox (approved escalation / full access). */
  wrap(command: string, ctx: SandboxContext, opts: { cwd: string; unconfined: boolean }): WrappedCommand;
  /**
   * Wrap a whole agent process in the window's fence (agentFence.ts, I-118). Absent where the
   * backend cannot fence a process (no backend): the agent then starts only after the user chose
   * to run it unconfined (I-119).
   */
  fenceAgent?(cmd: AgentCommand, fence: AgentFence): WrappedCommand;
}

export interface AgentFence {
  /** The window's workspace folders: writable, with their git metadata and protected config read-only. */
  readonly folders: readonly string[];
  /** The agent's own state folders (sign-in, settings, caches): writable. Created when missing. */
  readonly stateDirs: readonly string[];
  /** Single state files the agent keeps beside its folders (claude's `~/.claude.json`): writable when they exist. */
  readonly stateFiles?: readonly string[];
  /** Dirs that must stay readable although a hidden dir holds them (a registry agent's install under Manifold's storage). */
  readonly readable?: readonly string[];
  /** The agent's own temp area: writable, its TMPDIR (and its working directory when there is no folder). */
  readonly tmpDir: string;
  /** Not readable: dirs become empty, files unreadable (/dev/null on a nodev mount). Only those that exist are masked. */
  readonly hidden: readonly string[];
  /** Extra protected paths (I-112), e.g. files a configured MCP server reads. */
  readonly protectedPaths?: readonly string[];
}

/** The agent's command before the fence goes around it. */
export interface AgentCommand {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
}
