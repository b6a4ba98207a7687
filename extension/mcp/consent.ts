// What a folder MCP server's consent grants, shown whole and keyed whole (I-115): the command,
// args, cwd, every env name and value and every header as written (a secret appears as its
// `${input:x}` / `${env:X}` reference, never its value), the envFile's path and a sha256 of its
// content, the files inside the folder the command runs with their sha256, and what the server can
// reach (stdio: sandboxed to the folder, network as chosen). A change to any of these is another
// key, so it asks again. Pure: the caller reads the files (`GrantFacts`).
import { createHash } from "node:crypto";
import * as path from "node:path";
import type { ServerDef } from "./mcpJson";

/** The answer as remembered: `allow` (with network), `allow-offline` (stdio only), `deny`. */
export type Consent = "allow" | "allow-offline" | "deny";

/** What was read from disk when the question was put (hashes of what the consent covers). */
export interface GrantFacts {
  /** The envFile as resolved, with the sha256 of its content and the names it sets (values never shown). */
  envFile?: { path: string; sha256: string; names: string[] };
  /** Existing files inside the folder the command or its args name, with their sha256. */
  runs: Array<{ path: string; sha256: string }>;
}

export interface ConsentQuestion {
  folderName: string;
  name: string;
  /** One line per thing granted. */
  detail: string[];
  /** stdio: the user may allow it without network. */
  offerOffline: boolean;
}

export function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

const VAR = /\$\{([^}]+)\}/g;

/** What a path may use: `${workspaceFolder}`, `${userHome}`, `${env:X}` (never `${input:…}`, which would prompt). */
export interface PathVars {
  folder: string;
  userHome: string;
  env: NodeJS.ProcessEnv;
}

/**
 * A path-like string with its variables substituted, resolved against `base` when relative
 * (undefined: no base); undefined when it uses any other variable.
 */
export function plainPath(text: string, vars: PathVars, base: string | undefined): string | undefined {
  let other = false;
  const s = text.replace(VAR, (_m, v: string) => {
    if (v === "workspaceFolder") return vars.folder;
    if (v === "userHome") return vars.userHome;
    if (v.startsWith("env:")) return vars.env[v.slice(4)] ?? "";
    other = true;
    return "";
  });
  if (other || s.length === 0 || s.includes("\0")) return undefined;
  if (path.isAbsolute(s)) return path.normalize(s);
  return base === undefined ? undefined : path.resolve(base, s);
}

/**
 * Paths the command and args may run: each word that reads as a path (absolute, or relative to
 * `cwd` when given: a folder server starts in the folder). The caller keeps the existing files
 * inside the folder.
 */
export function runCandidates(def: ServerDef, vars: PathVars, cwd: string | undefined): string[] {
  const c = def.config;
  if (c.type !== "stdio") return [];
  const out = new Set<string>();
  for (const word of [c.command, ...c.args]) {
    // `--script=./x.js` names a file too.
    for (const part of word.startsWith("-") && word.includes("=") ? [word.slice(word.indexOf("=") + 1)] : [word]) {
      const p = plainPath(part, vars, cwd);
      if (p) out.add(p);
    }
  }
  return [...out];
}

/** The envFile path as resolved (relative: against the folder), or undefined when it uses `${input:…}`. */
export function envFilePath(envFile: string, vars: PathVars): string | undefined {
  return plainPath(envFile, vars, vars.folder);
}

const q = (s: string): string => JSON.stringify(s);

/** The lines the consent question shows: everything the server gets. */
export function describeGrant(folder: string, def: ServerDef, facts: GrantFacts): string[] {
  const c = def.config;
  const rel = (p: string): string => (p.startsWith(folder + path.sep) ? path.relative(folder, p) : p);
  if (c.type !== "stdio") {
    const lines = [`Connects to: ${c.type} ${c.url}`];
    const headers = Object.entries(c.headers);
    lines.push(headers.length ? `Headers: ${headers.map(([k, v]) => `${k}: ${v}`).join("; ")}` : "Headers: none");
    lines.push("Reach: the agent process sends requests to that URL; nothing runs on this machine.");
    return lines;
  }
  const lines = [`Command: ${c.command}`, `Arguments: ${c.args.length ? c.args.map(q).join(" ") : "none"}`];
  lines.push(`Runs in: ${folder}, inside the session's sandbox (writes only to this folder and the session's temp area).`);
  const env = Object.entries(c.env);
  lines.push(
    env.length ? `Environment: ${env.map(([k, v]) => `${k}=${q(v)}`).join(" ")}` : "Environment: nothing beyond the safe defaults",
  );
  if (c.envFile) {
    const f = facts.envFile;
    lines.push(
      f
        ? `Env file: ${c.envFile} → ${f.path} (sha256 ${f.sha256.slice(0, 16)}; sets ${f.names.length ? f.names.join(", ") : "nothing"})`
        : `Env file: ${c.envFile} (cannot be resolved before start)`,
    );
  }
  if (facts.runs.length)
    lines.push(`Folder files it runs: ${facts.runs.map((r) => `${rel(r.path)} (sha256 ${r.sha256.slice(0, 16)})`).join(", ")}`);
  lines.push("Network: as you choose below.");
  return lines;
}

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (typeof v === "object" && v !== null)
    return Object.fromEntries(
      Object.entries(v)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, x]) => [k, canonical(x)]),
    );
  return v;
}

/** Every consent key of one folder's server starts with this (so a denial can be forgotten by name). */
export function consentPrefix(folder: string, name: string): string {
  return sha256(JSON.stringify([folder, name])).slice(0, 32);
}

/** The consent key: folder + server + exact config + the envFile's and the run files' content. */
export function grantKey(folder: string, def: ServerDef, facts: GrantFacts): string {
  const files = [...facts.runs].sort((a, b) => (a.path < b.path ? -1 : 1));
  const envFile = facts.envFile ? { path: facts.envFile.path, sha256: facts.envFile.sha256 } : null;
  return `${consentPrefix(folder, def.name)}.${sha256(JSON.stringify([canonical(def.config), envFile, files]))}`;
}

/** The ACP `_meta` that makes the agent start a folder's stdio server inside the session's sandbox (I-114). */
export function confineMeta(consent: Consent): Record<string, unknown> {
  return { "manifold.dev/confine": { sandbox: true, network: consent === "allow" } };
}
