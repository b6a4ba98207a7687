// Spawns an ACP agent over stdio and connects a client to it: the SDK's client (what the extension
// uses) or a raw NDJSON JSON-RPC client (to tell client-side parsing cost from the agent's own).
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { closeSync } from "node:fs";
import { Readable, Writable } from "node:stream";
import { createInterface } from "node:readline";
import * as acp from "@agentclientprotocol/sdk";

export interface AgentSpec {
  /** Row label in the tables. */
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /**
   * Extra stdio for the child (fd 3, 4, …): a sandbox's bind descriptors (sandbox/types.ts
   * `WrappedCommand.fds`). Single-use: closed here once spawn() returned, so such a spec is made
   * afresh for each spawn.
   */
  fds?: number[];
}

export type ClientKind = "sdk" | "raw";

export interface UpdateParams {
  sessionId: string;
  update: { sessionUpdate: string; content?: { type: string; text?: string } };
}

export interface AgentHandle {
  readonly spec: AgentSpec;
  readonly child: ChildProcessWithoutNullStreams;
  readonly pid: number;
  /** hrtime when spawn() returned. */
  readonly spawnedAt: bigint;
  /** Called for every `session/update` notification (replace freely). */
  onUpdate: (p: UpdateParams) => void;
  request<R = unknown>(method: string, params: unknown): Promise<R>;
  initialize(): Promise<unknown>;
  newSession(cwd: string): Promise<string>;
  stderr(): string;
  exited(): boolean;
  close(): Promise<void>;
}

const live = new Set<AgentHandle>();
let exitHookInstalled = false;

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal); // the group of the process we spawned (detached → its own group)
  } catch {
    /* already gone */
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const h of live) killGroup(h.pid, "SIGKILL");
  });
}

export const CLIENT_INFO = { name: "manifold-bench", version: "0.1.0" };

export function initializeParams(): Record<string, unknown> {
  return {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    clientInfo: CLIENT_INFO,
  };
}

export function spawnAgent(spec: AgentSpec, client: ClientKind = "sdk"): AgentHandle {
  installExitHook();
  let child: ChildProcessWithoutNullStreams;
  try {
    // The first three are pipes whatever follows, so the streams are there.
    child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      stdio: ["pipe", "pipe", "pipe", ...(spec.fds ?? [])],
      detached: true,
    }) as ChildProcessWithoutNullStreams;
  } finally {
    for (const fd of spec.fds?.splice(0) ?? []) closeSync(fd);
  }
  const spawnedAt = process.hrtime.bigint();
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${spec.name}: spawn failed (${spec.command})`);
  let errText = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (d: string) => {
    if (errText.length < 64_000) errText += d;
  });
  let hasExited = false;
  const exitPromise = new Promise<void>((resolve) => child.once("exit", () => ((hasExited = true), resolve())));
  child.stdin.on("error", () => undefined); // EPIPE when the agent dies first

  let request: <R>(method: string, params: unknown) => Promise<R>;
  let closeConn: () => void;
  const handle: AgentHandle = {
    spec,
    child,
    pid,
    spawnedAt,
    onUpdate: () => undefined,
    request: (m, p) => request(m, p),
    initialize: () => request("initialize", initializeParams()),
    async newSession(cwd: string) {
      const r = await request<{ sessionId: string }>("session/new", { cwd, mcpServers: [] });
      return r.sessionId;
    },
    stderr: () => errText,
    exited: () => hasExited,
    async close() {
      live.delete(handle);
      closeConn();
      child.stdin.end();
      const timer = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());
      await Promise.race([exitPromise, timer(1500)]);
      if (!hasExited) killGroup(pid, "SIGTERM");
      await Promise.race([exitPromise, timer(1500)]);
      if (!hasExited) killGroup(pid, "SIGKILL");
      await exitPromise;
      killGroup(pid, "SIGKILL"); // stragglers the agent left in its group
    },
  };

  if (client === "sdk") {
    const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>);
    const conn = acp
      .client({ name: CLIENT_INFO.name })
      .onNotification(acp.methods.client.session.update, ({ params }) => {
        handle.onUpdate(params as unknown as UpdateParams);
      })
      .onRequest(acp.methods.client.session.requestPermission, () => ({ outcome: { outcome: "cancelled" as const } }))
      .connect(stream);
    request = <R>(m: string, p: unknown) => conn.agent.request<R>(m, p);
    closeConn = () => conn.close();
  } else {
    const raw = rawClient(child, handle);
    request = raw.request;
    closeConn = raw.close;
  }
  live.add(handle);
  return handle;
}

/** A bare JSON-RPC client over NDJSON: one JSON.parse per line, nothing else. */
function rawClient(child: ChildProcessWithoutNullStreams, handle: AgentHandle) {
  let nextId = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const rl = createInterface({ input: child.stdout, crlfDelay: Infinity });
  rl.on("line", (line) => {
    if (!line.trim()) return;
    const msg = JSON.parse(line) as {
      id?: number | string;
      method?: string;
      params?: unknown;
      result?: unknown;
      error?: { message: string };
    };
    if (msg.method === "session/update") return handle.onUpdate(msg.params as UpdateParams);
    if (msg.method !== undefined && msg.id !== undefined) {
      // agent → client request: permission gets "cancelled", anything else "method not found"
      const reply =
        msg.method === "session/request_permission"
          ? { jsonrpc: "2.0", id: msg.id, result: { outcome: { outcome: "cancelled" } } }
          : { jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "not supported by the bench client" } };
      child.stdin.write(JSON.stringify(reply) + "\n");
      return;
    }
    if (typeof msg.id === "number") {
      const p = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) p?.reject(new Error(msg.error.message));
      else p?.resolve(msg.result);
    }
  });
  const fail = () => {
    for (const p of pending.values()) p.reject(new Error("agent connection closed"));
    pending.clear();
  };
  rl.on("close", fail);
  return {
    request<R>(method: string, params: unknown): Promise<R> {
      const id = nextId++;
      return new Promise<R>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
      });
    },
    close: () => {
      rl.close();
      fail();
    },
  };
}

/** Resolves with the agent's answer or rejects after `ms` (bench guard: a peer that never answers). */
export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let t: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    t = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(t));
}
