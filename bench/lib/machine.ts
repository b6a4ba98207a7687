// The machine and the commit a result was measured on.
import { execFileSync } from "node:child_process";
import { cpus, loadavg, totalmem, release } from "node:os";
import { repoRoot } from "./paths";

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  node: string;
  kernel: string;
  commit: string;
  dirty: boolean;
  date: string;
  /** 1/5/15-minute load averages when the run started: the machine is shared, so read the times with it. */
  loadAvg: number[];
}

function git(args: string[]): string {
  try {
    return execFileSync("git", args, { cwd: repoRoot, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return "";
  }
}

export function machineInfo(): MachineInfo {
  const cpu = cpus();
  return {
    cpuModel: cpu[0]?.model.trim() ?? "unknown",
    cores: cpu.length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    kernel: release(),
    commit: git(["rev-parse", "HEAD"]) || "unknown",
    dirty: git(["status", "--porcelain"]).length > 0,
    date: new Date().toISOString(),
    loadAvg: loadavg().map((l) => Math.round(l * 100) / 100),
  };
}
