// Agents left behind by an extension host that died without deactivating (a crashed window) are
// reaped at the next activation: each running agent is recorded in a small file naming the host
// that owns it; a record whose host is gone and whose agent still runs gets its process group ended.
// Records of live hosts (other windows share the folder) are never touched.
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { descendantsOf, pidAlive } from "../../sandbox";

interface AgentRecord {
  hostPid: number;
  agentPid: number;
  command: string;
}

function recordFile(dir: string, hostPid: number, agentPid: number): string {
  return path.join(dir, `${hostPid}-${agentPid}.json`);
}

/** Records a running agent; returns a function that removes the record. */
export async function recordAgent(dir: string, agentPid: number, command: string): Promise<() => Promise<void>> {
  await mkdir(dir, { recursive: true });
  const file = recordFile(dir, process.pid, agentPid);
  const rec: AgentRecord = { hostPid: process.pid, agentPid, command };
  await writeFile(file, JSON.stringify(rec));
  return () => rm(file, { force: true });
}

async function commandLine(pid: number): Promise<string | undefined> {
  try {
    return (await readFile(`/proc/${pid}/cmdline`, "utf8")).split("\0").join(" ");
  } catch {
    return undefined;
  }
}

/** Ends agents whose owning host is gone. Returns the pids it signalled. */
export async function reapStaleAgents(dir: string): Promise<number[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const reaped: number[] = [];
  for (const name of names) {
    if (!name.endsWith(".json")) continue;
    const file = path.join(dir, name);
    let rec: AgentRecord;
    try {
      rec = JSON.parse(await readFile(file, "utf8")) as AgentRecord;
    } catch {
      await rm(file, { force: true });
      continue;
    }
    if (typeof rec.hostPid !== "number" || typeof rec.agentPid !== "number") {
      await rm(file, { force: true });
      continue;
    }
    if (rec.hostPid !== process.pid && pidAlive(rec.hostPid)) continue;
    // Only a process that still runs the recorded command is ours (pids get reused).
    const cmd = process.platform === "linux" ? await commandLine(rec.agentPid) : rec.command;
    if (pidAlive(rec.agentPid) && cmd !== undefined && cmd.includes(rec.command)) {
      for (const r of descendantsOf(rec.agentPid)) signal(r.pid);
      signal(-rec.agentPid);
      signal(rec.agentPid);
      reaped.push(rec.agentPid);
    }
    await rm(file, { force: true });
  }
  return reaped;
}

function signal(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // gone
  }
}
