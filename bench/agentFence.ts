// 11. Agent fence (I-118): cold start of a whole agent, spawn → `initialize` answered, plain and
// inside the fence the extension starts a third-party agent in (extension/agent/agentProfiles.ts
// `fenceFor`, then the detected backend's `fenceAgent`), interleaved run by run so machine noise
// hits both alike. Agents: Manifold's own (the demo model) and opencode (its pinned binary, from
// scripts/agents/install.sh), each with a fresh home, one workspace folder (a git repo with a `.vscode/`).
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fenceFor } from "../extension/agent/agentProfiles";
import { detectSandbox } from "../sandbox/detect";
import type { CommandSandbox } from "../sandbox/types";
import { installedAgent } from "../test/agents/support/installed";
import { PROFILES } from "../test/agents/support/profiles";
import type { Benchmark } from "./lib/bench";
import { spawnAgent, withTimeout, type AgentSpec } from "./lib/agent";
import { baseEnv, bundleExists, bundlePath } from "./lib/agents";
import { tempDir } from "./lib/paths";
import { cpuMs, processTree, treeRssMiB } from "./lib/proc";
import { summarize } from "./lib/stats";

/** One agent as the extension would start it: its argv and env, and who it is for its profile. */
interface Agent {
  label: string;
  registryId: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Writable beyond the profile's state (the built-in agent's data dir). */
  extraWritable: string[];
}

/** A variant makes a fresh spec per spawn (the fence's descriptors are single-use) and says how long making it took. */
interface Variant {
  name: string;
  make(): { spec: AgentSpec; wrapMs: number };
}

