// VS Code's MCP configuration format (a folder's `.vscode/mcp.json`, and the same shape in the
// `manifold.mcpServers` setting), validated entry by entry: a bad server or input is reported by name
// and loses nothing else.
import { parse, printParseErrorCode, type ParseError } from "jsonc-parser";
import { z } from "zod";

export interface StdioDef {
  type: "stdio";
  command: string;
  args: string[];
  env: Record<string, string>;
  envFile?: string;
}
export interface RemoteDef {
  type: "http" | "sse";
  url: string;
  headers: Record<string, string>;
}
export interface ServerDef {
  name: string;
  config: StdioDef | RemoteDef;
}
export interface InputDef {
  id: string;
  description: string;
  password: boolean;
}
export interface McpConfigFile {
  servers: ServerDef[];
  inputs: InputDef[];
  /** One line per entry that was left out, naming it. */
  problems: string[];
}

/** Our own server's name; a configured server may not take it. */
export const OWN_SERVER_NAME = "manifold";

const str = z.string().max(100_000);
const stdio = z.object({
  type: z.literal("stdio").optional(),
  command: z.string().min(1, "needs a command").max(4_096),
  args: z.array(str).max(1_000).optional(),
  // VS Code allows numbers and null (null = unset); numbers become strings.
  env: z.record(z.string().min(1), z.union([str, z.number(), z.null()])).optional(),
  envFile: z.string().min(1).optional(),
});
const remote = z.object({
  type: z.enum(["http", "sse"]).optional(),
  url: z
    .string()
    .max(8_192)
    .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), "url must be http:// or https://"),
  headers: z.record(z.string().min(1), str).optional(),
});
const input = z.object({
  type: z.literal("promptString", { error: 'only "promptString" inputs are supported' }),
  id: z.string().min(1).max(200),
  description: z.string().max(1_000).optional(),
  password: z.boolean().optional(),
});
const NAME = /^[A-Za-z0-9_.-]{1,64}$/;

function issues(err: z.ZodError): string {
  return err.issues.map((i) => `${i.path.length ? i.path.join(".") + ": " : ""}${i.message}`).join("; ");
}

/** Validates an already-parsed value of VS Code's MCP shape `{servers, inputs}`. */
export function parseMcpConfig(raw: unknown, where: string): McpConfigFile {
  const out: McpConfigFile = { servers: [], inputs: [], problems: [] };
  if (raw === undefined || raw === null) return out;
  if (typeof raw !== "object" || Array.isArray(raw)) {
    out.problems.push(`${where}: expected an object with "servers"`);
    return out;
  }
  const { servers, inputs } = raw as { servers?: unknown; inputs?: unknown };
  if (servers !== undefined && (typeof servers !== "object" || servers === null || Array.isArray(servers))) {
    out.problems.push(`${where}: "servers" must be an object of named servers`);
  } else {
    for (const [name, entry] of Object.entries(servers ?? {})) {
      const bad = (why: string) => out.problems.push(`${where}: server "${name.slice(0, 64)}" was left out: ${why}`);
      if (!NAME.test(name)) {
        bad("a name is 1–64 letters, digits, '.', '_' or '-'");
        continue;
      }
      if (name === OWN_SERVER_NAME) {
        bad(`the name "${OWN_SERVER_NAME}" is Manifold's own server`);
        continue;
      }
      const type = typeof entry === "object" && entry !== null ? (entry as { type?: unknown }).type : undefined;
      const hasUrl = typeof entry === "object" && entry !== null && "url" in entry;
      if (type === "http" || type === "sse" || (type === undefined && hasUrl)) {
        const p = remote.safeParse(entry);
        if (!p.success) bad(issues(p.error));
        else out.servers.push({ name, config: { type: p.data.type ?? "http", url: p.data.url, headers: p.data.headers ?? {} } });
      } else if (type === undefined || type === "stdio") {
        const p = stdio.safeParse(entry);
        if (!p.success) bad(issues(p.error));
        else {
          const env: Record<string, string> = {};
          for (const [k, v] of Object.entries(p.data.env ?? {})) if (v !== null) env[k] = String(v);
          out.servers.push({
            name,
            config: {
              type: "stdio",
              command: p.data.command,
              args: p.data.args ?? [],
              env,
              ...(p.data.envFile ? { envFile: p.data.envFile } : {}),
            },
          });
        }
      } else bad(`unsupported type ${JSON.stringify(type).slice(0, 40)}`);
    }
  }
  if (inputs !== undefined && !Array.isArray(inputs)) out.problems.push(`${where}: "inputs" must be an array`);
  else
    (inputs ?? []).forEach((entry: unknown, i: number) => {
      const p = input.safeParse(entry);
      if (!p.success) out.problems.push(`${where}: input #${i + 1} was left out: ${issues(p.error)}`);
      else out.inputs.push({ id: p.data.id, description: p.data.description ?? p.data.id, password: p.data.password === true });
    });
  return out;
}

/** Parses the text of an `mcp.json` (JSONC with trailing commas, read by VS Code's own parser). */
export function parseMcpJson(text: string, where: string): McpConfigFile {
  const errors: ParseError[] = [];
  const raw: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  // A file with a syntax error is not used at all: a half-read config could start a different server.
  const first = errors[0];
  if (first) {
    const { line, column } = lineColumn(text, first.offset);
    return {
      servers: [],
      inputs: [],
      problems: [`${where}: not valid JSON (${printParseErrorCode(first.error)} at line ${line}, column ${column})`],
    };
  }
  return parseMcpConfig(raw, where);
}

/** 1-based line and column of a character offset. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lastBreak = before.lastIndexOf("\n");
  return { line: before.split("\n").length, column: offset - lastBreak };
}
