// The ACP agent registry's format (agentclientprotocol/registry FORMAT.md, agent.schema.json;
// docs/rfds/acp-agent-registry.mdx in the protocol repository). Outside data: each agent entry is
// checked on its own, so one bad entry is skipped with its reason and never hides the others.
import { z } from "zod";
import { errorMessage } from "../../base/errors";

/** Binary targets the format names (`<os>-<arch>`). */
export const PLATFORMS = ["darwin-aarch64", "darwin-x86_64", "linux-aarch64", "linux-x86_64", "windows-aarch64", "windows-x86_64"] as const;
export type Platform = (typeof PLATFORMS)[number];

const env = z.record(z.string(), z.string());
const args = z.array(z.string());

/** `npx` and `uvx`: the package (with an optional version spec), its arguments and environment. */
const packageDistribution = z.object({
  package: z.string().min(1),
  /** Not in the published schema; older notes mention it for a package whose command differs from its name. */
  cmd: z.string().min(1).optional(),
  args: args.optional(),
  env: env.optional(),
});

const binaryTarget = z.object({
  archive: z.string().url(),
  cmd: z.string().min(1),
  args: args.optional(),
  env: env.optional(),
  /**
   * Not in the published schema (which has no checksum yet): a mirror may add the archive's SHA-256
   * (hex), and then the download is verified against it.
   */
  sha256: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, "sha256 must be 64 hex digits")
    .transform((s) => s.toLowerCase())
    .optional(),
});

/** Per-platform targets; a platform name the format does not know is ignored, not an error. */
const binaryDistribution = z
  .record(z.string(), z.unknown())
  .transform((raw, ctx): Partial<Record<Platform, z.infer<typeof binaryTarget>>> => {
    const out: Partial<Record<Platform, z.infer<typeof binaryTarget>>> = {};
    for (const p of PLATFORMS) {
      if (raw[p] === undefined) continue;
      const t = binaryTarget.safeParse(raw[p]);
      if (t.success) out[p] = t.data;
      else ctx.addIssue({ code: "custom", path: [p], message: t.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ") });
    }
    return out;
  });

// Both become path components of the install folder: no separators, no "..".
const ID = /^[a-z][a-z0-9-]*$/;
const VERSION = /^[0-9]+\.[0-9]+\.[0-9]+[0-9A-Za-z.+-]*$/;

export const registryAgentSchema = z.object({
  id: z.string().regex(ID, "id must be lowercase letters, digits and hyphens, starting with a letter"),
  name: z.string().min(1),
  version: z.string().regex(VERSION, "version must be a semantic version"),
  description: z.string(),
  repository: z.string().optional(),
  authors: z.array(z.string()).optional(),
  license: z.string().optional(),
  icon: z.string().optional(),
  distribution: z
    .object({
      npx: packageDistribution.optional(),
      uvx: packageDistribution.optional(),
      binary: binaryDistribution.optional(),
    })
    .refine((d) => d.npx !== undefined || d.uvx !== undefined || d.binary !== undefined, "distribution names no npx, uvx or binary"),
});

export type RegistryAgent = z.infer<typeof registryAgentSchema>;
export type PackageDistribution = z.infer<typeof packageDistribution>;
export type BinaryTarget = z.infer<typeof binaryTarget>;

export interface Registry {
  version: string;
  agents: RegistryAgent[];
}

export interface SkippedEntry {
  /** The entry's id when it had a readable one, else its index. */
  entry: string;
  reason: string;
}

export interface ParsedRegistry {
  registry: Registry;
  skipped: SkippedEntry[];
}

export class RegistryFormatError extends Error {
  override name = "RegistryFormatError";
}

const top = z.object({ version: z.string().min(1), agents: z.array(z.unknown()) });

/** Parses a registry document; throws `RegistryFormatError` only when the document itself is unusable. */
export function parseRegistry(raw: unknown): ParsedRegistry {
  const t = top.safeParse(raw);
  if (!t.success)
    throw new RegistryFormatError(
      `not an ACP agent registry: ${t.error.issues.map((i) => `${i.path.join(".") || "document"} ${i.message}`).join("; ")}`,
    );
  const agents: RegistryAgent[] = [];
  const skipped: SkippedEntry[] = [];
  const seen = new Set<string>();
  t.data.agents.forEach((item, index) => {
    const idOf =
      typeof item === "object" && item !== null && typeof (item as { id?: unknown }).id === "string"
        ? (item as { id: string }).id
        : `#${index}`;
    const a = registryAgentSchema.safeParse(item);
    if (!a.success) {
      skipped.push({ entry: idOf, reason: a.error.issues.map((i) => `${i.path.join(".") || "entry"}: ${i.message}`).join("; ") });
      return;
    }
    if (seen.has(a.data.id)) {
      skipped.push({ entry: idOf, reason: "duplicate id (the first entry is kept)" });
      return;
    }
    seen.add(a.data.id);
    agents.push(a.data);
  });
  return { registry: { version: t.data.version, agents }, skipped };
}

/** Parses registry JSON text (a `RegistryFormatError` for text that is not JSON). */
export function parseRegistryText(text: string): ParsedRegistry {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new RegistryFormatError(`registry is not JSON: ${errorMessage(err)}`);
  }
  return parseRegistry(raw);
}
