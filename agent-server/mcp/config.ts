// The `mcpServers` of session/new, load and resume: validated from outside data into the specs the
// session's MCP set starts. stdio and streamable HTTP are supported; SSE (deprecated by MCP) is not.
import * as z from "zod/v4";

export interface McpStdioSpec {
  transport: "stdio";
  name: string;
  command: string;
  args: string[];
  env: Array<{ name: string; value: string }>;
  /** Defined by the folder (`_meta["manifold.dev/confine"]`): starts inside the session's sandbox. */
  confine?: { network: boolean };
}

export interface McpHttpSpec {
  transport: "http";
  name: string;
  url: string;
  headers: Array<{ name: string; value: string }>;
}

export type McpServerSpec = McpStdioSpec | McpHttpSpec;

export const MAX_MCP_SERVERS = 20;
/** The per-server `_meta` key a client marks a folder-defined stdio server with (I-114). */
export const CONFINE_META = "manifold.dev/confine";

export class McpConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "McpConfigError";
  }
}

const pair = z.object({ name: z.string().min(1).max(1_000), value: z.string().max(100_000) });
const serverName = z.string().min(1, "an MCP server needs a non-empty name").max(100);
const stdio = z.object({
  name: serverName,
  command: z.string().min(1, "a stdio MCP server needs a command").max(4_096),
  args: z.array(z.string().max(100_000)).max(1_000),
  env: z.array(pair).max(1_000),
  _meta: z.record(z.string(), z.unknown()).nullish(),
});
const confine = z.object({ sandbox: z.boolean(), network: z.boolean().optional() }).strict();
const http = z.object({
  type: z.literal("http"),
  name: serverName,
  url: z
    .string()
    .max(8_192)
    .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), "the url must be http:// or https://"),
  headers: z.array(pair).max(1_000),
});

function describeIssues(err: z.ZodError): string {
  return err.issues.map((i) => `${i.path.length ? i.path.join(".") : "entry"}: ${i.message}`).join("; ");
}

/** Throws McpConfigError with a message for the client; nothing is started for an invalid list. */
export function parseMcpServers(raw: unknown): McpServerSpec[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new McpConfigError("mcpServers must be an array");
  if (raw.length > MAX_MCP_SERVERS) throw new McpConfigError(`at most ${MAX_MCP_SERVERS} MCP servers per session`);
  const out: McpServerSpec[] = [];
  const names = new Set<string>();
  raw.forEach((entry: unknown, i) => {
    const type = typeof entry === "object" && entry !== null && "type" in entry ? (entry as { type: unknown }).type : undefined;
    let spec: McpServerSpec;
    if (type === undefined || type === "stdio") {
      const p = stdio.safeParse(entry);
      if (!p.success) throw new McpConfigError(`mcpServers[${i}] (stdio): ${describeIssues(p.error)}`);
      const { _meta, ...rest } = p.data;
      spec = { transport: "stdio", ...rest };
      const mark = _meta?.[CONFINE_META];
      if (mark !== undefined) {
        // A malformed mark never degrades to a host-side start.
        const c = confine.safeParse(mark);
        if (!c.success) throw new McpConfigError(`mcpServers[${i}]: _meta["${CONFINE_META}"]: ${describeIssues(c.error)}`);
        if (c.data.sandbox) spec.confine = { network: c.data.network === true };
      }
    } else if (type === "http") {
      const p = http.safeParse(entry);
      if (!p.success) throw new McpConfigError(`mcpServers[${i}] (http): ${describeIssues(p.error)}`);
      spec = { transport: "http", name: p.data.name, url: p.data.url, headers: p.data.headers };
    } else if (type === "sse") {
      throw new McpConfigError(
        `mcpServers[${i}]: SSE MCP servers are not supported by this agent (mcpCapabilities.sse is false); use stdio or streamable HTTP ("type": "http")`,
      );
    } else {
      throw new McpConfigError(`mcpServers[${i}]: unsupported MCP server type ${JSON.stringify(type)}`);
    }
    if (names.has(spec.name))
      throw new McpConfigError(
        `mcpServers: the name ${JSON.stringify(spec.name)} is used twice; each server of a session needs its own name`,
      );
    names.add(spec.name);
    out.push(spec);
  });
  return out;
}
