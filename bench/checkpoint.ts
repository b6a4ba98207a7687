// 9. Checkpoint — the before-prompt checkpoint of a 10,000-file folder: nothing changed, 10 files
// changed, one large (5 MB) file changed; plus the first checkpoint, storage on disk, and what a
// deleted session gives back. Uses the extension's own FolderCheckpoints (shadow git repository).
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FolderCheckpoints } from "../extension/checkpoints/folderCheckpoints";
import type { Benchmark } from "./lib/bench";
import { childrenCpuMs } from "./lib/proc";
import { tempDir } from "./lib/paths";
import { summarize } from "./lib/stats";

const FILES = 10_000;

function makeFolder(root: string): void {
  for (let i = 0; i < FILES; i++) {
    const dir = join(root, `d${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `f${i}.ts`), `export const v${i} = ${i};\n`.repeat(20));
  }
  // The folder's own ignore rules apply: none of this is recorded.
  writeFileSync(join(root, ".gitignore"), "node_modules/\n");
  mkdirSync(join(root, "node_modules/pkg"), { recursive: true });
  for (let i = 0; i < 500; i++) writeFileSync(join(root, "node_modules/pkg", `m${i}.js`), "module.exports = 1;\n");
}

async function timed(fn: () => Promise<unknown>): Promise<{ ms: number; cpu: number }> {
  const c0 = childrenCpuMs();
  const t0 = process.hrtime.bigint();
  await fn();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, cpu: childrenCpuMs() - c0 };
}

export const checkpoint: Benchmark = {
  id: "checkpoint",
  title: "9. Checkpoint — before-prompt checkpoint of a 10,000-file folder",
  async run(ctx) {
    const n = ctx.quick ? 5 : 30;
    const base = tempDir("ckpt");
    const folder = join(base, "folder");
    makeFolder(folder);
    // Files must be older than the index for git's stat cache to trust them (as in any real folder).
    await new Promise((r) => setTimeout(r, 1100));
    const ck = new FolderCheckpoints(join(base, "storage"), folder);
    const first = await timed(() => ck.beforePrompt("bench", 0, "first"));
    const afterFirst = await ck.repo.diskUsage();
    const rows: { case: string; ms: ReturnType<typeof summarize>; cpu: number }[] = [];
    const run = async (name: string, before: (i: number) => void) => {
      const ms: number[] = [];
      let cpu = 0;
      for (let i = 0; i < n; i++) {
        before(i);
        const t = await timed(() => ck.beforePrompt("bench", i + 1, name));
        ms.push(t.ms);
        cpu += t.cpu;
      }
      rows.push({ case: name, ms: summarize(ms), cpu: cpu / n });
      ctx.log(`  ${name}: median ${summarize(ms).p50.toFixed(1)} ms`);
    };
    await run("nothing changed", () => undefined);
    await run("10 files changed", (i) => {
      for (let k = 0; k < 10; k++) writeFileSync(join(folder, `d${k}`, `f${k * 100}.ts`), `changed ${i}\n`);
    });
    await run("one 5 MB file changed", (i) => writeFileSync(join(folder, "big.log.txt"), Buffer.alloc(5 * 1024 * 1024, 97 + (i % 20))));
    const storage = await ck.repo.diskUsage();
    await ck.beforePrompt("other", 0, "kept by another session");
    rmSync(join(folder, "big.log.txt"));
    await ck.deleteSession("bench");
    const afterDelete = await ck.repo.diskUsage();
    const mib = (b: number) => (b / 1048576).toFixed(1);
    return {
      tables: [
        {
          title: checkpoint.title,
          headers: ["case", "n", "median ms", "p10", "p90", "max", "child CPU ms / checkpoint"],
          rows: [
            ["first checkpoint (hashes every file)", 1, first.ms, null, null, null, first.cpu],
            ...rows.map((r) => [r.case, r.ms.n, r.ms.p50, r.ms.p10, r.ms.p90, r.ms.max, r.cpu]),
          ],
          notes: [
            `${FILES.toLocaleString("en-US")} files of ~0.6 KB in 100 directories + 500 ignored files in node_modules/. Target (DESIGN §7): ≤ 50 ms median with nothing changed.`,
            `storage: ${mib(afterFirst)} MiB after the first checkpoint, ${mib(storage)} MiB after ${rows.length * n + 1} checkpoints (the 5 MB file ${n} times, zlib-compressed loose objects); ${mib(afterDelete)} MiB after deleting that session (gc --prune=now keeps what other sessions still reference).`,
            "child CPU: user + sys of the git children (cutime + cstime, 10 ms ticks).",
          ],
        },
      ],
      data: { n, first, rows, storage: { afterFirst, afterCheckpoints: storage, afterDelete } },
    };
  },
};
