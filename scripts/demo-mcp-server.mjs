#!/usr/bin/env node
// The demo workspace's MCP server (webapp/.vscode/mcp.json, written by `npm start`): a tiny stdio server
// that works offline, so the consent question, the panel's server list and an `mcp__demo__…` tool call
// can be tried without installing anything. Built on the official SDK from this checkout.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "manifold-demo", version: "1.0.0" });
server.registerTool(
  "roll_dice",
  {
    description: "Rolls `count` dice with `sides` sides each and returns the results.",
    inputSchema: { count: z.number().int().min(1).max(20).default(1), sides: z.number().int().min(2).max(1000).default(6) },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  ({ count, sides }) => {
    const rolls = Array.from({ length: count }, () => 1 + Math.floor(Math.random() * sides));
    return { content: [{ type: "text", text: `${rolls.join(", ")} (total ${rolls.reduce((a, b) => a + b, 0)})` }] };
  },
);
await server.connect(new StdioServerTransport());
