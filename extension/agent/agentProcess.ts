// One agent child process: spawned in its own process group, stdio carries ACP, stderr goes to the
// log. `stop()` ends the whole tree (I-96) and resolves only when it is gone.
import { spawn, type ChildProcess } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { descendantsOf, stillAlive, type ProcessRef } from "../../sandbox";
import { redactValues } from "../../sandbox/redact";
import { closeQuietly } from "../../sandbox/bindFds";
import type { AgentSpec } from "./agentSpec";
import { ignoreError } from "../../base/errors";

export interface AgentLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  trace(message: string): void;
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** True when we asked it to stop. */
  requested: boolean;
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

/** Wraps a stream so each message is traced (method and direction; params only in trace). */
function traced(stream: acp.Stream, log: AgentLog): acp.Stream {
  const tap = (dir: string) =>
    new TransformStream({
      transform(msg, ctrl) {
        log.trace(`${dir} ${JSON.stringify(msg)}`);
        ctrl.enqueue(msg);
      },
    });
  const inbound = tap("←");
  const outbound = tap("→");
  void stream.readable.pipeTo(inbound.writable).catch(ignoreError("the connection's end is reported by the client"));
  void outbound.readable.pipeTo(stream.writable).catch(ignoreError("the connection's end is reported by the client"));
  return { readable: inbound.readable, writable: outbound.writable };
}

export class AgentProcess {
  readonly child: ChildProcess;
  readonly stream: acp.Stream;
  readonly exited: Promise<ExitInfo>;
  /** Set once the process has exited (or failed to spawn). */
  exitInfo?: ExitInfo & { error?: string };
  #stopping = false;

  constructor(spec: AgentSpec, log: AgentLog, trace: boolean, onStderrLine?: (line: string) => void) {
    try {
      this.child = spawn(spec.command, spec.args, {
        cwd: spec.cwd,
        env: spec.env,
        // The fence's bind descriptors become the child's fds 3, 4, … (sandbox/bindFds.ts).
        stdio: ["pipe", "pipe", "pipe", ...(spec.fds ?? [])],
        detached: true,
        windowsHide: true,
        shell: process.platform === "win32" && !spec.builtin,
      });
    } finally {
      // Single-use: the child holds its copies now (or never will).
      for (const fd of spec.fds?.splice(0) ?? []) closeQuietly(fd);
    }
    this.exited = new Promise<ExitInfo>((resolve) => {
      this.child.once("error", (err) => {
        log.error(`could not start ${spec.name}: ${err.message}`);
        this.exitInfo = { code: null, signal: null, requested: this.#stopping, error: err.message };
        resolve(this.exitInfo);
      });
      this.child.once("exit", (code, sig) => {
        this.exitInfo = { code, signal: sig, requested: this.#stopping };
        resolve(this.exitInfo);
      });
    });
    const secrets = spec.secretEnvNames.map((n) => spec.env[n]);
    // The keys we handed the agent, verbatim only: the agent log is full of session UUIDs that the
    // opaque-token pattern of `redact` would hide.
    const redact = (s: string) => redactValues(s, secrets);
    let pending = "";
    this.child.stderr?.setEncoding("utf8");
    this.child.stderr?.on("data", (chunk: string) => {
      const lines = (pending + chunk).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        if (!line.trim()) continue;
        log.info(redact(line));
        onStderrLine?.(line);
      }
    });
    if (!this.child.stdin || !this.child.stdout) throw new Error("agent stdio is not piped");
    const raw = acp.ndJsonStream(Writable.toWeb(this.child.stdin), Readable.toWeb(this.child.stdout) as ReadableStream<Uint8Array>);
    this.stream = trace ? traced(raw, { ...log, trace: (m) => log.trace(redact(m)) }) : raw;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /**
   * Ends the agent and everything it started: EOF on stdin, SIGTERM to the process group and every
   * descendant (background tasks may sit in their own groups), SIGKILL after `graceMs`. Resolves when
   * the child has exited and no recorded descendant is alive.
   */
  async stop(graceMs = 1500, opts: { requested: boolean } = { requested: true }): Promise<void> {
    const pid = this.child.pid;
    if (opts.requested) this.#stopping = true;
    if (pid === undefined) return;
    // Record the tree before anything exits: orphans are re-parented and lose the link. Each one is
    // named by pid + start time (sandbox/procfs.ts), so a reused pid is never signalled.
    const tree = new Map<number, ProcessRef>(descendantsOf(pid).map((r) => [r.pid, r]));
    this.child.stdin?.end();
    signal(-pid, "SIGTERM");
    for (const p of tree.keys()) signal(p, "SIGTERM");
    const exitedInTime = await Promise.race([this.exited.then(() => true), delay(graceMs).then(() => false)]);
    for (const r of descendantsOf(pid)) if (!tree.has(r.pid)) tree.set(r.pid, r);
    if (!exitedInTime) signal(-pid, "SIGKILL");
    await this.exited;
    const deadline = Date.now() + graceMs;
    for (;;) {
      const left = stillAlive([...tree.values()]);
      if (left.length === 0) return;
      if (Date.now() > deadline) {
        for (const r of left) signal(r.pid, "SIGKILL");
        signal(-pid, "SIGKILL");
        if (Date.now() > deadline + graceMs) return;
      }
      await delay(50);
    }
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
