// Sign-in: the agent's `authMethods` as the panel shows them, and how `auth_required` is recognised.
// ACP 2.4.0's stable schema has two kinds (`agent`, `terminal`); newer schema drafts add `env_var`
// (one or more variables the client sets in the agent's environment). The list comes from the agent,
// so it is parsed here as untrusted data, never trusted as the SDK's type.
import { z } from "zod";

/** JSON-RPC code of "authentication required" (ACP `RequestError.authRequired`). */
export const AUTH_REQUIRED_CODE = -32000;

export interface AuthEnvVarView {
  name: string;
  label?: string;
  /** A secret is asked with a password input and stored in SecretStorage (default true). */
  secret: boolean;
  optional: boolean;
}

/** One sign-in method, as the panel's card offers it. */
export type AuthMethodView =
  | { kind: "agent"; id: string; name: string; description?: string }
  | { kind: "terminal"; id: string; name: string; description?: string; args: string[]; env: Record<string, string> }
  | { kind: "env_var"; id: string; name: string; description?: string; vars: AuthEnvVarView[]; link?: string };

/** The agent's sign-in request: the card's content until a session is bound. */
export interface AuthPrompt {
  methods: AuthMethodView[];
  /** The agent's error text (e.g. "Authentication required"). */
  message: string;
  /** A sign-in step is running (the card's buttons wait). */
  busy?: string;
}

const text = (max: number) => z.string().max(max);
/** An environment variable name (POSIX portable set): never a path, never a shell fragment. */
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/);
const common = { id: text(200).min(1), name: text(200).min(1), description: text(2000).nullish() };

const agentMethod = z.object({ ...common, type: z.literal("agent").optional() });
const terminalMethod = z.object({
  ...common,
  type: z.literal("terminal"),
  args: z.array(text(4000)).max(50).optional(),
  env: z.record(envName, text(10_000)).optional(),
});
const envVar = z.object({
  name: envName,
  label: text(200).nullish(),
  secret: z.boolean().optional(),
  optional: z.boolean().optional(),
});
// Both draft shapes: `vars: [{name, label?, secret?, optional?}]` and the older single `varName`.
const envVarMethod = z.object({
  ...common,
  type: z.literal("env_var"),
  vars: z.array(envVar).min(1).max(20).optional(),
  varName: envName.optional(),
  link: z.string().url().max(2000).nullish(),
});

function view(raw: unknown): AuthMethodView | undefined {
  const t = typeof raw === "object" && raw !== null ? (raw as { type?: unknown }).type : undefined;
  const desc = (d: string | null | undefined) => (d ? { description: d } : {});
  if (t === "terminal") {
    const m = terminalMethod.safeParse(raw);
    if (!m.success) return undefined;
    return {
      kind: "terminal",
      id: m.data.id,
      name: m.data.name,
      ...desc(m.data.description),
      args: m.data.args ?? [],
      env: m.data.env ?? {},
    };
  }
  if (t === "env_var") {
    const m = envVarMethod.safeParse(raw);
    if (!m.success) return undefined;
    const vars: AuthEnvVarView[] = m.data.vars
      ? m.data.vars.map((v) => ({
          name: v.name,
          ...(v.label ? { label: v.label } : {}),
          secret: v.secret ?? true,
          optional: v.optional ?? false,
        }))
      : m.data.varName
        ? [{ name: m.data.varName, secret: true, optional: false }]
        : [];
    if (vars.length === 0) return undefined;
    return {
      kind: "env_var",
      id: m.data.id,
      name: m.data.name,
      ...desc(m.data.description),
      vars,
      ...(m.data.link ? { link: m.data.link } : {}),
    };
  }
  if (t !== undefined && t !== "agent") return undefined; // a kind this client does not know is not offered
  const m = agentMethod.safeParse(raw);
  return m.success ? { kind: "agent", id: m.data.id, name: m.data.name, ...desc(m.data.description) } : undefined;
}

/** The methods of `initialize`'s `authMethods` this client can run; unknown or malformed ones are left out. */
export function authMethodViews(raw: unknown): AuthMethodView[] {
  if (!Array.isArray(raw)) return [];
  return raw.slice(0, 20).flatMap((m) => {
    const v = view(m);
    return v ? [v] : [];
  });
}

/** Whether an ACP request failed with "authentication required". */
export function isAuthRequired(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === AUTH_REQUIRED_CODE;
}

/** The key under which one agent's variable is kept in SecretStorage. */
export function agentSecretKey(agent: string, varName: string): string {
  return `manifold.agentEnv/${encodeURIComponent(agent)}/${varName}`;
}
