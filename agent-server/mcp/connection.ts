// One MCP server of one session: start (connect + tools/list, bounded), its current tools
// (re-listed on `notifications/tools/list_changed`), calls (bounded), and close (whole tree gone).
// A server that fails never throws past this class: it becomes `failed` with a reason.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ToolListChangedNotificationSchema, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { mkdirSync } from "node:fs";
import type { CommandSandbox } from "../../sandbox/types";
import type { McpServerSpec } from "./config";
import { hostLaunch, sandboxLaunch, type SessionPlace } from "./launch";
import { TreeStdioTransport } from "./stdioTransport";
import { errorMessage, ignoreError } from "../../base/errors";

export type { SessionPlace } from "./launch";

export interface McpLimits {
  /** connect + initialize + the first tools/list. */
  startTimeoutMs: number;
  /** One tools/call (as for bash: the call is abandoned and reported after this). */
  callTimeoutMs: number;
}

export interface McpToolInfo {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** What every session's servers share: where host-side ones start from, the sandbox folder-defined ones start in. */
export interface McpHost {
  /** The agent's data dir (real, masked from confined commands): holds the host-side servers' empty cwd. */
  readonly dataDir: string;
  readonly sandbox: Promise<CommandSandbox>;
}

const MAX_TOOLS = 200;
const MAX_LIST_PAGES = 20;
const MAX_DESCRIPTION = 4_000;
const MAX_SCHEMA_CHARS = 100_000;

export class McpCallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "McpCallError";
  }
}

