// Memory of a process tree, read from /proc (Linux only): VmRSS summed over the root and every descendant.
import { readdirSync, readFileSync } from "node:fs";

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 2 (comm) may contain spaces and parentheses: parse after the last ')'.
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ppid = Number(rest[1]);
    return Number.isFinite(ppid) ? ppid : undefined;
  } catch {
    return undefined; // the process exited between readdir and read
  }
}

function childrenMap(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const ppid = parentOf(pid);
    if (ppid === undefined) continue;
    const list = children.get(ppid) ?? [];
    list.push(pid);
    children.set(ppid, list);
  }
  return children;
}

/** The root pid and all its live descendants. */
export function processTree(root: number, children = childrenMap()): number[] {
  const out: number[] = [];
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop() as number;
    out.push(pid);
    for (const c of children.get(pid) ?? []) stack.push(c);
  }
  return out;
}

/** VmRSS of one process in KiB (0 if it is gone). */
export function rssKiB(pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** Sum of VmRSS over the process tree rooted at each pid, in MiB. */
export function treeRssMiB(roots: readonly number[]): { mib: number; processes: number } {
  let kib = 0;
  let processes = 0;
  const children = childrenMap();
  for (const root of roots) {
    for (const pid of processTree(root, children)) {
      kib += rssKiB(pid);
      processes++;
    }
  }
  return { mib: kib / 1024, processes };
}

const TICKS_PER_SEC = 100; // USER_HZ on Linux

/** CPU (user + system) of this process's children that have been waited for (cutime + cstime), in ms. */
export function childrenCpuMs(): number {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(rest[13]) + Number(rest[14])) * 1000) / TICKS_PER_SEC;
  } catch {
    return Number.NaN;
  }
}

/** CPU time (user + system) used so far by one process, in ms (10 ms resolution). */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // after comm: state(0) ppid(1) … utime is field 14 overall → index 11 here, stime index 12
    return ((Number(rest[11]) + Number(rest[12])) * 1000) / TICKS_PER_SEC;
  } catch {
    return 0;
  }
}
