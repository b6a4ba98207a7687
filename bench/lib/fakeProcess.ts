// Runs the bench SSE fake (sseFakeMain.ts) in its own process and returns its base URL.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { join } from "node:path";
import { repoRoot } from "./paths";

export interface FakeProcess {
  baseUrl: string;
  close(): Promise<void>;
}

export async function startFakeProcess(): Promise<FakeProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", join(repoRoot, "bench/lib/sseFakeMain.ts")], {
    cwd: repoRoot,
    stdio: ["pipe", "pipe", "inherit"],
  });
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  const port = await new Promise<number>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout });
    rl.once("line", (line) => {
      const m = /^PORT (\d+)$/.exec(line);
      if (m) resolve(Number(m[1]));
      else reject(new Error(`sse fake: unexpected output ${line}`));
    });
    child.once("exit", (code) => reject(new Error(`sse fake exited (${code})`)));
  });
  process.once("exit", () => child.kill("SIGKILL"));
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    async close() {
      child.stdin.end();
      await Promise.race([exited, new Promise<void>((r) => setTimeout(r, 2000).unref())]);
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}
