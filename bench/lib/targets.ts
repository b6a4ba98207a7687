// The performance targets, each read from the run's own results beside its floor (or the empty
// case) measured in that same run: one table at the end of `npm run bench`, and `targets` in
// results/*.json. A target whose benchmark did not run (or failed) says "not measured".
import * as z from "zod";
import type { Table } from "./table";

export interface TargetRow {
  /** The benchmark it is read from (its id). */
  benchmark: string;
  target: string;
  /** Manifold's figure, with its unit. */
  value: string;
  /** The floor or reference it is compared with, with its unit. */
  floor: string;
  ratio: string;
  goal: string;
  verdict: "met" | "missed" | "not measured";
}

const Summary = z.object({ p50: z.number(), p99: z.number() }).passthrough();
const Coldstart = z.object({ rows: z.array(z.object({ agent: z.string(), ms: Summary, cpuMs: Summary }).passthrough()) }).passthrough();
const Lifecycle = z
  .object({
    sessionNew: z.array(z.object({ agent: z.string(), pattern: z.string(), ms: Summary }).passthrough()),
    sessionLoad: z.array(z.object({ events: z.number(), ms: Summary, readParseMs: Summary, replayMs: Summary }).passthrough()),
  })
  .passthrough();

export type Row = Omit<TargetRow, "benchmark">;

const FLOOR = "sdk-minimal (floor)";
const BUNDLE = "manifold (bundle)";

export const ms = (v: number): string => `${v < 10 ? v.toFixed(2) : v.toFixed(0)} ms`;

/** A ratio target: met when value ÷ floor ≤ max. */
export function ratioRow(target: string, value: number, floor: number, max: number, floorName: string): Row {
  const ratio = value / floor;
  return {
    target,
    value: ms(value),
    floor: `${ms(floor)} (${floorName})`,
    ratio: `${ratio.toFixed(2)}×`,
    goal: `≤ ${max}×`,
    verdict: Number.isFinite(ratio) ? (ratio <= max ? "met" : "missed") : "not measured",
  };
}

export function notMeasured(target: string, goal: string): Row {
  return { target, value: "—", floor: "—", ratio: "—", goal, verdict: "not measured" };
}

function coldstartRows(data: unknown): Row[] {
  const d = Coldstart.safeParse(data);
  const bundle = d.success ? d.data.rows.find((r) => r.agent === BUNDLE) : undefined;
  const floor = d.success ? d.data.rows.find((r) => r.agent === FLOOR) : undefined;
  if (!bundle || !floor) return [notMeasured("cold start, spawn → initialize (p50)", "≤ 1.1×")];
  return [ratioRow("cold start, spawn → initialize (p50)", bundle.ms.p50, floor.ms.p50, 1.1, "SDK-minimal")];
}

function lifecycleRows(data: unknown): Row[] {
  const d = Lifecycle.safeParse(data);
  const rows: Row[] = [];
  const news = [
    { pattern: "one at a time", pick: "p50", label: "session/new one at a time, p50" },
    { pattern: "burst of 20", pick: "p99", label: "session/new burst of 20, p99" },
    { pattern: "burst of 100", pick: "p99", label: "session/new burst of 100, p99" },
  ] as const;
  for (const n of news) {
    const find = (agent: string) =>
      d.success ? d.data.sessionNew.find((r) => r.agent === agent && r.pattern.startsWith(n.pattern)) : undefined;
    const ours = find(BUNDLE);
    const floor = find(FLOOR);
    rows.push(ours && floor ? ratioRow(n.label, ours.ms[n.pick], floor.ms[n.pick], 2, "SDK-minimal") : notMeasured(n.label, "≤ 2×"));
  }
  const load = d.success ? d.data.sessionLoad.find((r) => r.events === 10_000) : undefined;
  if (!load) {
    rows.push(notMeasured("session/load 10,000 events, p50", "≤ 1.5× read + parse, else ≤ 1.1× read + parse + replay"));
    return rows;
  }
  const strict = ratioRow("session/load 10,000 events, p50", load.ms.p50, load.readParseMs.p50, 1.5, "read + parse");
  const fallback = ratioRow(
    "session/load 10,000 events, p50 (fallback)",
    load.ms.p50,
    load.readParseMs.p50 + load.replayMs.p50,
    1.1,
    "read + parse + SDK replay",
  );
  rows.push(strict, fallback);
  return rows;
}

/** A benchmark's rows from its results entry (undefined: it did not run or failed); `benchmark` is filled in by targetRows. */
export type Reader = (data: unknown) => Omit<TargetRow, "benchmark">[];

/** Reads each benchmark's data by id; the panel's rows come from its own module. */
export function targetRows(
  results: readonly { id: string; status: string; [k: string]: unknown }[],
  extra: Record<string, Reader> = {},
): TargetRow[] {
  const readers: Record<string, Reader> = { coldstart: coldstartRows, lifecycle: lifecycleRows, ...extra };
  const rows: TargetRow[] = [];
  for (const [id, read] of Object.entries(readers)) {
    const r = results.find((x) => x.id === id);
    rows.push(...read(r && r.status === "ok" ? r : undefined).map((row) => ({ ...row, benchmark: id })));
  }
  return rows;
}

export function targetsTable(rows: readonly TargetRow[]): Table {
  return {
    title: "Targets — each beside its floor (or the empty case) measured in this run",
    headers: ["target", "Manifold", "floor / reference", "ratio", "goal", "verdict"],
    rows: rows.map((r) => [r.target, r.value, r.floor, r.ratio, r.goal, r.verdict]),
    notes: [
      "medians and p99s of this run's own benchmarks (tables above); ratios are Manifold ÷ floor; see bench/README.md for what each miss costs.",
    ],
  };
}
