// The session's MCP servers: a one-line summary that opens to one row per server with its state
// (starting, ready with N tools, failed, passed, not passed, declined…) and the reason.
import type { McpRow } from "../../common/mcpRows";

const LABEL: Record<McpRow["state"], string> = {
  passed: "passed",
  "not-passed": "not passed",
  starting: "starting…",
  ready: "ready",
  failed: "failed",
  "needs-trust": "needs a trusted workspace",
  declined: "not allowed",
  invalid: "invalid",
};
const SOURCE: Record<McpRow["source"], string> = { folder: ".vscode/mcp.json", user: "user settings", manifold: "Manifold" };

export function McpServers({ rows }: { rows: readonly McpRow[] }) {
  if (rows.length === 0) return null;
  const live = rows.filter((r) => r.state === "ready" || r.state === "passed" || r.state === "starting").length;
  const bad = rows.some((r) => r.state === "failed" || r.state === "invalid");
  return (
    <details class={`mcp-servers${bad ? " has-problem" : ""}`} data-testid="mcp-servers">
      <summary>
        MCP servers: {live} of {rows.length} in use{bad ? " (problems)" : ""}
      </summary>
      <ul>
        {rows.map((r, i) => (
          <li key={`${r.source}:${r.name}:${i}`} data-testid="mcp-server" data-name={r.name} data-state={r.state} class={`mcp-${r.state}`}>
            <b>{r.name}</b> <span class="mcp-source">({SOURCE[r.source]})</span> — {LABEL[r.state]}
            {r.state === "ready" && r.tools !== undefined ? `, ${r.tools} tool${r.tools === 1 ? "" : "s"}` : ""}
            {r.detail ? <span class="mcp-detail">: {r.detail}</span> : null}
          </li>
        ))}
      </ul>
    </details>
  );
}
