// Session grants ("Allow for this session"), one set per session id. Held by the tool runner.
export interface GrantStore {
  of(sessionId: string): ReadonlySet<string>;
  add(sessionId: string, key: string): void;
  forget(sessionId: string): void;
}

export function createGrantStore(): GrantStore {
  const bySession = new Map<string, Set<string>>();
  const empty: ReadonlySet<string> = new Set();
  return {
    of: (id) => bySession.get(id) ?? empty,
    add(id, key) {
      let set = bySession.get(id);
      if (!set) bySession.set(id, (set = new Set()));
      set.add(key);
    },
    forget: (id) => void bySession.delete(id),
  };
}

/** Key for a file call: tool + canonical path. */
export function fileGrantKey(tool: string, realPaths: readonly string[]): string {
  return `${tool}:${realPaths.join("\n")}`;
}

/** Key for an MCP call: server + the server's own tool name ("Allow for this session" covers that tool only). */
export function mcpGrantKey(server: string, tool: string): string {
  return `mcp:${JSON.stringify([server, tool])}`;
}

/** Key for a delegation to another agent ("Allow for this session" covers that agent only). */
export function delegateGrantKey(agent: string): string {
  return `delegate:${JSON.stringify(agent)}`;
}
