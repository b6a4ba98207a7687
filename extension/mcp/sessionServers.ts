// Which MCP servers reach one folder's session, and why the others do not (I-102): the user's
// `manifold.mcpServers` (every session), the folder's `.vscode/mcp.json` (that folder's session only,
// trusted workspace + one-time consent per exact grant, consent.ts), Manifold's own server, filtered
// by the transports the agent advertises. Folder stdio servers go out marked to start inside the
// session's sandbox (I-114); the files every configured server reads or runs from the folder go out
// as the session's protected paths (I-112). The editor's pieces come in as `McpSources`.
import type { McpServer } from "@agentclientprotocol/sdk";
import { parseMcpConfig, parseMcpJson, type InputDef, type McpConfigFile, type ServerDef } from "./mcpJson";
import { inputIds, parseEnvFile, ResolveError, toAcpServer } from "./resolve";
import {
  confineMeta,
  describeGrant,
  envFilePath,
  grantKey,
  runCandidates,
  sha256,
  type Consent,
  type ConsentQuestion,
  type GrantFacts,
  type PathVars,
} from "./consent";
import type { McpRow } from "../common/mcpRows";
import { errorMessage } from "../../base/errors";

export type { Consent, ConsentQuestion } from "./consent";
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
    /** The modal question, showing everything it grants. */
    ask(q: ConsentQuestion): Promise<Consent>;
  };
  /** An `${input:id}` value (remembered, or prompted once); undefined = none given. */
  input(scope: Scope, def: InputDef): Promise<string | undefined>;
  readEnvFile(scope: Scope, path: string): Promise<string>;
  /** sha256 of an existing regular file inside the folder; undefined for anything else. */
  fileDigest(path: string): Promise<string | undefined>;
  env: NodeJS.ProcessEnv;
  userHome: string;
}

export interface AgentMcpSupport {
  http: boolean;
  sse: boolean;
  /** The agent starts stdio servers marked `_meta["manifold.dev/confine"]` inside the session's sandbox (Manifold's agent-server). */
  confine?: boolean;
}

/** Why a folder's own stdio server is not given to an agent that would start it unconfined (I-114). */
export const UNCONFINED_AGENT =
  "this agent would start it outside Manifold's sandbox: a folder's own stdio servers go only to an agent that confines them (the built-in agent)";

export interface SessionServers {
  servers: McpServer[];
  rows: McpRow[];
  /** Absolute envFile paths and the folder files configured servers run: sent as `_meta["manifold.dev/protectedPaths"]`. */
  protectedPaths: string[];
}

/** The session-level `_meta` key of the paths the agent protects as config (I-112). */
export const PROTECTED_PATHS_META = "manifold.dev/protectedPaths";
/** As many as the agent accepts (sandbox/configPaths.ts MAX_PROTECTED_PATHS). */
const MAX_PROTECTED_PATHS = 64;

/** Why `server` cannot be passed to an agent with `caps`, or undefined when it can. */
export function transportRefusal(server: McpServer | ServerDef, caps: AgentMcpSupport): string | undefined {
  const type = "config" in server ? server.config.type : "type" in server ? server.type : "stdio";
  if (type === "http" && !caps.http) return "this agent does not accept HTTP MCP servers (mcpCapabilities.http)";
  if (type === "sse" && !caps.sse) return "this agent does not accept SSE MCP servers (mcpCapabilities.sse)";
  return undefined;
}

export async function collectSessionServers(src: McpSources, caps: AgentMcpSupport, own?: McpServer): Promise<SessionServers> {
  const out: SessionServers = { servers: [], rows: [], protectedPaths: [] };
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
      detail: `cannot be read: ${errorMessage(err)}`,
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
  out.protectedPaths = [...new Set(out.protectedPaths)].slice(0, MAX_PROTECTED_PATHS);
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
    if (scope === "folder" && def.config.type === "stdio" && caps.confine !== true) {
      row("not-passed", UNCONFINED_AGENT);
      continue;
    }
    const missing = inputIds(def).filter((id) => !inputs.has(id));
    if (missing.length > 0) {
      row("invalid", `it uses undefined input(s) ${missing.join(", ")}`);
      continue;
    }
    let facts: GrantFacts & { envText?: string };
    try {
      facts = await gatherFacts(src, scope, def);
    } catch (err) {
      row("invalid", errorMessage(err));
      continue;
    }
    if (facts.envFile) out.protectedPaths.push(facts.envFile.path);
    out.protectedPaths.push(...facts.runs.map((r) => r.path));
    const consent = scope === "folder" ? await consented(src, def, facts) : "allow";
    if (consent === "deny") {
      row("declined", "you did not allow this server to start (Manifold: Restart MCP Server… asks again)");
      continue;
    }
    try {
      const server = await toAcpServer(def, {
        workspaceFolder: src.folder,
        userHome: src.userHome,
        env: src.env,
        input: (id) => src.input(scope, inputs.get(id)!),
        // The text the consent hashed, read once: a later edit is not what the user allowed.
        readEnvFile: () => Promise.resolve(facts.envText ?? ""),
      });
      // A folder's stdio server starts inside the session's sandbox, network as consented (I-114).
      const sent = scope === "folder" && "command" in server ? { ...server, _meta: confineMeta(consent) } : server;
      taken.add(def.name);
      out.servers.push(sent);
      row("passed");
    } catch (err) {
      row("invalid", errorMessage(err));
    }
  }
}

/** The envFile (read once) and the folder files the command runs, hashed. */
async function gatherFacts(src: McpSources, scope: Scope, def: ServerDef): Promise<GrantFacts & { envText?: string }> {
  const vars: PathVars = { folder: src.folder, userHome: src.userHome, env: src.env };
  const facts: GrantFacts & { envText?: string } = { runs: [] };
  const c = def.config;
  if (c.type === "stdio" && c.envFile) {
    const path = envFilePath(c.envFile, vars);
    if (!path) throw new ResolveError("an envFile path may use ${workspaceFolder}, ${userHome} and ${env:…} only");
    const text = await src.readEnvFile(scope, path);
    facts.envFile = { path, sha256: sha256(text), names: Object.keys(parseEnvFile(text)) };
    facts.envText = text;
  }
  // A folder server starts in the folder, so relative words name its files; a user server starts elsewhere.
  for (const p of runCandidates(def, vars, scope === "folder" ? src.folder : undefined)) {
    const digest = await src.fileDigest(p);
    if (digest) facts.runs.push({ path: p, sha256: digest });
  }
  return facts;
}

/** A folder's server starts only after the user allowed this exact grant for this folder. */
async function consented(src: McpSources, def: ServerDef, facts: GrantFacts): Promise<Consent> {
  const key = grantKey(src.folder, def, facts);
  const known = src.consent.get(key);
  if (known) return known;
  const answer = await src.consent.ask({
    folderName: src.folderName,
    name: def.name,
    detail: describeGrant(src.folder, def, facts),
    offerOffline: def.config.type === "stdio",
  });
  await src.consent.set(key, answer);
  return answer;
}
