// A session's MCP tool as a Tool: named for the model with its server (names.ts), its
// JSON Schema passed through as-is, policy access `mcp` (annotations never count, I-100), the call
// routed to that session's own connection (I-99), the result converted for model and card.
import * as z from "zod/v4";
import { defineTool, type Tool } from "../tools/types";
import type { McpConnection, McpToolInfo } from "./connection";
import { convertResult } from "./result";

const args = z.record(z.string(), z.unknown());

export function mcpTool(exposed: string, conn: McpConnection, info: McpToolInfo): Tool {
  const server = conn.name;
  return defineTool<Record<string, unknown>>({
    name: exposed,
    description: `[MCP server "${server}", tool "${info.name}"] ${info.description}`.trim(),
    parameters: args,
    inputSchema: info.inputSchema,
    kind: "other",
    title: () => `MCP ${server}: ${info.name}`,
    locations: () => [],
    access: () => ({ kind: "mcp", server, tool: info.name }),
    async run(a, ctx) {
      const res = await conn.call(info.name, a, ctx.signal);
      return convertResult(server, info.name, res);
    },
  });
}
