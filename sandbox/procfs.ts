// The process table from /proc (Linux): a process's descendants, and which of them are still alive.
// A process is named by its pid and start time, so a pid the kernel reused is never taken for it.
// Elsewhere (no /proc) both answer empty, and callers fall back to process-group signals alone.
import { readdirSync, readFileSync } from "node:fs";

export interface ProcessRef {
  pid: number;
  /** Field 22 of /proc/<pid>/stat (clock ticks since boot). */
  start: string;
}

interface Stat {
  ppid: number;
  state: string;
  start: string;
}

function readStat(pid: number): Stat | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0] ?? "?", ppid: Number(fields[1]), start: fields[19] ?? "" };
  } catch {
    return undefined; // exited while we looked
  }
}

/**
 * Whether some process holds `pid` (any platform; on Linux a zombie counts as gone). Only for pids
 * with no recorded start time, e.g. another window's host: prefer `stillAlive` for your own refs.
 */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
  const stat = readStat(pid);
  return stat === undefined ? process.platform !== "linux" : stat.state !== "Z";
}

/** `pid` as a reference (with its start time), or undefined when it is not alive. */
export function processRef(pid: number): ProcessRef | undefined {
  const stat = readStat(pid);
  return stat && stat.state !== "Z" ? { pid, start: stat.start } : undefined;
}

/** Every live descendant of `pid` (children, their children, …), not `pid` itself. */
export function descendantsOf(pid: number): ProcessRef[] {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  const table = new Map<number, Stat>();
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (stat && stat.state !== "Z") table.set(Number(name), stat);
  }
  const found = new Map<number, string>();
  const isInTree = (p: number): boolean => p === pid || found.has(p);
  for (let grew = true; grew;) {
    grew = false;
    for (const [p, stat] of table) {
      if (!found.has(p) && p !== pid && isInTree(stat.ppid)) {
        found.set(p, stat.start);
        grew = true;
      }
    }
  }
  return [...found].map(([p, start]) => ({ pid: p, start }));
}

/** Which of `refs` are still alive (a zombie runs nothing and counts as gone). */
export function stillAlive(refs: ProcessRef[]): ProcessRef[] {
  return refs.filter((ref) => {
    const stat = readStat(ref.pid);
    return stat !== undefined && stat.state !== "Z" && stat.start === ref.start;
  });
}
