// Configured agents (config-driven starts): `label` is a stable config label, never a live id; an
// optional exact `sessionId` pins one persisted identity. Validation is pure (I-10).
import { z } from "zod";

export const ConfiguredAgent = z.object({
  label: z.string().regex(/^[A-Za-z0-9_.-]+$/, "labels use letters, digits, '.', '_' and '-'"),
  cwd: z.string().min(1),
  /** Exact persisted id: restored when it exists, created when absent (resume-or-create). */
  sessionId: z.string().min(1).optional(),
});
export type ConfiguredAgent = z.infer<typeof ConfiguredAgent>;

export class AgentConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AgentConfigError";
  }
}

/** Validates the whole list before any agent starts; two entries naming one exact id are refused. */
export function validateConfiguredAgents(raw: unknown): ConfiguredAgent[] {
  const parsed = z.array(ConfiguredAgent).safeParse(raw);
  if (!parsed.success) throw new AgentConfigError(`invalid agent configuration: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  const seen = new Map<string, string>();
  for (const a of parsed.data) {
    if (a.sessionId === undefined) continue;
    const other = seen.get(a.sessionId);
    if (other !== undefined) throw new AgentConfigError(`agents "${other}" and "${a.label}" name the same session id ${JSON.stringify(a.sessionId)}`);
    seen.set(a.sessionId, a.label);
  }
  return parsed.data;
}
