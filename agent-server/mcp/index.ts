// Entry points of the MCP layer: the servers a client passes for a session (stdio, streamable HTTP).
export { MCP_CAPABILITIES, McpConfigError, parseMcpServers, type McpServerSpec } from "./config";
export { McpSessions, mcpLimitsFrom, DEFAULT_MCP_LIMITS, type McpServerState } from "./sessions";
export { MCP_STATUS_METHOD, MCP_RESTART_METHOD, MCP_META, mcpRestartParams } from "./clientExt";
export type { McpLimits, SessionPlace } from "./connection";
