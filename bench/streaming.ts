// 3. Streaming: 20 sessions stream from the fake model at full speed at once. Updates/s delivered to the
// client, and model chunk → client latency from the `t=<hrtime>` stamps the fake writes into each chunk.
// Side by side: the SDK client (as the extension uses it), a raw NDJSON client, and the fake read
// directly over HTTP with no agent (the ceiling the fake allows).
import type { Benchmark } from "./lib/bench";
import type { ClientKind } from "./lib/agent";
import { manifoldBundle, sdkMinimal } from "./lib/agents";
import { createModelClient } from "../agent-server/model/index";
import { startFakeProcess } from "./lib/fakeProcess";
import { tempDir } from "./lib/paths";
import { chunkText, createSessions, prompt, startAgent } from "./lib/session";
import { cpuMs } from "./lib/proc";
import { summarize, type Summary } from "./lib/stats";

const SESSIONS = 20;
const STAMP = /t=(\d+)/g;
const PACE = 50; // chunks/s per session in the paced run: a fast real model

interface Run {
  path: string;
  updates: number;
  tokens: number;
  seconds: number;
  updatesPerSec: number;
  tokensPerSec: number;
  latencyMs: Summary;
  /** CPU of the process doing the work (the agent; this process for in-process rows) per update, µs. */
  cpuUsPerUpdate?: number;
  /** The same CPU per model chunk delivered (coalescing puts several chunks in one update), µs. */
  cpuUsPerChunk?: number;
}

/** Collects stamps from text, one latency sample per stamp (coalesced chunks give several). */
function collect(text: string, now: bigint, lat: number[]): number {
  let n = 0;
  for (const m of text.matchAll(STAMP)) {
    lat.push(Number(now - BigInt(m[1] as string)) / 1e6);
    n++;
  }
  return n;
}

function finish(path: string, updates: number, tokens: number, start: bigint, end: bigint, lat: number[]): Run {
  const seconds = Number(end - start) / 1e9;
  return { path, updates, tokens, seconds, updatesPerSec: updates / seconds, tokensPerSec: tokens / seconds, latencyMs: summarize(lat) };
}

async function throughAgent(baseUrl: string, client: ClientKind, chunks: number, cwd: string, rate = 0): Promise<Run> {
  const h = await startAgent(manifoldBundle(baseUrl), client);
  try {
    const ids = await createSessions(h, SESSIONS, cwd);
    await Promise.all(ids.map((id) => prompt(h, id, "chunks=100"))); // warm-up
    const lat: number[] = [];
    let updates = 0;
    let tokens = 0;
    let end = 0n;
    h.onUpdate = (u) => {
      const text = chunkText(u);
      if (!text) return;
      const now = process.hrtime.bigint();
      updates++;
      tokens += collect(text, now, lat);
      end = now;
    };
    const start = process.hrtime.bigint();
    const cpu0 = cpuMs(h.pid);
    await Promise.all(ids.map((id) => prompt(h, id, rate ? `chunks=${chunks} rate=${rate}` : `chunks=${chunks}`)));
    const cpu = cpuMs(h.pid) - cpu0;
    h.onUpdate = () => undefined;
    const label = `agent → ${client === "sdk" ? "SDK client" : "raw NDJSON client"}${rate ? `, paced ${rate} chunks/s per session` : ""}`;
    return {
      ...finish(label, updates, tokens, start, end, lat),
      cpuUsPerUpdate: (cpu * 1000) / updates,
      cpuUsPerChunk: (cpu * 1000) / tokens,
    };
  } finally {
    await h.close();
  }
}

/** The ACP layer alone: the SDK-minimal agent sends stamped chunks as fast as the SDK takes them. */
async function acpOnly(chunks: number, cwd: string): Promise<Run> {
  const h = await startAgent(await sdkMinimal(), "sdk");
  try {
    const ids = await createSessions(h, SESSIONS, cwd);
    await Promise.all(ids.map((id) => prompt(h, id, "updates=100")));
    const lat: number[] = [];
    let updates = 0;
    let tokens = 0;
    let end = 0n;
    h.onUpdate = (u) => {
      const now = process.hrtime.bigint();
      updates++;
      tokens += collect(chunkText(u), now, lat);
      end = now;
    };
    const start = process.hrtime.bigint();
    const cpu0 = cpuMs(h.pid);
    await Promise.all(ids.map((id) => prompt(h, id, `updates=${chunks}`)));
    const cpu = cpuMs(h.pid) - cpu0;
    h.onUpdate = () => undefined;
    return {
      ...finish("layer: ACP SDK alone (sdk-minimal agent → SDK client, no model)", updates, tokens, start, end, lat),
      cpuUsPerUpdate: (cpu * 1000) / updates,
      cpuUsPerChunk: (cpu * 1000) / tokens,
    };
  } finally {
    await h.close();
  }
}

/** The model layer alone: Manifold's model client (AI SDK) reading the fake, in this process, no ACP. */
async function modelOnly(baseUrl: string, chunks: number): Promise<Run> {
  const client = createModelClient({
    id: "openai-compatible:bench",
    provider: "openai-compatible",
    model: "bench",
    baseUrl,
    apiKey: "bench-dummy-key",
    label: "bench",
  });
  const lat: number[] = [];
  let updates = 0;
  let tokens = 0;
  let end = 0n;
  const one = async (text: string, count: boolean): Promise<void> => {
    const signal = new AbortController().signal;
    for await (const ev of client.stream({
      system: "",
      messages: [{ role: "user", content: [{ type: "text", text }] }],
      tools: [],
      signal,
    })) {
      if (!count || ev.type !== "text-delta") continue;
      const now = process.hrtime.bigint();
      updates++;
      tokens += collect(ev.text, now, lat);
      end = now;
    }
  };
  await Promise.all(Array.from({ length: SESSIONS }, () => one("chunks=100", false)));
  const start = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  await Promise.all(Array.from({ length: SESSIONS }, () => one(`chunks=${chunks}`, true)));
  const cpu = process.cpuUsage(cpu0);
  const run = finish("layer: model client alone (createModelClient over HTTP, in-process, no ACP)", updates, tokens, start, end, lat);
  return { ...run, cpuUsPerUpdate: (cpu.user + cpu.system) / updates, cpuUsPerChunk: (cpu.user + cpu.system) / tokens };
}

