// A test-only extension method, `_manifold/debug/memory`: forces a full GC and reports the heap and
// what the LiveAgents still holds (I-110). It exists only when the process was started with
// `--expose-gc` AND `MANIFOLD_DEBUG_MEMORY=1`; a production agent has neither, so the method is
// unknown (-32601) there and no client can make it stall the process with forced GCs.
import type { LiveAgents } from "../runtime/liveAgents";
import type { Bridge } from "./bridge";

export const DEBUG_MEMORY_METHOD = "_manifold/debug/memory";

export interface MemoryReport {
  heapUsed: number;
  rss: number;
  agents: number;
  sessions: number;
  records: number;
}

export function debugMemoryEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.MANIFOLD_DEBUG_MEMORY === "1" && typeof (globalThis as { gc?: unknown }).gc === "function";
}

/** The method's answer (front.ts registers it when `debugMemoryEnabled()`). */
export function memoryReport(live: LiveAgents, bridge: Bridge): MemoryReport {
  const gc = (globalThis as unknown as { gc: () => void }).gc;
  gc();
  gc(); // a second pass collects what the first one's finalizers released
  const m = process.memoryUsage();
  return { heapUsed: m.heapUsed, rss: m.rss, agents: live.agents.size, sessions: live.sessions.size, records: bridge.records.size };
}
