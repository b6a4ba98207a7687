// 4. Session lifecycle: session/new one at a time and in bursts of 20 and 100 (Manifold beside the
// SDK-minimal floor), and session/load of 1,000- and 10,000-event histories written into the data dir.
import { readFile } from "node:fs/promises";
import type { Benchmark, BenchContext } from "./lib/bench";
import type { AgentHandle, AgentSpec } from "./lib/agent";
import { manifoldBundle, sdkMinimal } from "./lib/agents";
import { startFakeProcess } from "./lib/fakeProcess";
import { newId, writeHistory } from "./lib/history";
import { tempDir } from "./lib/paths";
import { startAgent } from "./lib/session";
import { cpuMs } from "./lib/proc";
import { sessionLogPath } from "./lib/store";
import { summarize, type Summary } from "./lib/stats";
import type { Cell } from "./lib/table";

async function timedNew(h: AgentHandle, cwd: string): Promise<number> {
  const t0 = process.hrtime.bigint();
  await h.newSession(cwd);
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

interface NewRow {
  agent: string;
  pattern: string;
  ms: Summary;
  burstWallMs?: Summary;
}

async function sessionNew(spec: AgentSpec, cwd: string, quick: boolean): Promise<NewRow[]> {
  const h = await startAgent(spec);
  try {
    for (let i = 0; i < 10; i++) await timedNew(h, cwd); // warm-up
    const seq: number[] = [];
    for (let i = 0; i < (quick ? 50 : 200); i++) seq.push(await timedNew(h, cwd));
    const rows: NewRow[] = [{ agent: spec.name, pattern: "one at a time", ms: summarize(seq) }];
    for (const [size, reps] of [
      [20, quick ? 3 : 10],
      [100, quick ? 1 : 5],
    ] as const) {
      const lat: number[] = [];
      const walls: number[] = [];
      for (let r = 0; r < reps; r++) {
        const t0 = process.hrtime.bigint();
        lat.push(...(await Promise.all(Array.from({ length: size }, () => timedNew(h, cwd)))));
        walls.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
      rows.push({ agent: spec.name, pattern: `burst of ${size} (×${reps})`, ms: summarize(lat), burstWallMs: summarize(walls) });
    }
    return rows;
  } finally {
    await h.close();
  }
}

interface LoadRow {
  events: number;
  ms: Summary;
  updates: number;
  /** Agent CPU (user + sys, 10 ms ticks) per load. */
  cpuMs: Summary;
  /** The floor: this process reading the same file and JSON.parse-ing every line, nothing else. */
  readParseMs: Summary;
  /** The floor's CPU (this process, user + sys). */
  readParseCpuMs: Summary;
}

/** What any loader must pay: read the file and parse each line (the agent also validates, folds and replays). */
async function readAndParse(file: string): Promise<{ ms: number; cpuMs: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const text = await readFile(file, "utf8");
  let n = 0;
  for (const line of text.split("\n")) if (line) n += JSON.parse(line) ? 1 : 0;
  if (n === 0) throw new Error(`${file}: empty`);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = process.cpuUsage(cpu0);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000 };
}

async function sessionLoad(baseUrl: string, cwd: string, quick: boolean, log: BenchContext["log"]): Promise<LoadRow[]> {
  const dataDir = tempDir("data");
  const sizes = [1000, 10_000];
  const copies = quick ? 2 : 7;
  const ids = new Map<number, string[]>();
  for (const size of sizes) {
    const list: string[] = [];
    for (let i = 0; i < copies; i++) {
      const id = newId();
      writeHistory(sessionLogPath(dataDir, id), id, cwd, size);
      list.push(id);
    }
    ids.set(size, list);
  }
  const h = await startAgent(manifoldBundle(baseUrl, dataDir));
  const samples = new Map<number, number[]>(sizes.map((s) => [s, []]));
  const cpu = new Map<number, number[]>(sizes.map((s) => [s, []]));
  const floor = new Map<number, number[]>(sizes.map((s) => [s, []]));
  const floorCpu = new Map<number, number[]>(sizes.map((s) => [s, []]));
  const updates = new Map<number, number>();
  try {
    for (let i = 0; i < copies; i++) {
      for (const size of sizes) {
        const id = ids.get(size)?.[i] as string;
        let n = 0;
        h.onUpdate = (u) => {
          if (u.sessionId === id) n++;
        };
        const rp = await readAndParse(sessionLogPath(dataDir, id)); // same file, same moment
        floor.get(size)?.push(rp.ms);
        floorCpu.get(size)?.push(rp.cpuMs);
        const cpu0 = cpuMs(h.pid);
        const t0 = process.hrtime.bigint();
        await h.request("session/load", { sessionId: id, cwd, mcpServers: [] });
        samples.get(size)?.push(Number(process.hrtime.bigint() - t0) / 1e6);
        cpu.get(size)?.push(cpuMs(h.pid) - cpu0);
        updates.set(size, n);
        h.onUpdate = () => undefined;
      }
    }
  } finally {
    await h.close();
  }
  log(`  session/load: ${sizes.map((s) => `${s} events → ${updates.get(s)} updates`).join(", ")}`);
  return sizes.map((s) => ({
    events: s,
    ms: summarize(samples.get(s) ?? []),
    updates: updates.get(s) ?? 0,
    cpuMs: summarize(cpu.get(s) ?? []),
    readParseMs: summarize(floor.get(s) ?? []),
    readParseCpuMs: summarize(floorCpu.get(s) ?? []),
  }));
}

function loadRatio(rows: readonly LoadRow[]): string {
  const r = rows.find((x) => x.events === 10_000);
  if (!r) return "—";
  const ratio = r.ms.p50 / r.readParseMs.p50;
  return `${ratio.toFixed(2)}× (${ratio <= 1.5 ? "met" : "missed"})`;
}

export const lifecycle: Benchmark = {
  id: "lifecycle",
  title: "4. Session lifecycle — session/new and session/load",
  async run(ctx) {
    const fake = await startFakeProcess();
    const cwd = tempDir("ws");
    const newRows: NewRow[] = [];
    let loadRows: LoadRow[] = [];
    let loadError: string | undefined;
    try {
      newRows.push(...(await sessionNew(manifoldBundle(fake.baseUrl), cwd, ctx.quick)));
      newRows.push(...(await sessionNew(await sdkMinimal(), cwd, ctx.quick)));
      try {
        loadRows = await sessionLoad(fake.baseUrl, cwd, ctx.quick, ctx.log);
      } catch (e) {
        loadError = e instanceof Error ? e.message : String(e);
      }
    } finally {
      await fake.close();
    }
    const nrows: Cell[][] = newRows.map((r) => [r.agent, r.pattern, r.ms.n, r.ms.p50, r.ms.p90, r.ms.p99, r.ms.max, r.burstWallMs?.p50]);
    return {
      tables: [
        {
          title: "4a. session/new latency (ms)",
          headers: ["agent", "pattern", "n", "p50", "p90", "p99", "max", "burst wall p50"],
          rows: nrows,
          notes: ["target (DESIGN §7): p50 ≤ 2 ms one at a time; p99 ≤ 20 ms in a burst of 20, ≤ 50 ms in a burst of 100."],
        },
        {
          title: "4b. session/load of a persisted history (ms, request → response, replay included)",
          headers: [
            "events",
            "n",
            "p50",
            "p90",
            "min",
            "max",
            "agent CPU ms p50",
            "read + parse ms p50",
            "min",
            "load vs read + parse (p50)",
            "read + parse CPU ms p50",
            "agent CPU vs read + parse CPU",
            "updates replayed",
          ],
          rows: loadError
            ? [[`failed: ${loadError.slice(0, 140)}`]]
            : loadRows.map((r) => [
                r.events,
                r.ms.n,
                r.ms.p50,
                r.ms.p90,
                r.ms.min,
                r.ms.max,
                r.cpuMs.p50,
                r.readParseMs.p50,
                r.readParseMs.min,
                `${(r.ms.p50 / r.readParseMs.p50).toFixed(2)}×`,
                r.readParseCpuMs.p50,
                `${(r.cpuMs.p50 / r.readParseCpuMs.p50).toFixed(2)}×`,
                r.updates,
              ]),
          notes: [
            "histories written straight into a fresh data dir (bench/lib/history.ts), loaded by one agent process, copies interleaved; read + parse: this process reads the same file and JSON.parses each line just before each load (the floor any loader pays). Wall time is request → response at the client; the CPU columns (agent: /proc, 10 ms ticks; read + parse: process.cpuUsage) are the steadier figures on a loaded machine.",
            `target (DESIGN §7): 10,000 events ≤ 1.5× read + parse. This run: ${loadRatio(loadRows)}.`,
          ],
        },
      ],
      data: { sessionNew: newRows, sessionLoad: loadRows, loadError },
    };
  },
};
