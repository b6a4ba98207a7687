// Entry points of the MCP layer: the servers a client passes for a session (stdio, streamable HTTP).
export { MCP_CAPABILITIES, McpConfigError, parseMcpServers, type McpServerSpec } from "./config";
export { McpSessions, mcpLimitsFrom, DEFAULT_MCP_LIMITS } from "./sessions";
export type { McpLimits, SessionPlace } from "./connection";
