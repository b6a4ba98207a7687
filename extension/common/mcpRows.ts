// What the panel shows per MCP server of a session (shared by the extension and the webview): the row
// types, the agent's status reports applied to them, and the texts the panel says of them.

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

const LABEL: Record<McpRowState, string> = {
  // Delivering a server is not connecting it: without the agent's report, the row says only what we know.
  passed: "passed to the agent; connection not reported",
  "not-passed": "not passed",
  starting: "starting…",
  ready: "ready",
  failed: "failed",
  "needs-trust": "needs a trusted workspace",
  declined: "not allowed",
  invalid: "invalid",
};

/** What a row says of its server's state, with the tool count when the agent reported it. */
export function rowLabel(row: McpRow): string {
  const tools = row.state === "ready" && row.tools !== undefined ? `, ${row.tools} tool${row.tools === 1 ? "" : "s"}` : "";
  return LABEL[row.state] + tools;
}

/** The section's one-line summary; servers only passed are not counted as in use, their connection unknown. */
export function summaryText(rows: readonly McpRow[]): string {
  const live = rows.filter((r) => r.state === "ready" || r.state === "starting").length;
  const passed = rows.filter((r) => r.state === "passed").length;
  const bad = rows.some((r) => r.state === "failed" || r.state === "invalid");
  const unknown = passed > 0 ? `, ${passed} passed (connection not reported)` : "";
  return `MCP servers: ${live} of ${rows.length} in use${unknown}${bad ? " (problems)" : ""}`;
}

/**
 * One line per server passed to an agent that reports no status and, after a turn, has called none of
 * its tools: a tool named `mcp__<server>__…` (the big adapters' convention) or a title naming the server.
 * Before any turn ended there is nothing to say yet.
 */
export function unusedServerNotes(agentName: string, rows: readonly McpRow[], toolTitles: readonly string[], turnEnded: boolean): string[] {
  if (!turnEnded) return [];
  return rows
    .filter((r) => r.state === "passed")
    .filter((r) => !toolTitles.some((t) => t.startsWith(`mcp__${r.name}__`) || t.includes(r.name)))
    .map((r) => `${agentName} has not reported or used ${r.name} yet`);
}
