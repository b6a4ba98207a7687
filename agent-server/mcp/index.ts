// Entry points of the MCP layer: the servers a client passes for a session (stdio, streamable HTTP).
export { McpConfigError, parseMcpServers, type McpServerSpec } from "./config";
export { McpSessions, mcpLimitsFrom, DEFAULT_MCP_LIMITS, type McpServerState } from "./sessions";
export { MCP_CAPABILITIES, MCP_STATUS_METHOD, MCP_RESTART_METHOD, MCP_META, mcpRestartParams } from "./clientExt";
export type { McpLimits, SessionPlace } from "./connection";
