// How a session's stdio MCP server is started (I-114). A user-level server runs on the host but
// from nothing the folder can shape: its cwd is an empty directory Manifold owns (never inside the
// session folder, so npx/npm/python find nothing planted there or above), PATH keeps only absolute
// entries outside the session folder and every temp area, the env is the allowlist (no
// NODE_OPTIONS, PYTHONPATH… of the agent's own) plus the server's own, and a code-loading variable of
// the server's own env that names a path in the folder refuses the start. A folder-defined server
// (`_meta["manifold.dev/confine"]`) starts inside the session's command sandbox instead
// (workspace-write on the folder, its temp area, network only if consented); its env travels on
// stdin ahead of the MCP stream, so no value appears in a command line.
import * as fs from "node:fs";
import * as path from "node:path";
import { childEnv } from "../../sandbox/env";
import { canonicalize, isInside } from "../../sandbox/pathGuard";
import { shellQuote } from "../../sandbox/shellQuote";
import type { CommandSandbox, SandboxContext, WrappedCommand } from "../../sandbox/types";
import type { McpStdioSpec } from "./config";
import { errorMessage } from "../../base/errors";

export interface SessionPlace {
  /** The session folder (real path): the root a folder server is confined to. */
  root: string;
  /** The session's temp area: TMPDIR of stdio servers. */
  tmpDir: string;
}

export class McpLaunchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "McpLaunchError";
  }
}

/** Variables that make an interpreter or the loader run code from where they point. */
const LOADER_VARS =
  /^(NODE_OPTIONS|NODE_PATH|PYTHONPATH|PYTHONSTARTUP|PYTHONHOME|PYTHONUSERBASE|LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_[A-Z_]+|PERL5LIB|PERL5OPT|PERLLIB|RUBYLIB|RUBYOPT|GEM_HOME|GEM_PATH|BASH_ENV|ENV|ZDOTDIR|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|CLASSPATH|npm_config_[A-Za-z_]+|NPM_CONFIG_[A-Z_]+|UV_[A-Z_]+|PIP_[A-Z_]+)$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const HOST_CWD_NAME = "mcp-cwd";

/** The directories the session's agent can write: its folder and every session temp area. */
function agentWritable(place: SessionPlace): string[] {
  return [place.root, path.dirname(place.tmpDir)];
}

function reachable(p: string, place: SessionPlace): boolean {
  let real: string;
  try {
    real = canonicalize(path.resolve(p));
  } catch {
    return true;
  }
  return agentWritable(place).some((d) => isInside(real, d) || isInside(path.resolve(p), d));
}

/** PATH without relative or empty entries and without entries the session's agent can write. */
export function hostPath(value: string, place: SessionPlace): string {
  return value
    .split(path.delimiter)
    .filter((d) => d.length > 0 && path.isAbsolute(d) && !reachable(d, place))
    .join(path.delimiter);
}

/** Why a server's env would load code from the folder on the host, or undefined. */
export function loaderProblem(env: ReadonlyArray<{ name: string; value: string }>, place: SessionPlace): string | undefined {
  for (const { name, value } of env) {
    if (!LOADER_VARS.test(name)) continue;
    const hit = value.split(/[\s:;,="']+/).find((t) => path.isAbsolute(t) && reachable(t, place));
    if (hit)
      return `its ${name} names ${hit}, inside the session folder or a temp area: a host-side MCP server never loads code from there (define it in the folder's .vscode/mcp.json to run it sandboxed)`;
  }
  return undefined;
}

/**
 * The cwd of host-side servers: `<dataDir>/mcp-cwd`, unless the session folder holds the data dir
 * (a home-folder session), where npm's walk up from it would reach the folder: then `/`.
 */
export function hostCwd(dataDir: string, place: SessionPlace): string {
  const dir = path.join(dataDir, HOST_CWD_NAME);
  if (agentWritable(place).some((d) => isInside(dir, d))) return path.parse(dir).root;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** A user-level server: host-side, from a cwd, PATH and env the folder cannot shape. */
export function hostLaunch(spec: McpStdioSpec, place: SessionPlace, envSource: NodeJS.ProcessEnv, dataDir: string): WrappedCommand {
  const problem = loaderProblem(spec.env, place);
  if (problem) throw new McpLaunchError(problem);
  const env = childEnv(envSource, place.tmpDir);
  for (const e of spec.env) env[e.name] = e.value;
  env.PATH = hostPath(env.PATH ?? "", place);
  return { file: spec.command, args: spec.args, env, cwd: hostCwd(dataDir, place) };
}

/** Reads NUL-terminated `NAME=value` records from stdin until an empty one, exporting each. */
const READ_ENV = `while IFS= read -r -d '' kv && [ -n "$kv" ]; do export -- "$kv" || exit 126; done;`;

/** A folder-defined server: inside the session's sandbox; `preamble` goes to its stdin first. */
export function sandboxLaunch(spec: McpStdioSpec, place: SessionPlace, sandbox: CommandSandbox): { cmd: WrappedCommand; preamble: Buffer } {
  const records: string[] = [];
  for (const { name, value } of spec.env) {
    if (!ENV_NAME.test(name)) throw new McpLaunchError(`its env name ${JSON.stringify(name.slice(0, 60))} is not a variable name`);
    if (value.includes("\0")) throw new McpLaunchError(`its env value of ${name} holds a NUL byte`);
    records.push(`${name}=${value}\0`);
  }
  const ctx: SandboxContext = {
    sessionId: "",
    mode: "workspace-write",
    approval: "never",
    root: place.root,
    tmpDir: place.tmpDir,
    network: spec.confine?.network === true,
  };
  const line = `${READ_ENV} exec ${[spec.command, ...spec.args].map(shellQuote).join(" ")}`;
  let cmd: WrappedCommand;
  try {
    cmd = sandbox.wrap(line, ctx, { cwd: place.root, unconfined: false });
  } catch (err) {
    throw new McpLaunchError(`this server is defined by the folder and starts only inside the command sandbox: ${errorMessage(err)}`);
  }
  return { cmd, preamble: Buffer.from(records.join("") + "\0", "utf8") };
}