function msg(err: unknown): string {
  return errorMessage(err).slice(0, 500);
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

/** Only tools whose schema is an object schema of sane size reach the model. */
function acceptTool(t: Tool): McpToolInfo | string {
  const schema = t.inputSchema as Record<string, unknown>;
  if (typeof schema !== "object" || schema === null || Array.isArray(schema) || schema.type !== "object")
    return `tool ${JSON.stringify(t.name)}: its inputSchema is not an object schema`;
  if (JSON.stringify(schema).length > MAX_SCHEMA_CHARS)
    return `tool ${JSON.stringify(t.name)}: its inputSchema is larger than ${MAX_SCHEMA_CHARS} characters`;
  if (t.name.length === 0 || t.name.length > 200) return `a tool name is empty or longer than 200 characters`;
  return { name: t.name, description: (t.description ?? t.title ?? "").slice(0, MAX_DESCRIPTION), inputSchema: schema };
}

export class McpConnection {
  state: "starting" | "ready" | "failed" | "closed" = "starting";
  error: string | null = null;
  tools: McpToolInfo[] = [];
  /** Settles (never rejects) once the server is ready or failed. */
  readonly started: Promise<void>;
  /** A re-list in flight after `list_changed`; the next model step waits for it. */
  private listing: Promise<void> | null = null;
  private readonly client: Client;
  private transport: Transport | null = null;
  private stdio: TreeStdioTransport | null = null;
  private closing: Promise<void> | null = null;
  /** Bumped by every list_changed, so an older listing never overwrites a newer one. */
  private listGeneration = 0;
  onChange: () => void = () => undefined;

  constructor(
    readonly spec: McpServerSpec,
    readonly place: SessionPlace,
    private readonly envSource: NodeJS.ProcessEnv,
    private readonly limits: McpLimits,
    private readonly host: McpHost,
  ) {
    this.client = new Client({ name: "manifold-agent", version: "0.1.0" }, { capabilities: {} });
    this.started = this.start();
  }

  get name(): string {
    return this.spec.name;
  }

  /** Waits for the start and any re-list in flight (never rejects). */
  async settled(): Promise<void> {
    await this.started;
    while (this.listing) await this.listing;
  }

  private async makeTransport(): Promise<Transport> {
    const spec = this.spec;
    if (spec.transport === "http") {
      const headers: Record<string, string> = {};
      for (const h of spec.headers) headers[h.name] = h.value;
      return new StreamableHTTPClientTransport(new URL(spec.url), { requestInit: { headers } });
    }
    mkdirSync(this.place.tmpDir, { recursive: true, mode: 0o700 });
    // Manifold's own secrets never pass (the allowlist); what the client set for this server does (launch.ts).
    if (spec.confine) {
      const { cmd, preamble } = sandboxLaunch(spec, this.place, await this.host.sandbox);
      this.stdio = new TreeStdioTransport(cmd, preamble);
    } else this.stdio = new TreeStdioTransport(hostLaunch(spec, this.place, this.envSource, this.host.dataDir));
    return this.stdio;
  }

  private fail(reason: string): void {
    if (this.state === "closed" || this.state === "failed") return;
    this.state = "failed";
    const stderr = this.stdio?.stderr();
    this.error = stderr ? `${reason} (stderr: ${stderr.slice(-300)})` : reason;
    this.tools = [];
    console.error(`[mcp] server ${JSON.stringify(this.name)} failed: ${this.error}`);
    this.onChange();
    void this.shutdown();
  }

  private async start(): Promise<void> {
    try {
      this.client.onclose = () => {
        const why = this.stdio?.exitReason;
        this.fail(why ? `the server ${why}` : "the connection to the server closed");
      };
      this.client.onerror = (err) => console.error(`[mcp] ${JSON.stringify(this.name)}: ${msg(err)}`);
      this.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        if (this.state === "ready") this.relist();
      });
      await withTimeout(
        (async () => {
          const transport = await this.makeTransport();
          this.transport = transport;
          // Closed while the sandbox was awaited: shutdown already ran, so release what was built here.
          if (this.state !== "starting") return void (await transport.close());
          await this.client.connect(transport, { timeout: this.limits.startTimeoutMs });
          this.tools = await this.listAll(this.limits.startTimeoutMs);
        })(),
        this.limits.startTimeoutMs,
        "starting the server",
      );
      if (this.state !== "starting") return;
      this.state = "ready";
      this.onChange();
    } catch (err) {
      this.fail(`could not start: ${msg(err)}`);
    }
  }

  private async listAll(timeout: number): Promise<McpToolInfo[]> {
    const out: McpToolInfo[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const res = await this.client.listTools(cursor ? { cursor } : {}, { timeout });
      for (const t of res.tools) {
        const ok = acceptTool(t);
        if (typeof ok === "string") console.error(`[mcp] ${JSON.stringify(this.name)}: skipped ${ok}`);
        else if (out.length < MAX_TOOLS) out.push(ok);
      }
      cursor = res.nextCursor;
      if (!cursor) break;
    }
    return out;
  }

  private relist(): void {
    const gen = ++this.listGeneration;
    const p = this.listAll(this.limits.startTimeoutMs).then(
      (tools) => {
        if (gen !== this.listGeneration || this.state !== "ready") return;
        this.tools = tools;
        this.onChange();
      },
      (err: unknown) => this.fail(`could not re-list its tools: ${msg(err)}`),
    );
    const current = p.finally(() => {
      if (this.listing === current) this.listing = null;
    });
    this.listing = current;
  }

  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    if (this.state !== "ready")
      throw new McpCallError(`MCP server ${JSON.stringify(this.name)} is not running${this.error ? `: ${this.error}` : ""}.`);
    try {
      // The SDK validates the result's shape; garbage is an error here, never a crash.
      const res = await this.client.callTool({ name: tool, arguments: args }, undefined, { signal, timeout: this.limits.callTimeoutMs });
      return res as CallToolResult;
    } catch (err) {
      if (signal.aborted) throw err;
      const text = msg(err);
      if (/timed out|timeout/i.test(text))
        throw new McpCallError(
          `MCP server ${JSON.stringify(this.name)} did not answer ${tool} within ${this.limits.callTimeoutMs} ms; the call was abandoned.`,
        );
      if ((this.state as McpConnection["state"]) === "failed")
        throw new McpCallError(`MCP server ${JSON.stringify(this.name)} stopped during the call: ${this.error ?? text}`);
      throw new McpCallError(`MCP server ${JSON.stringify(this.name)} answered ${tool} with an error: ${text}`);
    }
  }

  /** Idempotent; resolves when the server (and, for stdio, its whole process tree) is gone. */
  close(): Promise<void> {
    if (this.state !== "failed") this.state = "closed";
    this.tools = [];
    return this.shutdown();
  }

  private shutdown(): Promise<void> {
    this.closing ??= (async () => {
      try {
        await this.client.close();
      } catch {
        /* already closed */
      }
      // client.close() closes the transport; make sure of it (a failed connect may leave it unclosed).
      await this.transport?.close().catch(ignoreError("usually closed with the client already: closing twice may fail"));
    })();
    return this.closing;
  }
}
