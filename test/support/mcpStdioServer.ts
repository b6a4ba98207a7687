// Entry of the fake stdio MCP server (see mcpFake.ts); its config comes in MANIFOLD_FAKE_MCP.
// Spawned by the agent-server under test through `mcpStdioCommand()`.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { spawn } from "node:child_process";
import { buildFakeMcpServer, FAKE_MCP_ENV, logLine, type FakeMcpConfig } from "./mcpFake";

const config = JSON.parse(process.env[FAKE_MCP_ENV] ?? "{}") as FakeMcpConfig;
const log = (e: Record<string, unknown>): void => logLine(config.log, { ...e, server: config.name });

log({ event: "start", pid: process.pid, env: Object.keys(process.env), cwd: process.cwd() });
if (config.grandchild) {
  // Not detached: setsid(1) forks only when it is already a group leader, so the logged pid is the sleep itself.
  const g = spawn("setsid", ["sleep", "1000"], { stdio: "ignore" });
  g.unref();
  log({ event: "grandchild", pid: g.pid });
}
if (config.startup === "exit") {
  process.stderr.write("fake server: refusing to start\n");
  process.exit(2);
}
if (config.startup !== "silent") {
  const server = buildFakeMcpServer(config, {
    crash: () => process.exit(3),
    garbage: () => process.stdout.write("this line is not JSON-RPC at all\n"),
    log,
  });
  void server.connect(new StdioServerTransport());
} else {
  process.stdin.resume(); // alive, never answers
}
