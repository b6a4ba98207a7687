// Session helpers over an AgentHandle: start + initialize, create many sessions, measure RSS after settling.
import { spawnAgent, withTimeout, type AgentHandle, type AgentSpec, type ClientKind } from "./agent";
import { pool, sleep } from "./bench";
import { treeRssMiB } from "./proc";
import { median } from "./stats";

export async function startAgent(spec: AgentSpec, client: ClientKind = "sdk", timeoutMs = 30_000): Promise<AgentHandle> {
  const h = spawnAgent(spec, client);
  try {
    await withTimeout(h.initialize(), timeoutMs, `${spec.name} initialize`);
  } catch (e) {
    const tail = h.stderr().trim().split("\n").slice(-3).join(" | ");
    await h.close();
    throw new Error(`${e instanceof Error ? e.message : String(e)}${tail ? ` (stderr: ${tail})` : ""}`);
  }
  return h;
}

export async function createSessions(h: AgentHandle, n: number, cwd: string, concurrency = 1, timeoutMs = 30_000): Promise<string[]> {
  return pool(Array.from({ length: n }), concurrency, () => withTimeout(h.newSession(cwd), timeoutMs, `${h.spec.name} session/new`));
}

/** RSS of the process trees after letting them settle: median of 3 samples. */
export async function settledRss(pids: readonly number[], settleMs: number): Promise<{ mib: number; processes: number }> {
  await sleep(settleMs);
  const samples: { mib: number; processes: number }[] = [];
  for (let i = 0; i < 3; i++) {
    samples.push(treeRssMiB(pids));
    await sleep(150);
  }
  const mib = median(samples.map((s) => s.mib));
  return { mib, processes: Math.max(...samples.map((s) => s.processes)) };
}

/** Text of an agent_message_chunk update, or "". */
export function chunkText(u: { update: { sessionUpdate: string; content?: { type: string; text?: string } } }): string {
  return u.update.sessionUpdate === "agent_message_chunk" && u.update.content?.type === "text" ? (u.update.content.text ?? "") : "";
}

export function prompt(h: AgentHandle, sessionId: string, text: string, timeoutMs = 120_000): Promise<{ stopReason: string }> {
  return withTimeout(
    h.request<{ stopReason: string }>("session/prompt", { sessionId, prompt: [{ type: "text", text }] }),
    timeoutMs,
    `${h.spec.name} session/prompt`,
  );
}
