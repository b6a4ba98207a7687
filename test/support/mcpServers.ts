// Test helpers for MCP: the ACP `mcpServers` entry that runs the fake stdio server, and a fake
// streamable-HTTP MCP server in the test process (stateless: a server per request).
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type * as acp from "@agentclientprotocol/sdk";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { buildSync } from "esbuild";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildFakeMcpServer, FAKE_MCP_ENV, type FakeMcpConfig } from "./mcpFake";

const ENTRY = resolve(__dirname, "mcpStdioServer.ts");
let bundled: string | null = null;

/**
 * The fake stdio server bundled once per test process into plain JS (esbuild): it starts in a
 * fraction of the time tsx needs, so a loaded CI machine does not turn start-up into a timeout.
 */
function serverScript(): string {
  if (bundled) return bundled;
  const dir = mkdtempSync(join(tmpdir(), "manifold-fake-mcp-"));
  const out = join(dir, "mcpStdioServer.cjs");
  buildSync({ entryPoints: [ENTRY], bundle: true, platform: "node", format: "cjs", target: "node20", outfile: out, logLevel: "error" });
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  bundled = out;
  return out;
}

/** An ACP stdio McpServer entry running the fake server with `config` (plus extra env, as a client would pass). */
export function mcpStdioEntry(config: FakeMcpConfig, extraEnv: Array<{ name: string; value: string }> = []): acp.McpServer {
  return {
    name: config.name,
    command: process.execPath,
    args: [serverScript()],
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
