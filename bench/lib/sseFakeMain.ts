// Child-process entry of the bench SSE fake: prints `PORT <n>` on stdout, then serves until stdin closes.
import { startSseFake } from "./sseFake";

async function main(): Promise<void> {
  const fake = await startSseFake();
  process.stdout.write(`PORT ${fake.port}\n`);
  process.stdin.resume();
  process.stdin.on("end", () => {
    process.stderr.write(`[sse-fake] requests=${fake.stats.requests} chunks=${fake.stats.chunks}\n`);
    void fake.close().then(() => process.exit(0));
  });
}

void main();
