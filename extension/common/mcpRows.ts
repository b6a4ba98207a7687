// What the panel shows per MCP server of a session (shared by the extension and the webview; types only).

export type McpRowState =
  /** Sent to an agent that does not report server status. */
  | "passed"
  /** Not sent: the agent cannot take its transport, or its name is taken. */
  | "not-passed"
  | "starting"
  | "ready"
  | "failed"
  /** A folder's server in an untrusted workspace. */
  | "needs-trust"
  /** The user answered "Don't allow" (or dismissed the consent question). */
  | "declined"
  /** The definition or one of its values is invalid. */
  | "invalid";

export interface McpRow {
  name: string;
  /** Where it is defined: the folder's .vscode/mcp.json, the user's manifold.mcpServers, or Manifold's own. */
  source: "folder" | "user" | "manifold";
  state: McpRowState;
  detail?: string;
  tools?: number;
}

/** One server's state as the agent reports it (`_manifold/mcp_status`). */
export interface McpServerStatus {
  name: string;
  state: "starting" | "ready" | "failed";
  tools?: number;
  error?: string;
}

/** The rows after an agent status report: only rows that were passed change. */
export function applyStatus(rows: readonly McpRow[], servers: readonly McpServerStatus[]): McpRow[] {
  const byName = new Map(servers.map((s) => [s.name, s]));
  return rows.map((r) => {
    const s = byName.get(r.name);
    if (!s || !["passed", "starting", "ready", "failed"].includes(r.state)) return r;
    const { detail: _d, tools: _t, ...rest } = r;
    return {
      ...rest,
      state: s.state,
      ...(s.state === "ready" && s.tools !== undefined ? { tools: s.tools } : {}),
      ...(s.state === "failed" && s.error ? { detail: s.error } : {}),
    };
  });
}
