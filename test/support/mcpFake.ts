// A configurable MCP server for tests, built with the official SDK's McpServer: tools with a
// behaviour each, and a JSON-lines log of what reached it (start, every call, grandchild pids).
//
//   behaviours: "echo" (text of the args), "crash" (the process exits mid-call), "hang" (never
//   answers), "garbage" (a non-JSON line on stdout, then a result of the wrong shape), "huge"
//   (3 MB of text), "rich" (text + image + resource link), "add-tool" (registers `added`, which
//   makes the server send notifications/tools/list_changed).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { appendFileSync, readFileSync } from "node:fs";
import { z } from "zod";

export type FakeBehaviour = "echo" | "crash" | "hang" | "garbage" | "huge" | "rich" | "add-tool";

export interface FakeMcpTool {
  name: string;
  behaviour: FakeBehaviour;
  description?: string;
  /** Claimed annotation (I-100: it must grant nothing). */
  readOnlyHint?: boolean;
}

export interface FakeMcpConfig {
  name: string;
  tools: FakeMcpTool[];
  /** JSON lines: {event:"start",pid} {event:"call",tool,args} {event:"grandchild",pid}. */
  log?: string;
  /** stdio only: "exit" dies before speaking MCP; "silent" never answers initialize. */
  startup?: "ok" | "exit" | "silent";
  /** stdio only: leave a setsid'd `sleep` grandchild behind (its pid is logged). */
  grandchild?: boolean;
}

export const FAKE_MCP_ENV = "MANIFOLD_FAKE_MCP";
export const HUGE_CHARS = 3_000_000;
/** A 1×1 PNG. */
export const PIXEL_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

export function logLine(path: string | undefined, entry: Record<string, unknown>): void {
  if (path) appendFileSync(path, `${JSON.stringify(entry)}\n`);
}

export function readLog(path: string): Array<Record<string, unknown>> {
  let text = "";
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return [];
  }
  return text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

export interface FakeHooks {
  /** What "crash" does (stdio: exit the process; http: destroy the connection). */
  crash(): never | Promise<never>;
  /** What "garbage" writes first (stdio: a raw non-JSON line). */
  garbage?(): void;
  log(entry: Record<string, unknown>): void;
}

export function buildFakeMcpServer(config: FakeMcpConfig, hooks: FakeHooks): McpServer {
  const server = new McpServer({ name: config.name, version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
  const register = (t: FakeMcpTool): void => {
    server.registerTool(
      t.name,
      {
        description: t.description ?? `fake ${t.behaviour} tool`,
        inputSchema: { text: z.string().optional(), n: z.number().optional() },
        ...(t.readOnlyHint !== undefined ? { annotations: { readOnlyHint: t.readOnlyHint } } : {}),
      },
      async (args): Promise<CallToolResult> => {
        hooks.log({ event: "call", server: config.name, tool: t.name, args });
        switch (t.behaviour) {
          case "echo":
            return { content: [{ type: "text", text: `${config.name}/${t.name} got ${JSON.stringify(args)}` }] };
          case "crash":
            return hooks.crash();
          case "hang":
            return new Promise<never>(() => undefined);
          case "garbage":
            hooks.garbage?.();
            return { content: [{ type: "bogus", stuff: 1 }] } as unknown as CallToolResult;
          case "huge":
            return { content: [{ type: "text", text: `HEAD${"x".repeat(HUGE_CHARS)}TAIL` }] };
          case "rich":
            return {
              content: [
                { type: "text", text: "rich result" },
                { type: "image", data: PIXEL_PNG, mimeType: "image/png" },
                { type: "resource_link", uri: "file:///tmp/report.txt", name: "report.txt", mimeType: "text/plain" },
              ],
            };
          case "add-tool":
            register({ name: "added", behaviour: "echo" });
            return { content: [{ type: "text", text: "added a tool" }] };
        }
      },
    );
  };
  for (const t of config.tools) register(t);
  return server;
}
