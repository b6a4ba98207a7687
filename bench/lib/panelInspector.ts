// The extension host seen from outside, through its own Node inspector: SIGUSR1 makes a Node process
// open its inspector (no product hook, no restart), /proc tells which port it listens on, and CDP's
// Runtime.evaluate installs perf_hooks.monitorEventLoopDelay in it. What it costs the host: one idle
// inspector socket and a 10 ms-resolution timer, both present in the "empty" baseline as well.
import { spawn, type ChildProcessByStdio } from "node:child_process";
import { readFileSync, readdirSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { z } from "zod";
import { repoRoot } from "./paths";

const LoopDelay = z.object({ p50: z.number(), p99: z.number(), max: z.number(), mean: z.number(), samples: z.number() });
export type LoopDelay = z.infer<typeof LoopDelay>;

/** A CDP message: a reply (id, result or error) or an event (method, no id). */
const CdpMessage = z.object({
  id: z.number().optional(),
  result: z.record(z.string(), z.unknown()).optional(),
  error: z.object({ message: z.string().optional() }).optional(),
});
const EvalResult = z.object({ value: z.unknown().optional() });
const TargetList = z.array(z.object({ webSocketDebuggerUrl: z.string() })).min(1);

export interface HostProbe {
  /** Clears the event-loop delay histogram (the next read covers the time since). */
  resetLoopDelay(): Promise<void>;
  readLoopDelay(): Promise<LoopDelay>;
  /** JS heap after a full GC, and the process's RSS, in MiB. */
  heap(): Promise<{ heapMiB: number; rssMiB: number }>;
  /** Starts sampling the host's CPU (1 ms interval). */
  startProfile(): Promise<void>;
  /** Stops sampling: the CDP profile, unvalidated (lib/panelProfile.ts reads it). */
  stopProfile(): Promise<unknown>;
  close(): void;
}

/** TCP ports `pid` listens on (its socket fds matched against /proc/<pid>/net/tcp). */
export function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(join(`/proc/${pid}/fd`, fd)));
      if (m?.[1]) inodes.add(m[1]);
    } catch {
      // closed meanwhile
    }
  }
  const ports: number[] = [];
  for (const file of ["tcp", "tcp6"]) {
    let text = "";
    try {
      text = readFileSync(`/proc/${pid}/net/${file}`, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      // f[1] local address "IP:PORT" (hex), f[3] state (0A = LISTEN), f[9] inode
      if (f[3] === "0A" && f[9] && inodes.has(f[9])) ports.push(parseInt(f[1]?.split(":")[1] ?? "0", 16));
    }
  }
  return ports;
}

async function until<T>(probe: () => T | undefined, what: string, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function debuggerUrl(port: number): Promise<string> {
  const list = TargetList.safeParse(await (await fetch(`http://127.0.0.1:${port}/json/list`)).json());
  if (!list.success) throw new Error(`port ${port} is not a Node inspector`);
  return list.data[0]?.webSocketDebuggerUrl ?? "";
}

type Call = (method: string, params?: Record<string, unknown>) => Promise<Record<string, unknown>>;

function cdpOver(child: ChildProcessByStdio<Writable, Readable, null>): { opened: Promise<void>; call: Call } {
  const waiting = new Map<number, { resolve: (r: Record<string, unknown>) => void; reject: (e: Error) => void }>();
  let next = 0;
  let onOpen: () => void = () => undefined;
  const opened = new Promise<void>((resolve, reject) => {
    onOpen = resolve;
    child.once("exit", (code) => reject(new Error(`inspector relay exited (${code})`)));
  });
  createInterface({ input: child.stdout }).on("line", (line) => {
    if (line === "OPEN") return onOpen();
    const msg = CdpMessage.parse(JSON.parse(line));
    const w = msg.id === undefined ? undefined : waiting.get(msg.id);
    if (!w || msg.id === undefined) return; // an event
    waiting.delete(msg.id);
    if (msg.error) w.reject(new Error(msg.error.message ?? "CDP error"));
    else w.resolve(msg.result ?? {});
  });
  const call: Call = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = ++next;
      waiting.set(id, { resolve, reject });
      child.stdin.write(JSON.stringify({ id, method, params }) + "\n");
    });
  return { opened, call };
}

async function evaluate(call: Call, expression: string): Promise<unknown> {
  const r = await call("Runtime.evaluate", { expression, returnByValue: true });
  if (r.exceptionDetails) throw new Error(`evaluate failed: ${JSON.stringify(r.exceptionDetails).slice(0, 200)}`);
  return EvalResult.parse(r.result).value;
}

const INSTALL = `(() => {
  const { monitorEventLoopDelay } = process.getBuiltinModule("node:perf_hooks");
  globalThis.__panelBenchDelay ??= monitorEventLoopDelay({ resolution: 10 });
  globalThis.__panelBenchDelay.enable();
  globalThis.__panelBenchDelay.reset();
  return true;
})()`;

const READ = `(() => {
  const h = globalThis.__panelBenchDelay;
  // The histogram holds whole timer intervals: the delay is what exceeds the 10 ms resolution.
  const ms = (ns) => Math.max(0, ns / 1e6 - 10);
  return JSON.stringify({ p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max), mean: ms(h.mean), samples: h.count });
})()`;

/** Opens the inspector of Node process `pid` and installs the loop-delay monitor there. */
export async function attachHostProbe(pid: number): Promise<HostProbe> {
  const before = new Set(listeningPorts(pid));
  process.kill(pid, "SIGUSR1");
  const port = await until(
    () => listeningPorts(pid).find((p) => !before.has(p)),
    `the inspector of pid ${pid} (is port 9229 taken?)`,
    15_000,
  );
  const child = spawn(
    process.execPath,
    [
      "--experimental-websocket",
      "--no-warnings",
      "--import",
      "tsx",
      join(repoRoot, "bench/lib/panelInspectorMain.ts"),
      await debuggerUrl(port),
    ],
    {
      cwd: repoRoot,
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  const { opened, call } = cdpOver(child);
  await opened;
  await evaluate(call, INSTALL);
  return {
    resetLoopDelay: async () => void (await evaluate(call, "globalThis.__panelBenchDelay.reset()")),
    readLoopDelay: async () => LoopDelay.parse(JSON.parse(String(await evaluate(call, READ)))),
    async heap() {
      await call("HeapProfiler.collectGarbage");
      const usage = await call("Runtime.getHeapUsage");
      const rss = Number(await evaluate(call, "process.memoryUsage().rss"));
      return { heapMiB: Number(usage.usedSize) / 2 ** 20, rssMiB: rss / 2 ** 20 };
    },
    async startProfile() {
      await call("Profiler.enable");
      await call("Profiler.setSamplingInterval", { interval: 1000 });
      await call("Profiler.start");
    },
    async stopProfile() {
      const r = await call("Profiler.stop");
      await call("Profiler.disable");
      return r.profile;
    },
    close: () => void child.stdin.end(),
  };
}
