// Manifold's two ACP extension messages about a session's MCP servers, advertised in
// `agentCapabilities._meta.manifold` so a client uses them only with an agent that has them:
// `_manifold/mcp_status` (agent → client notification: {sessionId, servers:[{name,state,tools?,error?}]},
// sent on every change) and `_manifold/mcp_restart` (client → agent request: {sessionId, name}).
// `mcpConfine`: a stdio server marked `_meta["manifold.dev/confine"]` starts inside the session's
// sandbox (launch.ts); a client gives a folder's own stdio servers only to an agent that says so.
import * as z from "zod/v4";

export const MCP_STATUS_METHOD = "_manifold/mcp_status";
export const MCP_RESTART_METHOD = "_manifold/mcp_restart";
/** Advertised as `agentCapabilities.mcpCapabilities` (stdio is the baseline every agent accepts). */
export const MCP_CAPABILITIES = { http: true, sse: false } as const;
export const MCP_META = { manifold: { mcpStatus: true, mcpRestart: true, mcpConfine: true } } as const;

export const mcpRestartParams = z.object({ sessionId: z.string().min(1), name: z.string().min(1).max(200) });
