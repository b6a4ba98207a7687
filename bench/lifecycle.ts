// 4. Session lifecycle: session/new one at a time and in bursts of 20 and 100 (Manifold beside the
// SDK-minimal floor), and session/load of 1,000- and 10,000-event histories written into the data dir,
// each beside two floors measured in the same run: reading and parsing the file, and the SDK-minimal
// agent sending the very updates Manifold replayed (the replay floor).
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

/**
 * session/new on each agent, interleaved: rounds of (a block one at a time, then one burst of 20 and,
 * in some rounds, one of 100) run on each agent in turn, so that the machine's drift over the run
 * falls on both sides alike.
 */
async function sessionNew(specs: readonly AgentSpec[], cwd: string, quick: boolean): Promise<NewRow[]> {
  const handles: AgentHandle[] = [];
  try {
    for (const spec of specs) handles.push(await startAgent(spec));
    for (const h of handles) for (let i = 0; i < 10; i++) await timedNew(h, cwd); // warm-up
    const rounds = quick ? 3 : 10;
    const perRound = quick ? 17 : 20;
    const bursts100 = quick ? 1 : 5;
    const seq = handles.map((): number[] => []);
    const lat = { 20: handles.map((): number[] => []), 100: handles.map((): number[] => []) };
    const walls = { 20: handles.map((): number[] => []), 100: handles.map((): number[] => []) };
    const burst = async (h: AgentHandle, i: number, size: 20 | 100): Promise<void> => {
      const t0 = process.hrtime.bigint();
      lat[size][i]!.push(...(await Promise.all(Array.from({ length: size }, () => timedNew(h, cwd)))));
      walls[size][i]!.push(Number(process.hrtime.bigint() - t0) / 1e6);
    };
    for (let r = 0; r < rounds; r++) {
      for (const [i, h] of handles.entries()) {
        for (let k = 0; k < perRound; k++) seq[i]!.push(await timedNew(h, cwd));
        await burst(h, i, 20);
        if (r < bursts100) await burst(h, i, 100);
      }
    }
    return handles.flatMap((h, i) => [
      { agent: h.spec.name, pattern: "one at a time", ms: summarize(seq[i]!) },
      { agent: h.spec.name, pattern: `burst of 20 (×${rounds})`, ms: summarize(lat[20][i]!), burstWallMs: summarize(walls[20][i]!) },
      { agent: h.spec.name, pattern: `burst of 100 (×${bursts100})`, ms: summarize(lat[100][i]!), burstWallMs: summarize(walls[100][i]!) },
    ]);
  } finally {
    await Promise.all(handles.map((h) => h.close()));
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
  /** The replay floor: the SDK-minimal agent's session/load sending the same updates (request → response). */
  replayMs: Summary;
  /** The replay floor's agent CPU (/proc, 10 ms ticks). */
  replayCpuMs: Summary;
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

type Samples = Map<number, number[]>;

/** One sample list per history size, under one name per measured figure. */
function samplesFor(sizes: readonly number[], names: readonly string[]): Map<string, Samples> {
  return new Map(names.map((n) => [n, new Map(sizes.map((s) => [s, []]))]));
}

/** session/load of `id` at `h`, timed at the client; the update objects of `id` it received before the response. */
async function timedLoad(h: AgentHandle, id: string, cwd: string): Promise<{ ms: number; cpuMs: number; updates: unknown[] }> {
  const updates: unknown[] = [];
  h.onUpdate = (u) => {
    if (u.sessionId === id) updates.push(u.update);
  };
  const cpu0 = cpuMs(h.pid);
  const t0 = process.hrtime.bigint();
  await h.request("session/load", { sessionId: id, cwd, mcpServers: [] });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = cpuMs(h.pid) - cpu0;
  h.onUpdate = () => undefined;
  return { ms, cpuMs: cpu, updates };
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
  const floorAgent = await startAgent(await sdkMinimal());
  const m = samplesFor(sizes, ["ms", "cpu", "rp", "rpCpu", "replay", "replayCpu"]);
  const add = (name: string, size: number, v: number): void => void m.get(name)?.get(size)?.push(v);
  const updates = new Map<number, number>();
  try {
    for (let i = 0; i < copies; i++) {
      for (const size of sizes) {
        const id = ids.get(size)?.[i] as string;
        const rp = await readAndParse(sessionLogPath(dataDir, id)); // same file, same moment
        add("rp", size, rp.ms);
        add("rpCpu", size, rp.cpuMs);
        const load = await timedLoad(h, id, cwd);
        add("ms", size, load.ms);
        add("cpu", size, load.cpuMs);
        updates.set(size, load.updates.length);
        // The replay floor sends what Manifold's load just sent (primed outside the timing).
        await floorAgent.request("_bench/replay", { sessionId: id, updates: load.updates });
        const floor = await timedLoad(floorAgent, id, cwd);
        if (floor.updates.length !== load.updates.length)
          throw new Error(`replay floor sent ${floor.updates.length} of ${load.updates.length} updates`);
        add("replay", size, floor.ms);
        add("replayCpu", size, floor.cpuMs);
      }
    }
  } finally {
    await h.close();
    await floorAgent.close();
  }
  log(`  session/load: ${sizes.map((s) => `${s} events → ${updates.get(s)} updates`).join(", ")}`);
  const sum = (name: string, size: number): Summary => summarize(m.get(name)?.get(size) ?? []);
  return sizes.map((s) => ({
    events: s,
    ms: sum("ms", s),
    updates: updates.get(s) ?? 0,
    cpuMs: sum("cpu", s),
    readParseMs: sum("rp", s),
    readParseCpuMs: sum("rpCpu", s),
    replayMs: sum("replay", s),
    replayCpuMs: sum("replayCpu", s),
  }));
}

const times = (a: number, b: number): string => `${(a / b).toFixed(2)}×`;

function loadCells(r: LoadRow): Cell[] {
  return [
    r.events,
    r.ms.n,
    r.ms.p50,
    r.ms.p90,
    r.ms.min,
    r.ms.max,
    r.cpuMs.p50,
    r.readParseMs.p50,
    r.readParseMs.min,
    times(r.ms.p50, r.readParseMs.p50),
    r.readParseCpuMs.p50,
    times(r.cpuMs.p50, r.readParseCpuMs.p50),
    r.replayMs.p50,
    r.replayCpuMs.p50,
    times(r.ms.p50, r.readParseMs.p50 + r.replayMs.p50),
    times(r.cpuMs.p50, r.readParseCpuMs.p50 + r.replayCpuMs.p50),
    r.updates,
  ];
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
      newRows.push(...(await sessionNew([manifoldBundle(fake.baseUrl), await sdkMinimal()], cwd, ctx.quick)));
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
          notes: [
            "both agents live side by side, measured in interleaved rounds (a block one at a time, a burst of 20, some rounds a burst of 100, on each in turn), so drift falls on both alike; SDK client, request → response.",
            "target (DESIGN §7): p50 ≤ 2 ms one at a time; p99 ≤ 20 ms in a burst of 20, ≤ 50 ms in a burst of 100.",
          ],
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
            "SDK replay floor ms p50",
            "floor CPU ms p50",
            "load vs read + parse + replay floor (p50)",
            "agent CPU vs (read + parse + floor) CPU",
            "updates replayed",
          ],
          rows: loadError ? [[`failed: ${loadError.slice(0, 140)}`]] : loadRows.map(loadCells),
          notes: [
            "histories written straight into a fresh data dir (bench/lib/history.ts), loaded by one agent process, copies interleaved; read + parse: this process reads the same file and JSON.parses each line just before each load (the floor any loader pays). Wall time is request → response at the client; the CPU columns (agent: /proc, 10 ms ticks; read + parse: process.cpuUsage) are the steadier figures on a loaded machine.",
            "SDK replay floor: right after each Manifold load, the SDK-minimal agent (bench/peers/minimalAgent.ts) is primed with the update objects that load delivered and answers its own session/load by sending them, in order, before its response (request → response at the client; its CPU from /proc). It is what any agent on this SDK pays to replay that history frame by frame; Manifold ÷ (read + parse + replay floor) is how much of the load is Manifold's own.",
            `target (DESIGN §7): 10,000 events ≤ 1.5× read + parse. This run: ${loadRatio(loadRows)}.`,
          ],
        },
      ],
      data: { sessionNew: newRows, sessionLoad: loadRows, loadError },
    };
  },
};
