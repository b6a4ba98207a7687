// Process-group bookkeeping from /proc (Linux): which processes of a group are still alive.
import { readdirSync, readFileSync } from "node:fs";

export interface ProcInfo {
  pid: number;
  pgid: number;
  state: string;
  command: string;
}

function readStat(pid: number): ProcInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so split after the last ")".
    const close = stat.lastIndexOf(")");
    const fields = stat.slice(close + 2).split(" ");
    const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
    return { pid, pgid: Number(fields[2]), state: fields[0] ?? "?", command };
  } catch {
    return undefined; // exited while we looked
  }
}

/** Live (non-zombie) processes whose process group is `pgid`. */
export function processesInGroup(pgid: number): ProcInfo[] {
  const out: ProcInfo[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const info = readStat(Number(name));
    if (info && info.pgid === pgid && info.state !== "Z") out.push(info);
  }
  return out;
}

/** Live (non-zombie) processes whose command line contains `text` (e.g. a state folder's path). */
export function processesMentioning(text: string): ProcInfo[] {
  const out: ProcInfo[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    const info = readStat(Number(name));
    if (info && info.state !== "Z" && info.command.includes(text)) out.push(info);
  }
  return out;
}

/** Resolves with what is still alive when `list()` is empty or `timeoutMs` has passed (polled, no event exists). */
export async function waitUntilGone(list: () => ProcInfo[], timeoutMs: number): Promise<ProcInfo[]> {
  const deadline = Date.now() + timeoutMs;
  let left = list();
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    left = list();
  }
  return left;
}

/** Sends `signal` to every process of the group; false when the group is already gone. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stops a process group: SIGTERM, then SIGKILL after `graceMs`; resolves when no process of the group
 * is alive (checked on each `/proc` poll tick; there is no event for the death of a grandchild).
 */
export async function stopGroup(pgid: number, graceMs = 5_000, timeoutMs = 20_000): Promise<void> {
  const started = Date.now();
  signalGroup(pgid, "SIGTERM");
  let killed = false;
  while (processesInGroup(pgid).length > 0) {
    const elapsed = Date.now() - started;
    if (!killed && elapsed > graceMs) {
      signalGroup(pgid, "SIGKILL");
      killed = true;
    }
    if (elapsed > timeoutMs) {
      const left = processesInGroup(pgid).map((p) => `${p.pid} ${p.command}`);
      throw new Error(`process group ${pgid} still alive after ${timeoutMs} ms:\n${left.join("\n")}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
