// What a benchmark is, what it returns, and the small helpers every benchmark uses.
import type { Table } from "./table";

export interface BenchContext {
  quick: boolean;
  log(msg: string): void;
}

export interface BenchOutput {
  tables: Table[];
  /** Medians, spreads and raw counts, written to results/latest.json. */
  data: Record<string, unknown>;
}

export interface Benchmark {
  id: string;
  title: string;
  run(ctx: BenchContext): Promise<BenchOutput>;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Runs `fn` over `items` with at most `limit` in flight. */
export async function pool<T, R>(items: readonly T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

export function errorText(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split("\n")[0]?.slice(0, 160) ?? "";
}
