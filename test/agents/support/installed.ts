// Where scripts/agents/install.sh put a pinned real agent (pins in scripts/agents/pins.json), or why
// a test that needs it must skip.
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";

const pinsFile = resolve(__dirname, "../../../scripts/agents/pins.json");
const pinsSchema = z.object({ agents: z.array(z.object({ id: z.string(), package: z.string(), version: z.string(), bin: z.string() })) });

export type Pin = z.infer<typeof pinsSchema>["agents"][number];

export function pinOf(id: string): Pin {
  const pin = pinsSchema.parse(JSON.parse(readFileSync(pinsFile, "utf8"))).agents.find((a) => a.id === id);
  if (!pin) throw new Error(`scripts/agents/pins.json has no agent "${id}"`);
  return pin;
}

export function agentsTools(): string {
  return process.env.MANIFOLD_AGENTS_TOOLS ?? "/tmp/manifold-agents";
}

/** The executable of an installed pinned agent, or a skip reason that says how to install it. */
export function installedAgent(id: string): { exe: string; pin: Pin } | { skip: string } {
  const pin = pinOf(id);
  const exe = join(agentsTools(), `${pin.id}-${pin.version}`, "node_modules", ".bin", pin.bin);
  if (existsSync(exe)) return { exe, pin };
  return { skip: `${pin.package}@${pin.version} is not installed at ${exe}: run \`bash scripts/agents/install.sh ${pin.id}\`` };
}
