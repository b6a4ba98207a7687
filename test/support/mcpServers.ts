// Test helpers for MCP: the ACP `mcpServers` entry that runs the fake stdio server, and a fake
// streamable-HTTP MCP server in the test process (stateless: a server per request).
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type * as acp from "@agentclientprotocol/sdk";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, resolve } from "node:path";
import { buildFakeMcpServer, FAKE_MCP_ENV, type FakeMcpConfig } from "./mcpFake";

// tsx's `--import` entry (package export "." for import), by absolute path: the server's cwd is the session folder.
const TSX_LOADER = resolve(dirname(require.resolve("tsx/package.json")), "dist/loader.mjs");
const ENTRY = resolve(__dirname, "mcpStdioServer.ts");

/** An ACP stdio McpServer entry running the fake server with `config` (plus extra env, as a client would pass). */
export function mcpStdioEntry(config: FakeMcpConfig, extraEnv: Array<{ name: string; value: string }> = []): acp.McpServer {
  return {
    name: config.name,
    command: process.execPath,
    args: ["--import", TSX_LOADER, ENTRY],
    env: [{ name: FAKE_MCP_ENV, value: JSON.stringify(config) }, ...extraEnv],
  };
}

export interface FakeHttpMcp {
  url: string;
  calls: Array<{ tool: string; args: unknown }>;
  headers: IncomingHttpHeaders[];
  entry(headers?: Array<{ name: string; value: string }>): acp.McpServer;
  close(): Promise<void>;
}

export async function startHttpMcp(config: FakeMcpConfig): Promise<FakeHttpMcp> {
  const calls: FakeHttpMcp["calls"] = [];
  const headers: IncomingHttpHeaders[] = [];
  const http = createServer((req, res) => {
    headers.push(req.headers);
    const server = buildFakeMcpServer(config, {
      crash: () => {
        req.socket.destroy();
        return new Promise<never>(() => undefined);
      },
      log: (e) => {
        if (e.event === "call") calls.push({ tool: String(e.tool), args: e.args });
      },
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  return {
    url,
    calls,
    headers,
    entry: (h = []) => ({ type: "http", name: config.name, url, headers: h }),
    close: () =>
      new Promise((r) => {
        http.closeAllConnections();
        http.close(() => r());
      }),
  };
}
