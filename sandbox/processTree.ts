// Spawning a wrapped command as its own process-group leader and killing the whole tree. Under
// bubblewrap the group leader is bwrap itself: killing it tears down the PID namespace
// (--die-with-parent), so setsid'd grandchildren die too. Without a PID namespace we kill the
// process group. On Linux, kill() also snapshots the leader's descendants first: each one still
// alive after the group is gone is killed by pid (a setsid'd grandchild of a non-namespaced
// backend), and kill() resolves only when every one of them has exited (the kernel reaps a PID
// namespace just after its leader).
import { spawn, type ChildProcess } from "node:child_process";
import { releaseDescriptors } from "./bindFds";
import { descendantsOf, stillAlive, type ProcessRef } from "./procfs";
import type { WrappedCommand } from "./types";

export interface RunningProcess {
  readonly child: ChildProcess;
  /** Resolves once the leader has exited and its output pipes have closed (or a short grace after exit). */
  readonly exited: Promise<{ exitCode: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM the group, SIGKILL after `graceMs`; resolves when the leader and every descendant it had have exited. */
  kill(graceMs?: number): Promise<{ exitCode: number | null; signal: NodeJS.Signals | null }>;
  /**
   * `exited`, and when kill() was called before the leader exited, only once that kill has finished too.
   * What a caller that fires kill() from a timer or an abort signal awaits: the leader's exit alone comes
   * before a PID namespace's teardown or the descendants' SIGKILL, so the tree would outlive the result.
   */
  readonly ended: Promise<{ exitCode: number | null; signal: NodeJS.Signals | null }>;
}

export interface SpawnTreeOptions {
  /** Pipe stdin instead of ignoring it (a process spoken to over stdio, e.g. an MCP server). */
  stdin?: boolean;
  /** Leave stdout to the caller (read `child.stdout` as bytes); only stderr goes to `onData`. */
  rawStdout?: boolean;
}

export const DEFAULT_KILL_GRACE_MS = 2_000;
/** How long kill() waits for descendants that were SIGKILLed by pid (bounded: /proc has no event). */
const DESCENDANTS_GONE_MS = 2_000;

function signalGroup(pid: number | undefined, sig: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, sig);
  } catch {
    try {
      process.kill(pid, sig);
    } catch {
      /* already gone */
    }
  }
}

/** SIGKILLs each pid still alive, then waits (bounded) until none is. */
async function killAndWait(refs: ProcessRef[]): Promise<void> {
  if (refs.length === 0) return;
  for (const { pid } of stillAlive(refs)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      /* already gone */
    }
  }
  const deadline = Date.now() + DESCENDANTS_GONE_MS;
  while (stillAlive(refs).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
}

/**
 * Spawns `cmd` as a group leader. Its descriptors (`cmd.fds`, bwrap's binds) become the child's fd
 * 3, 4, … and are closed here once spawn() returned or threw: the child holds its own copies.
 */
export function spawnTree(cmd: WrappedCommand, onData: (chunk: string) => void, opts: SpawnTreeOptions = {}): RunningProcess {
  let child: ChildProcess;
  try {
    child = spawn(cmd.file, cmd.args, {
      cwd: cmd.cwd,
      env: cmd.env,
      detached: true,
      stdio: [opts.stdin ? "pipe" : "ignore", "pipe", "pipe", ...(cmd.fds ?? [])],
    });
  } finally {
    releaseDescriptors(cmd);
  }
  if (!opts.rawStdout) {
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", onData);
  }
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", onData);
  let done = false;
  const exited = new Promise<{ exitCode: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    let result: { exitCode: number | null; signal: NodeJS.Signals | null } | null = null;
    let timer: NodeJS.Timeout | undefined;
    const finish = (): void => {
      if (done || !result) return;
      done = true;
      if (timer) clearTimeout(timer);
      resolve(result);
    };
    child.on("error", (err) => {
      onData(`${err.message}\n`);
      result = { exitCode: 127, signal: null };
      finish();
    });
    child.on("exit", (code, sig) => {
      result = { exitCode: code, signal: sig };
      // A grandchild may keep the pipes open; don't wait on it forever once the leader is gone.
      timer = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish();
      }, 500);
    });
    child.on("close", () => finish());
  });
  // One kill at a time: a second call (a timeout, then a cancel) joins the first.
  let killing: Promise<{ exitCode: number | null; signal: NodeJS.Signals | null }> | undefined;
  const kill = (graceMs = DEFAULT_KILL_GRACE_MS) => {
    if (!done) killing ??= killTree(graceMs);
    return killing ?? exited;
  };
  const killTree = async (graceMs: number) => {
    const tree = child.pid === undefined ? [] : descendantsOf(child.pid);
    signalGroup(child.pid, "SIGTERM");
    const t = setTimeout(() => signalGroup(child.pid, "SIGKILL"), graceMs);
    const r = await exited;
    clearTimeout(t);
    // Stragglers in the group (non-namespaced backends) get no second chance.
    signalGroup(child.pid, "SIGKILL");
    await killAndWait(tree);
    return r;
  };
  const ended = exited.then((r) => killing ?? r);
  return { child, exited, kill, ended };
}
