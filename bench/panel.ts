// The chat panel in a real browser: code-server + headless Chromium through the
// VS Code tier's harness, the packaged extension, the bench SSE fake as the model.
//   1. open a session of 10,000 events vs an empty one: latest message painted, composer usable,
//      then a scripted scroll to the top and back (frame times, long tasks);
//   2. four visible panels streaming at a real model's pace: extension-host event-loop delay,
//      webview long tasks, heaps;
//   3. memory of the host, the renderer and the agent as panels of 10,000 events are added, and the
//      renderer's as bare webviews (empty document, no script: the floor) are added beside them;
//   4. scenario 1 again for one session of 50,000 events (about 70 MB of log).
// Histories are written into the agent's data dir before code-server starts; a panel is bound to
// one with Switch Session… (by its title), then closed and reopened, which re-attaches it.
import { randomUUID } from "node:crypto";
import type { Benchmark, BenchContext, BenchOutput } from "./lib/bench";
import { floorScenario } from "./lib/panelFloor";
import { attachHostProbe, type HostProbe } from "./lib/panelInspector";
import { writePanelHistory } from "./lib/panelHistory";
import { idle, memoryScenario, openScenario, streamScenario, type PanelData, type PanelPlan, type Stage } from "./lib/panelPhases";
import { closePanel, startRig } from "./lib/panelRig";
import { panelTables } from "./lib/panelTables";
import { startSseFake } from "./lib/sseFake";

function planFor(quick: boolean): PanelPlan {
  return quick
    ? {
        events: 10_000,
        hugeEvents: 50_000,
        emptyEvents: 13,
        reps: 1,
        idleSeconds: 5,
        streamSeconds: 20,
        rate: 100,
        streamPanels: 4,
        memoryPanels: 4,
      }
    : {
        events: 10_000,
        hugeEvents: 50_000,
        emptyEvents: 13,
        reps: 3,
        idleSeconds: 15,
        streamSeconds: 120,
        rate: 100,
        streamPanels: 4,
        memoryPanels: 20,
      };
}

const longFolder = (i: number): string => `h${String(i + 1).padStart(2, "0")}`;

async function measure(stage: Stage, plan: PanelPlan, long: string[]): Promise<PanelData> {
  stage.log("panel: idle baseline");
  const baseline = await idle(stage, plan.idleSeconds);
  stage.log(`panel: ${plan.streamPanels} panels streaming for ${plan.streamSeconds} s`);
  const streaming = await streamScenario(stage, long.slice(0, plan.streamPanels), plan.rate, plan.streamSeconds);
  stage.log("panel: open an empty session");
  const empty = await openScenario(stage, "empty", plan.emptyEvents, plan.reps);
  await closePanel(stage.rig, "empty");
  stage.log(`panel: open a session of ${plan.events} events`);
  const full = await openScenario(stage, long[0] as string, plan.events, plan.reps);
  stage.log(`panel: memory, up to ${plan.memoryPanels} long panels`);
  const mem = await memoryScenario(stage, long.slice(1, plan.memoryPanels), 1);
  // The floor: as many bare webviews added beside them, then closed.
  stage.log(`panel: memory, ${plan.memoryPanels - 1} bare webviews`);
  const floor = await floorScenario(stage, plan.memoryPanels - 1);
  // Last, so that its session weighs on no other figure.
  stage.log(`panel: open a session of ${plan.hugeEvents} events`);
  const huge = await openScenario(stage, "huge", plan.hugeEvents, 1);
  return { baseline, streaming, empty, full, memory: mem, floor, huge };
}

async function run(ctx: BenchContext): Promise<BenchOutput> {
  const plan = planFor(ctx.quick);
  const long = Array.from({ length: Math.max(plan.memoryPanels, plan.streamPanels) }, (_, i) => longFolder(i));
  const fake = await startSseFake();
  let host: HostProbe | undefined;
  ctx.log(`panel: seeding ${long.length} histories of ${plan.events} events, starting code-server`);
  const rig = await startRig(["empty", "huge", ...long], `http://127.0.0.1:${fake.port}/v1`, (dataDir, folders) => {
    writePanelHistory(dataDir, randomUUID(), folders.get("empty") as string, plan.emptyEvents, "empty");
    writePanelHistory(dataDir, randomUUID(), folders.get("huge") as string, plan.hugeEvents, "huge");
    for (const f of long) writePanelHistory(dataDir, randomUUID(), folders.get(f) as string, plan.events, f);
  });
  try {
    host = await attachHostProbe(rig.hostPid());
    const profile = process.env.MANIFOLD_BENCH_PANEL_PROFILE === "1";
    const data = await measure({ rig, host, fake, profile, log: ctx.log }, plan, long);
    return { tables: panelTables(plan, data), data: { plan, ...data } };
  } finally {
    host?.close();
    await rig.close();
    await fake.close();
  }
}

export const panel: Benchmark = {
  id: "panel",
  title: "Chat panel in code-server + Chromium: open, scroll, stream, memory",
  run,
};
