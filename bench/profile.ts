// Profiles the built agent-server (dist/agent-server.js; samples are mapped back through its source
// map, so they name their package) under one benchmark scenario with `node --cpu-prof`, then prints
// self time by package and by function.
// Usage: npm run build && node --import tsx bench/profile.ts start|streaming|paced|new|load
// (BENCH_PROFILE_TOP=40 for longer lists; BENCH_PROFILE_CHUNKS=20000 for a streaming profile that start-up does not dominate;
// BENCH_PROFILE_TAIL=500 for loads that ask for the latest turns only, as the panel does; BENCH_PROFILE_HISTORY=panel
// for the panel benchmark's rich logs)
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { AgentSpec } from "./lib/agent";
import { manifoldBundle } from "./lib/agents";
import { summarizeProfile } from "./lib/cpuprofile";
import { startFakeProcess } from "./lib/fakeProcess";
import { newId, writeHistory } from "./lib/history";
import { writePanelHistory } from "./lib/panelHistory";
import { tempDir } from "./lib/paths";
import { chunkText, createSessions, prompt, startAgent } from "./lib/session";
import { sessionLogPath } from "./lib/store";
import { renderText } from "./lib/table";

type Scenario = "start" | "streaming" | "paced" | "new" | "load";

async function main(): Promise<void> {
  const scenario = (process.argv[2] ?? "streaming") as Scenario;
  const profDir = tempDir("prof");
  const dataDir = tempDir("data");
  const cwd = tempDir("ws");
  const fake = await startFakeProcess();
  const base = manifoldBundle(fake.baseUrl, dataDir);
  const spec: AgentSpec = { ...base, args: ["--cpu-prof", "--cpu-prof-dir", profDir, ...base.args] };
  const loadIds: string[] = [];
  if (scenario === "load") {
    for (let i = 0; i < 5; i++) {
      const id = newId();
      // BENCH_PROFILE_HISTORY=panel: the panel benchmark's rich logs (tool calls, long outputs, diffs).
      if (process.env.BENCH_PROFILE_HISTORY === "panel") writePanelHistory(dataDir, id, cwd, 10_000, `p${i}`);
      else writeHistory(sessionLogPath(dataDir, id), id, cwd, 10_000);
      loadIds.push(id);
    }
  }
  const h = await startAgent(spec, "raw");
  const t0 = Date.now();
  let updates = 0;
  h.onUpdate = (u) => {
    if (chunkText(u) || scenario === "load") updates++;
  };
  if (scenario === "streaming") {
    const ids = await createSessions(h, 20, cwd);
    await Promise.all(ids.map((id) => prompt(h, id, `chunks=${process.env.BENCH_PROFILE_CHUNKS ?? 1000}`)));
  } else if (scenario === "paced") {
    const ids = await createSessions(h, 20, cwd);
    await Promise.all(ids.map((id) => prompt(h, id, "chunks=250 rate=50")));
  } else if (scenario === "new") {
    for (let r = 0; r < 5; r++) await createSessions(h, 100, cwd, 100);
  } else if (scenario === "load") {
    // BENCH_PROFILE_TAIL=N: each load asks for the latest turns holding N events (what the panel asks).
    const tail = Number(process.env.BENCH_PROFILE_TAIL ?? 0);
    const meta = tail > 0 ? { _meta: { "manifold.dev/replayTail": { events: tail } } } : {};
    for (const id of loadIds) await h.request("session/load", { sessionId: id, cwd, mcpServers: [], ...meta });
  }
  const ms = Date.now() - t0;
  await h.close();
  await fake.close();
  const file = readdirSync(profDir).find((f) => f.endsWith(".cpuprofile"));
  if (!file) throw new Error("no .cpuprofile written (did the agent exit cleanly?)");
  const s = summarizeProfile(join(profDir, file), Number(process.env.BENCH_PROFILE_TOP ?? 15));
  console.log(`scenario ${scenario}: ${ms} ms, ${updates} updates; profile ${s.totalMs.toFixed(0)} ms`);
  console.log(
    renderText({ title: "self time by package", headers: ["package", "ms", "%"], rows: s.byPackage.map((r) => [r.name, r.ms, r.pct]) }),
  );
  console.log(
    renderText({ title: "self time by function", headers: ["function", "ms", "%"], rows: s.byFunction.map((r) => [r.name, r.ms, r.pct]) }),
  );
  process.exit(0);
}

void main();
