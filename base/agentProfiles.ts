// Agent profiles: named presets a session can start from (model, instructions, mode, sandbox,
// approval, a tool allow-list). One schema for the agent-server's `--config` file / `MANIFOLD_CONFIG`
// and the extension's `manifold.agentProfiles` setting. Two profiles with one id are refused, naming
// both (I-10). A profile's id is a label: shown and logged, and the prefix of the session ids it
// mints (I-7), never a routing key (I-8). Pure.
import * as z from "zod/v4";
import { PROFILE_ID_PATTERN, RESERVED_PROFILE_ID } from "./profileIds";

export { PROFILE_CONFIG_ID, PROFILE_ID_PATTERN, PROFILE_META_KEY, RESERVED_PROFILE_ID } from "./profileIds";

// The agent-server checks these lists against its own policy types (agent-server/runtime/profiles.ts).
export const PROFILE_MODES = ["read-only", "agent", "full-access"] as const;
export const PROFILE_SANDBOXES = ["read-only", "workspace-write", "danger-full-access"] as const;
export const PROFILE_APPROVALS = ["untrusted", "on-request", "never"] as const;

// Built on first use, not at import: the agent-server's front imports this module and answers
// `initialize` before any profile is read (zod builds each schema eagerly).
function buildSchemas() {
  const id = z
    .string()
    .regex(PROFILE_ID_PATTERN, "a profile id is 1 to 40 of a-z, 0-9, _ and -, starting with a letter or digit")
    .refine((v) => v !== RESERVED_PROFILE_ID, `"${RESERVED_PROFILE_ID}" is reserved (it means no profile)`);
  const profile = z
    .object({
      id,
      name: z.string().min(1).max(80),
      description: z.string().max(300).optional(),
      model: z.string().min(1).optional(),
      /** Appended to the system prompt. */
      instructions: z.string().max(20_000).optional(),
      mode: z.enum(PROFILE_MODES).optional(),
      /** Applied after `mode`. */
      sandbox: z.enum(PROFILE_SANDBOXES).optional(),
      approval: z.enum(PROFILE_APPROVALS).optional(),
      /** Allow-list of tool names; absent: every tool. */
      tools: z.array(z.string().min(1)).optional(),
    })
    .strict();
  /** I-10: one id, one profile; the message names both entries. */
  const profiles = z.array(profile).superRefine((list, ctx) => {
    const first = new Map<string, number>();
    list.forEach((p, i) => {
      const seen = first.get(p.id);
      if (seen === undefined) {
        first.set(p.id, i);
        return;
      }
      ctx.addIssue({
        code: "custom",
        path: [i, "id"],
        message: `duplicate profile id: [${seen}] "${p.id}" and [${i}] "${p.id}"`,
      });
    });
  });
  const config = z.object({ agentProfiles: profiles.default([]) }).strict();
  return { profile, profiles, config };
}

type Schemas = ReturnType<typeof buildSchemas>;
let schemas: Schemas | undefined;
const built = (): Schemas => (schemas ??= buildSchemas());

export type AgentProfile = z.infer<Schemas["profile"]>;
export type AgentConfig = z.infer<Schemas["config"]>;

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

function describeIssues(where: string, error: z.ZodError): string {
  const lines = error.issues.map((i) => {
    const path = i.path.map((p, n) => (typeof p === "number" ? `[${p}]` : n === 0 ? String(p) : `.${String(p)}`)).join("");
    return `${where}${path}: ${i.message}`;
  });
  return lines.join("; ");
}

/** The profiles of a setting's value (`where` names it in the message, e.g. `manifold.agentProfiles`). */
export function parseAgentProfiles(raw: unknown, where: string): Parsed<AgentProfile[]> {
  const r = built().profiles.safeParse(raw ?? []);
  return r.success ? { ok: true, value: r.data } : { ok: false, message: describeIssues(where, r.error) };
}

/** A config file's content (`{ "agentProfiles": [...] }`). */
export function parseAgentConfig(raw: unknown, where: string): Parsed<AgentConfig> {
  const r = built().config.safeParse(raw);
  return r.success ? { ok: true, value: r.data } : { ok: false, message: describeIssues(where, r.error) };
}

/** I-7: the shape of a session id minted for a profile (`<label>-session-<uuid v4>`). */
export function profileSessionId(label: string, uuid: string): string {
  return `${label}-session-${uuid}`;
}
