// The session's MCP servers: a one-line summary that opens to one row per server with its state
// (starting, ready with N tools, failed, passed, not passed, declined…) and the reason, and below it a
// note for each server passed to an agent that neither reported nor used it by the end of a turn.
import { rowLabel, summaryText, unusedServerNotes, type McpRow } from "../../common/mcpRows";

const SOURCE: Record<McpRow["source"], string> = { folder: ".vscode/mcp.json", user: "user settings", manifold: "Manifold" };

export function McpServers({
  rows,
  agentName,
  toolTitles,
  turnEnded,
}: {
  rows: readonly McpRow[];
  agentName: string;
  toolTitles: readonly string[];
  turnEnded: boolean;
}) {
  if (rows.length === 0) return null;
  const notes = unusedServerNotes(agentName, rows, toolTitles, turnEnded);
  const bad = rows.some((r) => r.state === "failed" || r.state === "invalid");
  return (
    <>
      <details class={`mcp-servers${bad ? " has-problem" : ""}`} data-testid="mcp-servers">
        <summary>{summaryText(rows)}</summary>
        <ul>
          {rows.map((r, i) => (
            <li
              key={`${r.source}:${r.name}:${i}`}
              data-testid="mcp-server"
              data-name={r.name}
              data-state={r.state}
              class={`mcp-${r.state}`}
            >
              <b>{r.name}</b> <span class="mcp-source">({SOURCE[r.source]})</span> — {rowLabel(r)}
              {r.detail ? <span class="mcp-detail">: {r.detail}</span> : null}
            </li>
          ))}
        </ul>
      </details>
      {notes.map((n) => (
        <p key={n} class="mcp-note" data-testid="mcp-unused">
          {n}
        </p>
      ))}
    </>
  );
}