/** The fake read straight over HTTP by this process: what the fake can deliver with no agent between. */
async function direct(baseUrl: string, chunks: number): Promise<Run> {
  const lat: number[] = [];
  let updates = 0;
  let tokens = 0;
  let end = 0n;
  const one = async (): Promise<void> => {
    const res = await fetch(`${baseUrl}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "bench", stream: true, messages: [{ role: "user", content: `chunks=${chunks}` }] }),
    });
    if (!res.body) throw new Error("no body");
    const decoder = new TextDecoder();
    let buf = "";
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buf += decoder.decode(value, { stream: true });
      const frames = buf.split("\n\n");
      buf = frames.pop() ?? "";
      const now = process.hrtime.bigint();
      for (const f of frames) {
        if (!f.startsWith("data: {")) continue;
        const n = collect(f, now, lat);
        if (n) {
          updates++;
          tokens += n;
          end = now;
        }
      }
    }
  };
  const start = process.hrtime.bigint();
  await Promise.all(Array.from({ length: SESSIONS }, one));
  return finish("fake → HTTP reader (no agent; ceiling)", updates, tokens, start, end, lat);
}

export const streaming: Benchmark = {
  id: "streaming",
  title: `3. Streaming — ${SESSIONS} sessions at full speed`,
  async run(ctx) {
    const chunks = ctx.quick ? 200 : 5000;
    const fake = await startFakeProcess();
    const cwd = tempDir("ws");
    const runs: Run[] = [];
    try {
      runs.push(await direct(fake.baseUrl, chunks));
      runs.push(await modelOnly(fake.baseUrl, chunks));
      runs.push(await acpOnly(chunks, cwd));
      for (const r of runs) ctx.log(`  ${r.path}: ${r.updatesPerSec.toFixed(0)} /s`);
      for (const client of ctx.quick ? (["sdk"] as const) : (["sdk", "raw"] as const)) {
        runs.push(await throughAgent(fake.baseUrl, client, chunks, cwd));
        ctx.log(`  ${runs[runs.length - 1]?.path}: ${runs[runs.length - 1]?.updatesPerSec.toFixed(0)} /s`);
      }
      // Latency at a model's real pace (no queueing behind a full-speed producer).
      runs.push(await throughAgent(fake.baseUrl, "sdk", PACE * (ctx.quick ? 1 : 5), cwd, PACE));
      ctx.log(`  ${runs[runs.length - 1]?.path}: p50 ${runs[runs.length - 1]?.latencyMs.p50.toFixed(1)} ms`);
    } finally {
      await fake.close();
    }
    const floor = runs.find((r) => r.path.startsWith("layer: ACP SDK alone"))?.cpuUsPerUpdate;
    const vsFloor = (r: Run): number | undefined => (floor && r.cpuUsPerChunk ? r.cpuUsPerChunk / floor : undefined);
    const whole = runs.find((r) => r.path === "agent → SDK client");
    const ratio = whole ? vsFloor(whole) : undefined;
    return {
      tables: [
        {
          title: streaming.title,
          headers: [
            "path",
            "updates",
            "model chunks",
            "s",
            "updates/s",
            "latency p50 ms",
            "p99 ms",
            "CPU µs / update",
            "CPU µs / model chunk",
            "model chunks/s per core (CPU-bound)",
            "CPU per chunk vs the floor's per update",
          ],
          rows: runs.map((r) => [
            r.path,
            r.updates,
            r.tokens,
            r.seconds,
            r.updatesPerSec,
            r.latencyMs.p50,
            r.latencyMs.p99,
            r.cpuUsPerUpdate,
            r.cpuUsPerChunk,
            r.cpuUsPerChunk ? 1e6 / r.cpuUsPerChunk : undefined,
            vsFloor(r) === undefined ? undefined : `${(vsFloor(r) as number).toFixed(2)}×`,
          ]),
          notes: [
            `${SESSIONS} sessions × ${chunks} model chunks each (paced run: ${PACE}/s per session), after a warm-up prompt per session. Latency: client receive time − the fake's send stamp (CLOCK_MONOTONIC).`,
            "CPU: user + sys of the agent process (for the model-client row: of this process, which also reads) over the measured prompts, per update and per model chunk delivered (the agent coalesces a session's consecutive deltas, so one update may carry several chunks); the inverse is the rate one free core could sustain.",
            "at full speed the fake runs ahead of the reader, so latency there is mostly queueing in socket buffers; the paced run shows the per-chunk latency a user sees.",
            `target (DESIGN §7): model chunks delivered per agent-CPU-second ≥ ½ of the floor's updates per CPU-second, i.e. CPU per chunk ≤ 2× the floor's CPU per update. This run: ${ratio === undefined ? "—" : `${ratio.toFixed(2)}× (${ratio <= 2 ? "met" : "missed"})`}.`,
          ],
        },
      ],
      data: { sessions: SESSIONS, chunksPerSession: chunks, runs, floorCpuUsPerUpdate: floor, ratioVsFloor: ratio },
    };
  },
};
