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

/**
 * Polls `check` until it returns a value other than undefined/false. Only for state that has no
 * event (the process table, a task's buffered output). The deadline is a safety net (fail with a
 * message instead of hanging the run), never a timing assertion.
 */
export async function pollUntil<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  safetyMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + safetyMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`still waiting for ${what} after ${safetyMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A promise with its resolver, for waiting on a callback instead of sleeping. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