function workspace(): string {
  const root = tempDir("fence-ws");
  execFileSync("git", ["init", "-q", root], { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", GIT_CONFIG_NOSYSTEM: "1", HOME: root } });
  mkdirSync(join(root, ".vscode"));
  writeFileSync(join(root, ".vscode", "settings.json"), "{}\n");
  return root;
}

function builtIn(): Agent {
  const dataDir = tempDir("fence-data");
  const env = baseEnv({ MANIFOLD_MODEL_PROVIDER: "demo", MANIFOLD_DATA_DIR: dataDir, MANIFOLD_DETECT_LOCAL_MODELS: "0" });
  return {
    label: "manifold (bundle, demo model)",
    registryId: "manifold-bench",
    command: process.execPath,
    args: [bundlePath],
    env,
    extraWritable: [dataDir],
  };
}

/** opencode's pinned binary, started as the real-agent tests start it (test/agents/support/profiles.ts), or why not. */
function opencode(): Agent | string {
  const found = installedAgent("opencode");
  if ("skip" in found) return `opencode skipped: ${found.skip}`;
  const exe = found.exe;
  const profile = PROFILES.find((p) => p.id === "opencode");
  if (!profile) return "opencode skipped: no profile in test/agents/support/profiles.ts";
  const home = tempDir("fence-home");
  // A model URL nothing listens on: initialize never calls the model.
  const env = Object.fromEntries(
    Object.entries(profile.env("http://127.0.0.1:9", home)).filter((e): e is [string, string] => e[1] !== undefined),
  );
  return { label: "opencode", registryId: "opencode", command: exe, args: profile.args, env, extraWritable: [] };
}

function plain(a: Agent, cwd: string): Variant {
  return {
    name: `${a.label}, plain`,
    make: () => ({ spec: { name: a.label, command: a.command, args: a.args, env: a.env, cwd }, wrapMs: 0 }),
  };
}

function fenced(a: Agent, folder: string, sb: CommandSandbox, fenceAgent: NonNullable<CommandSandbox["fenceAgent"]>): Variant {
  const home = a.env.HOME ?? tempDir("fence-home");
  const { fence } = fenceFor({
    who: { registryId: a.registryId, command: a.command, args: a.args },
    env: a.env,
    home,
    folders: [folder],
    extraWritable: a.extraWritable,
    // Its parent holds the seccomp filter file: a dir of its own, as the extension gives it.
    tmpDir: join(tempDir("fence-tmp"), "agent"),
    storage: [],
  });
  return {
    name: `${a.label}, fenced (${sb.backend})`,
    make() {
      const t0 = process.hrtime.bigint();
      const w = fenceAgent.call(sb, { command: a.command, args: a.args, env: a.env }, fence);
      const wrapMs = Number(process.hrtime.bigint() - t0) / 1e6;
      return { spec: { name: a.label, command: w.file, args: w.args, env: w.env, cwd: w.cwd, fds: w.fds }, wrapMs };
    },
  };
}

interface Sample {
  ms: number;
  wrapMs: number;
  cpuMs: number;
  rssMiB: number;
}

/** Spawn → initialize answered; CPU and RSS summed over the tree (under the fence the agent is bwrap's grandchild). */
async function once(v: Variant, timeoutMs = 60_000): Promise<Sample> {
  const { spec, wrapMs } = v.make();
  const h = spawnAgent(spec, "raw");
  try {
    await withTimeout(h.initialize(), timeoutMs, `${v.name} initialize`);
    const ms = Number(process.hrtime.bigint() - h.spawnedAt) / 1e6 + wrapMs;
    const cpu = processTree(h.pid).reduce((sum, pid) => sum + cpuMs(pid), 0);
    return { ms, wrapMs, cpuMs: cpu, rssMiB: treeRssMiB([h.pid]).mib };
  } catch (e) {
    throw new Error(`${e instanceof Error ? e.message : String(e)}; stderr: ${h.stderr().slice(-300)}`);
  } finally {
    await h.close();
  }
}

async function variants(notes: string[]): Promise<Variant[]> {
  const sb = await detectSandbox(process.env, { log: () => {} });
  const fenceAgent = sb.fenceAgent;
  if (!fenceAgent) notes.push(`no fenced rows: the ${sb.backend} backend cannot fence an agent`);
  const agents: Agent[] = [];
  if (bundleExists()) agents.push(builtIn());
  else notes.push(`manifold skipped: ${bundlePath} missing (npm run build)`);
  const oc = opencode();
  if (typeof oc === "string") notes.push(oc);
  else agents.push(oc);
  const out: Variant[] = [];
  for (const a of agents) {
    const folder = workspace();
    out.push(plain(a, folder));
    if (fenceAgent) out.push(fenced(a, folder, sb, fenceAgent));
  }
  return out;
}

/** Warm-up, then `runs` interleaved rounds; a variant that fails its warm-up is dropped with a note. */
async function measure(vs: Variant[], runs: number, notes: string[]): Promise<{ v: Variant; s: Sample[] }[]> {
  const ok: { v: Variant; s: Sample[] }[] = [];
  for (const v of vs) {
    try {
      await once(v); // page cache, the agent's first-start files in its state dirs
      ok.push({ v, s: [] });
    } catch (e) {
      notes.push(`${v.name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  for (let i = 0; i < runs; i++) for (const r of ok) r.s.push(await once(r.v));
  return ok;
}

export const agentFence: Benchmark = {
  id: "agentfence",
  title: "11. Agent fence — cold start, spawn → initialize answered, plain vs fenced (I-118)",
  async run(ctx) {
    const runs = ctx.quick ? 3 : 12;
    const notes: string[] = [];
    const measured = await measure(await variants(notes), runs, notes);
    const rows = measured.map(({ v, s }) => ({
      variant: v.name,
      ms: summarize(s.map((x) => x.ms)),
      wrapMs: summarize(s.map((x) => x.wrapMs)),
      cpuMs: summarize(s.map((x) => x.cpuMs)),
      rssMiB: summarize(s.map((x) => x.rssMiB)),
    }));
    ctx.log(`  ${rows.map((r) => `${r.variant}: ${r.ms.p50.toFixed(0)} ms`).join(", ")}`);
    // Each fenced row follows its plain row.
    const plainOf = (i: number) => (rows[i]?.variant.endsWith(", plain") ? rows[i] : rows[i - 1]);
    notes.push(
      `n=${runs} each after one warm-up, interleaved. Wall time from fenceAgent() (the fence's own cost, column "fenceAgent ms") through spawn to the initialize answer.`,
      "tree CPU / RSS: user + sys and VmRSS summed over the process tree when initialize was answered (10 ms ticks); under the fence the tree is bwrap, its pid 1, the mount-check shell's exec and the agent.",
      "the fence: the profile's state dirs and the agent's temp area writable, the folder's .git and .vscode bound read-only, the table's secrets masked, unix sockets refused by seccomp (the mechanisms of sandbox/bwrap.ts `bwrapFenceArgs`).",
    );
    return {
      tables: [
        {
          title: agentFence.title,
          headers: ["agent", "n", "median ms", "p10", "p90", "vs plain", "fenceAgent ms", "tree CPU ms", "tree RSS MiB"],
          rows: rows.map((r, i) => [
            r.variant,
            r.ms.n,
            r.ms.p50,
            r.ms.p10,
            r.ms.p90,
            `${(r.ms.p50 / (plainOf(i)?.ms.p50 ?? Number.NaN)).toFixed(2)}×`,
            r.wrapMs.p50,
            r.cpuMs.p50,
            r.rssMiB.p50,
          ]),
          notes,
        },
      ],
      data: { runs, rows, notes },
    };
  },
};
