// Which MCP servers reach one folder's session, and why the others do not (I-102): the user's
// `manifold.mcpServers` (every session), the folder's `.vscode/mcp.json` (that folder's session only,
// trusted workspace + one-time consent per exact config), Manifold's own server, filtered by the
// transports the agent advertises. The editor's pieces come in as `McpSources`.
import type { McpServer } from "@agentclientprotocol/sdk";
import { parseMcpConfig, parseMcpJson, type InputDef, type McpConfigFile, type ServerDef } from "./mcpJson";
import { consentKey, describeDef, inputIds, ResolveError, toAcpServer } from "./resolve";
import type { McpRow } from "../common/mcpRows";

export type Consent = "allow" | "deny";
export type Scope = "folder" | "user";

export interface McpSources {
  readonly folder: string;
  readonly folderName: string;
  trusted(): boolean;
  /** The folder's `.vscode/mcp.json` text; undefined when there is none. */
  folderConfig(): Promise<string | undefined>;
  /** The `manifold.mcpServers` value (user/machine scope only). */
  userConfig(): unknown;
  consent: {
    get(key: string): Consent | undefined;
    set(key: string, value: Consent): Promise<void> | void;
    /** The modal question; true = Allow. */
    ask(q: { folderName: string; name: string; command: string }): Promise<boolean>;
  };
  /** An `${input:id}` value (remembered, or prompted once); undefined = none given. */
  input(scope: Scope, def: InputDef): Promise<string | undefined>;
  readEnvFile(scope: Scope, path: string): Promise<string>;
  env: NodeJS.ProcessEnv;
  userHome: string;
}

export interface AgentMcpSupport {
  http: boolean;
  sse: boolean;
}

export interface SessionServers {
  servers: McpServer[];
  rows: McpRow[];
}

/** Why `server` cannot be passed to an agent with `caps`, or undefined when it can. */
export function transportRefusal(server: McpServer | ServerDef, caps: AgentMcpSupport): string | undefined {
  const type = "config" in server ? server.config.type : "type" in server ? server.type : "stdio";
  if (type === "http" && !caps.http) return "this agent does not accept HTTP MCP servers (mcpCapabilities.http)";
  if (type === "sse" && !caps.sse) return "this agent does not accept SSE MCP servers (mcpCapabilities.sse)";
  return undefined;
}

export async function collectSessionServers(src: McpSources, caps: AgentMcpSupport, own?: McpServer): Promise<SessionServers> {
  const out: SessionServers = { servers: [], rows: [] };
  const taken = new Set<string>();
  if (own) {
    const refusal = transportRefusal(own, caps);
    if (refusal) out.rows.push({ name: own.name, source: "manifold", state: "not-passed", detail: refusal });
    else {
      out.servers.push(own);
      out.rows.push({ name: own.name, source: "manifold", state: "passed" });
    }
    taken.add(own.name);
  }
  const user = parseMcpConfig(src.userConfig(), "manifold.mcpServers");
  await addAll(src, "user", user, caps, taken, out);

  let text: string | undefined;
  try {
    text = await src.folderConfig();
  } catch (err) {
    out.rows.push({
      name: ".vscode/mcp.json",
      source: "folder",
      state: "invalid",
      detail: `cannot be read: ${err instanceof Error ? err.message : String(err)}`,
    });
  }
  if (text !== undefined) {
    const folderFile = parseMcpJson(text, `${src.folderName}/.vscode/mcp.json`);
    if (!src.trusted()) {
      for (const s of folderFile.servers)
        out.rows.push({
          name: s.name,
          source: "folder",
          state: "needs-trust",
          detail: "folder MCP servers start only in a trusted workspace",
        });
    } else await addAll(src, "folder", folderFile, caps, taken, out);
  }
  return out;
}

async function addAll(
  src: McpSources,
  scope: Scope,
  file: McpConfigFile,
  caps: AgentMcpSupport,
  taken: Set<string>,
  out: SessionServers,
): Promise<void> {
  const source = scope;
  for (const p of file.problems)
    out.rows.push({ name: scope === "user" ? "manifold.mcpServers" : ".vscode/mcp.json", source, state: "invalid", detail: p });
  const inputs = new Map(file.inputs.map((i) => [i.id, i]));
  for (const def of file.servers) {
    const row = (state: McpRow["state"], detail?: string) =>
      out.rows.push({ name: def.name, source, state, ...(detail ? { detail } : {}) });
    if (taken.has(def.name)) {
      row("not-passed", `the name "${def.name}" is already used by another MCP server of this session`);
      continue;
    }
    const refusal = transportRefusal(def, caps);
    if (refusal) {
      row("not-passed", refusal);
      continue;
    }
    const missing = inputIds(def).filter((id) => !inputs.has(id));
    if (missing.length > 0) {
      row("invalid", `it uses undefined input(s) ${missing.join(", ")}`);
      continue;
    }
    if (scope === "folder" && !(await consented(src, def))) {
      row("declined", "you did not allow this server to start (Manifold: Restart MCP Server… asks again)");
      continue;
    }
    try {
      const server = await toAcpServer(def, {
        workspaceFolder: src.folder,
        userHome: src.userHome,
        env: src.env,
        input: (id) => src.input(scope, inputs.get(id)!),
        readEnvFile: (path) => src.readEnvFile(scope, path),
      });
      taken.add(def.name);
      out.servers.push(server);
      row("passed");
    } catch (err) {
      row("invalid", err instanceof ResolveError || err instanceof Error ? err.message : String(err));
    }
  }
}

/** A folder's server starts only after the user allowed this exact config for this folder. */
async function consented(src: McpSources, def: ServerDef): Promise<boolean> {
  const key = consentKey(src.folder, def);
  const known = src.consent.get(key);
  if (known) return known === "allow";
  const allowed = await src.consent.ask({ folderName: src.folderName, name: def.name, command: describeDef(def) });
  await src.consent.set(key, allowed ? "allow" : "deny");
  return allowed;
}
