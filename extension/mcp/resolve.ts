// From a validated server definition to the ACP `McpServer` an agent receives: VS Code's variables
// (`${workspaceFolder}`, `${userHome}`, `${env:NAME}`, `${input:id}`) substituted, `envFile` merged
// under `env` (the consent's identity and question are consent.ts).
import type { McpServer } from "@agentclientprotocol/sdk";
import type { ServerDef } from "./mcpJson";

export interface VariableContext {
  workspaceFolder: string;
  userHome: string;
  env: NodeJS.ProcessEnv;
  /** Resolves `${input:id}` (prompting once); undefined = the user gave no value. */
  input(id: string): Promise<string | undefined>;
  /** The text of an `envFile` (already confined by the caller as it sees fit). */
  readEnvFile(path: string): Promise<string>;
}

export class ResolveError extends Error {}

const VAR = /\$\{([^}]+)\}/g;

/** The `${input:id}` ids a definition uses, in order of first use. */
export function inputIds(def: ServerDef): string[] {
  const ids = new Set<string>();
  for (const s of strings(def)) for (const m of s.matchAll(VAR)) if (m[1]!.startsWith("input:")) ids.add(m[1]!.slice(6));
  return [...ids];
}

function strings(def: ServerDef): string[] {
  const c = def.config;
  return c.type === "stdio" ? [c.command, ...c.args, ...Object.values(c.env), c.envFile ?? ""] : [c.url, ...Object.values(c.headers)];
}

export async function substitute(text: string, ctx: VariableContext): Promise<string> {
  let out = "";
  let last = 0;
  for (const m of text.matchAll(VAR)) {
    out += text.slice(last, m.index);
    last = m.index + m[0].length;
    const v = m[1]!;
    if (v === "workspaceFolder") out += ctx.workspaceFolder;
    else if (v === "userHome") out += ctx.userHome;
    else if (v.startsWith("env:")) out += ctx.env[v.slice(4)] ?? "";
    else if (v.startsWith("input:")) {
      const value = await ctx.input(v.slice(6));
      if (value === undefined) throw new ResolveError(`no value was given for input "${v.slice(6)}"`);
      out += value;
    } else throw new ResolveError(`unsupported variable \${${v}}`);
  }
  return out + text.slice(last);
}

/** `KEY=value` lines (dotenv): `#` comments, optional `export `, single or double quotes. */
export function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m) continue;
    let v = m[2]!;
    const q = v[0];
    if ((q === '"' || q === "'") && v.endsWith(q) && v.length >= 2) v = v.slice(1, -1);
    else v = v.replace(/\s+#.*$/, "");
    out[m[1]!] = q === '"' ? v.replace(/\\n/g, "\n") : v;
  }
  return out;
}

export async function toAcpServer(def: ServerDef, ctx: VariableContext): Promise<McpServer> {
  const c = def.config;
  const sub = (s: string) => substitute(s, ctx);
  if (c.type !== "stdio") {
    const headers = await Promise.all(Object.entries(c.headers).map(async ([name, value]) => ({ name, value: await sub(value) })));
    return { type: c.type, name: def.name, url: await sub(c.url), headers };
  }
  const env: Record<string, string> = {};
  if (c.envFile) Object.assign(env, parseEnvFile(await ctx.readEnvFile(await sub(c.envFile))));
  for (const [k, v] of Object.entries(c.env)) env[k] = await sub(v);
  return {
    name: def.name,
    command: await sub(c.command),
    args: await Promise.all(c.args.map(sub)),
    env: Object.entries(env).map(([name, value]) => ({ name, value })),
  };
}
