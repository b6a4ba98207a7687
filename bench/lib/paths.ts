// Locations the benchmarks share: the repository root, temp areas, the peers' install folder.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

export const repoRoot = resolve(dirname(__filename), "../..");
export const peersDir = process.env.MANIFOLD_BENCH_PEERS_DIR ?? "/tmp/manifold-bench-peers";

const made: string[] = [];

/** A fresh temp dir, removed when the bench process exits. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `manifold-bench-${prefix}-`));
  made.push(dir);
  return dir;
}

process.once("exit", () => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});
