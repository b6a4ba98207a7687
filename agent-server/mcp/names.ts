// The names a session's MCP tools carry towards the model: `mcp__<server>__<tool>`, in the charset
// and length both model APIs accept (^[A-Za-z0-9_-]{1,64}$), unique within the session. Built-in
// tools never start with `mcp__`, so no MCP tool can shadow one. Pure.
import { createHash } from "node:crypto";

export const MAX_TOOL_NAME = 64;
export const MCP_PREFIX = "mcp__";

const clean = (s: string): string => s.replace(/[^A-Za-z0-9_-]/g, "_");

function shortHash(s: string): string {
  return createHash("sha256").update(s).digest("hex").slice(0, 8);
}

/** The name before de-duplication: sanitized, and cut to the limit with a hash of the original pair. */
export function baseToolName(server: string, tool: string): string {
  const name = `${MCP_PREFIX}${clean(server)}__${clean(tool)}`;
  if (name.length <= MAX_TOOL_NAME) return name;
  const tag = `_${shortHash(`${server}\u0000${tool}`)}`;
  return name.slice(0, MAX_TOOL_NAME - tag.length) + tag;
}

/** Exposed names for `pairs` in order; a name already taken gets `_2`, `_3`, … (still within the limit). */
export function exposedToolNames(pairs: ReadonlyArray<{ server: string; tool: string }>): string[] {
  const taken = new Set<string>();
  return pairs.map(({ server, tool }) => {
    const base = baseToolName(server, tool);
    let name = base;
    for (let n = 2; taken.has(name); n++) {
      const suffix = `_${n}`;
      name = base.slice(0, MAX_TOOL_NAME - suffix.length) + suffix;
    }
    taken.add(name);
    return name;
  });
}
