// Which tools a caller sees and can call: the built-ins, plus a session's own tools for that session only.
import type { SessionToolSource, Tool, ToolCapabilities, ToolRunner } from "./types";

type Spec = ReturnType<ToolRunner["specs"]>[number];

export interface ToolCatalog {
  /** Specs for the model, only the tools available with `caps` (default: none of the optional ones). */
  specs(caps?: ToolCapabilities): Spec[];
  /** Built-ins first; a session tool only for its own session (their `mcp__` names never shadow a built-in). */
  lookup(name: string, sessionId: string | undefined): Tool | undefined;
}

const specOf = (t: Tool): Spec => ({ name: t.name, description: t.description, inputSchema: t.inputSchema() });

export function createCatalog(builtins: readonly Tool[], sessionTools: SessionToolSource | undefined): ToolCatalog {
  const tools = new Map<string, Tool>();
  for (const t of builtins) tools.set(t.name, t);
  const allSpecs = [...tools.values()].map((t) => ({ tool: t, spec: specOf(t) }));
  const noCaps: ToolCapabilities = { askUser: false };
  const sessionToolsOf = (sessionId: string | undefined): readonly Tool[] =>
    sessionId !== undefined && sessionTools ? sessionTools.tools(sessionId) : [];
  return {
    specs: (caps = noCaps) => [
      ...allSpecs.filter((s) => s.tool.available(caps)).map((s) => s.spec),
      ...sessionToolsOf(caps.sessionId).map(specOf),
    ],
    lookup: (name, sessionId) => tools.get(name) ?? sessionToolsOf(sessionId).find((t) => t.name === name),
  };
}
