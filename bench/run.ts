// Runs the benchmarks in order, prints a table for each, and writes bench/results/latest.json
// (plus quick.json or full.json, and latest.md with the tables in Markdown). A run limited with
// --only writes partial.json / partial.md instead, leaving the last complete run in place.
// Usage: node --import tsx bench/run.ts [--quick] [--only idle,fanout,...]
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadavg } from "node:os";
import type { Benchmark, BenchContext } from "./lib/bench";
import { errorText } from "./lib/bench";
import { machineInfo } from "./lib/machine";
import { repoRoot } from "./lib/paths";
import { renderMarkdown, renderText, type Table } from "./lib/table";
import { targetRows, targetsTable } from "./lib/targets";
import { panelTargets } from "./lib/panelTargets";
import { idle } from "./idle";
import { fanout } from "./fanout";
import { streaming } from "./streaming";
import { lifecycle } from "./lifecycle";
import { coldstart } from "./coldstart";
import { sandbox } from "./sandbox";
import { peers } from "./peers";
import { churn } from "./churn";
import { checkpoint } from "./checkpoint";
import { panel } from "./panel";
import { agentFence } from "./agentFence";
import { worktree } from "./worktree";

const all: Benchmark[] = [idle, fanout, streaming, lifecycle, coldstart, sandbox, peers, churn, checkpoint, panel, agentFence, worktree];

function parseArgs(argv: string[]): { quick: boolean; only: Set<string> | null } {
  const quick = argv.includes("--quick");
  const i = argv.indexOf("--only");
  const only = i >= 0 && argv[i + 1] ? new Set((argv[i + 1] as string).split(",")) : null;
  return { quick, only };
}

async function main(): Promise<void> {
  const { quick, only } = parseArgs(process.argv.slice(2));
  const machine = machineInfo();
  const started = Date.now();
  const log = (msg: string): void => void process.stderr.write(`[bench ${((Date.now() - started) / 1000).toFixed(1)}s] ${msg}\n`);
  const ctx: BenchContext = { quick, log };
  console.log(
    `Manifold benchmarks (${quick ? "quick" : "full"}) — ${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGiB} GiB, node ${machine.node}, commit ${machine.commit.slice(0, 10)}${machine.dirty ? " (dirty tree)" : ""}, load ${machine.loadAvg.join(" ")}`,
  );
  const results: Record<string, unknown>[] = [];
  const markdown: string[] = [];
  for (const b of all) {
    if (only && !only.has(b.id)) continue;
    log(`${b.id}: ${b.title}`);
    const t0 = Date.now();
    let tables: Table[];
    let entry: Record<string, unknown>;
    try {
      const out = await b.run(ctx);
      tables = out.tables;
      entry = { id: b.id, title: b.title, status: "ok", seconds: (Date.now() - t0) / 1000, ...out.data, tables };
    } catch (e) {
      const reason = errorText(e);
      log(`${b.id} failed: ${e instanceof Error ? (e.stack ?? reason) : reason}`);
      tables = [{ title: b.title, headers: ["status"], rows: [[`failed: ${reason}`]] }];
      entry = { id: b.id, title: b.title, status: "failed", error: reason, seconds: (Date.now() - t0) / 1000 };
    }
    for (const t of tables) console.log(renderText(t));
    markdown.push(...tables.map(renderMarkdown));
    results.push(entry);
  }
  // Every target of a benchmark that ran, beside its floor from this same run.
  const targets = targetRows(results as { id: string; status: string }[], { panel: panelTargets }).filter((t) =>
    results.some((r) => r.id === t.benchmark),
  );
  if (targets.length > 0) {
    const t = targetsTable(targets);
    console.log(renderText(t));
    markdown.unshift(renderMarkdown(t));
  }
  const seconds = (Date.now() - started) / 1000;
  console.log(`\ntotal ${seconds.toFixed(1)} s`);
  const dir = join(repoRoot, "bench/results");
  mkdirSync(dir, { recursive: true });
  const loadAvgAtEnd = loadavg().map((l) => Math.round(l * 100) / 100);
  const doc = { mode: quick ? "quick" : "full", seconds, machine, loadAvgAtEnd, targets, benchmarks: results };
  const json = JSON.stringify(doc, null, 2) + "\n";
  const base = only ? "partial" : "latest";
  writeFileSync(join(dir, `${base}.json`), json);
  if (!only) writeFileSync(join(dir, `${doc.mode}.json`), json);
  const header = `Measured ${machine.date} on ${machine.cpuModel} (${machine.cores} cores, ${machine.memoryGiB} GiB), node ${machine.node}, commit ${machine.commit.slice(0, 10)}${machine.dirty ? " + uncommitted changes" : ""}, ${doc.mode} run, ${seconds.toFixed(0)} s, load average ${machine.loadAvg[0]} at start and ${loadAvgAtEnd[0]} at end (2 shared cores).`;
  writeFileSync(join(dir, `${base}.md`), [header, "", ...markdown.flatMap((m) => [m, ""])].join("\n"));
  log(`results written to bench/results/${base}.json`);
  process.exit(0); // agents are closed; end the fake's pipes and timers with us
}

void main();
