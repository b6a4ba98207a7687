// Test helper: pids whose command line contains a marker (Linux /proc).
import * as fs from "node:fs";

export function pidsMatching(marker: string): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0").join(" ");
      if (cmd.includes(marker) && !cmd.includes("bash -c") && !cmd.includes("bwrap")) out.push(Number(name));
    } catch {
      /* gone */
    }
  }
  return out;
}
