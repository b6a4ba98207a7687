// Manifold's own MCP server for one folder session (I-103): read-only tools over what the editor
// knows, confined to the folder. Every path an agent gives is checked with the shared path guard
// before the editor is asked; every path in an answer is checked again, and results outside the
// folder are left out (other folders' files, libraries), so nothing outside the folder is described.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { relative } from "node:path";
import { z } from "zod";
import type { PathConfinement } from "../client/folderConfinement";
import type { DiagnosticInfo, LanguageIntelligence, Location, Position } from "./intelligence";
import { DIAGNOSTICS_BOUNDS } from "./diagnosticsWait";
import { fileDiagnosticsText, folderDiagnosticsText, problemLine } from "./diagnosticsText";
import { errorMessage } from "../../base/errors";

const MAX_ITEMS = 200;

const pathArg = z.string().min(1).max(4_096).describe("File path, relative to the workspace folder or absolute inside it");
const posArgs = {
  path: pathArg,
  line: z.number().int().min(1).max(10_000_000).describe("1-based line"),
  character: z.number().int().min(1).max(100_000).describe("1-based column"),
};

function text(t: string): CallToolResult {
  return { content: [{ type: "text", text: t }] };
}
function refused(t: string): CallToolResult {
  return { content: [{ type: "text", text: t }], isError: true };
}

const fmtPos = (p: Position): string => `${p.line}:${p.character}`;
const omittedNote = (n: number): string => (n > 0 ? `\n(${n} result(s) outside this workspace folder left out)` : "");
const ro = { readOnlyHint: true, openWorldHint: false } as const;

/** What every tool of the server shares: the folder's confinement, checked on the way in and out. */
interface IntelScope {
  readonly folder: PathConfinement;
  readonly intel: LanguageIntelligence;
  /** A confined path as the answer shows it: relative to the folder. */
  show(p: string): Promise<string>;
  /** Only results inside the folder; how many were left out is said, never what they were. */
  inside<T extends { path: string }>(items: readonly T[]): Promise<{ kept: T[]; omitted: number }>;
  /** Runs `run` on the confined path, or refuses; an editor failure is an error answer. */
  withPath(input: string, run: (real: string) => Promise<CallToolResult>): Promise<CallToolResult>;
  /** Locations as `path:line:col-line:col` lines. */
  locations(locs: Location[], what: string): Promise<CallToolResult>;
}

function intelScope(folder: PathConfinement, intel: LanguageIntelligence): IntelScope {
  let rootCache: string | undefined;
  const root = async () => (rootCache ??= await folder.realRoot());
  const show = async (p: string) => relative(await root(), p) || ".";

  async function inside<T extends { path: string }>(items: readonly T[]): Promise<{ kept: T[]; omitted: number }> {
    const kept: T[] = [];
    for (const it of items) {
      const c = await folder.confine(it.path);
      if (c.ok) kept.push({ ...it, path: c.path });
    }
    return { kept: kept.slice(0, MAX_ITEMS), omitted: items.length - kept.length };
  }

  async function withPath(input: string, run: (real: string) => Promise<CallToolResult>): Promise<CallToolResult> {
    const c = await folder.confine(input);
    if (!c.ok) return refused(`Refused: ${c.reason}. This server only answers about files inside the workspace folder.`);
    try {
      return await run(c.path);
    } catch (err) {
      return refused(`The editor could not answer: ${errorMessage(err)}`);
    }
  }

  const locations = async (locs: Location[], what: string): Promise<CallToolResult> => {
    const { kept, omitted } = await inside(locs);
    if (kept.length === 0) return text(`No ${what} found in this folder.${omittedNote(omitted)}`);
    const lines = await Promise.all(kept.map(async (l) => `${await show(l.path)}:${fmtPos(l.range.start)}-${fmtPos(l.range.end)}`));
    return text(lines.join("\n") + omittedNote(omitted));
  };
  return { folder, intel, show, inside, withPath, locations };
}

export function buildIntelServer(folder: PathConfinement, intel: LanguageIntelligence): McpServer {
  const server = new McpServer({ name: "manifold", version: "0.1.0" }, { capabilities: { tools: {} } });
  const scope = intelScope(folder, intel);
  registerDiagnostics(server, scope);
  registerNavigation(server, scope);
  registerSymbols(server, scope);
  registerEditorState(server, scope);
  return server;
}

/** `diagnostics`: the editor's problems for a file or the whole folder. */
function registerDiagnostics(server: McpServer, { intel, show, inside, withPath }: IntelScope): void {
  server.registerTool(
    "diagnostics",
    {
      description: `Problems (errors, warnings) the editor's language servers report for a file, or for the whole workspace folder when no path is given. Use after editing files to see what the edits broke. Waits up to ${DIAGNOSTICS_BOUNDS.firstMs / 1000} s for a file's report; a file with no report by then is said to be unknown, not clean.`,
      inputSchema: { path: pathArg.optional() },
      annotations: ro,
    },
    async ({ path }) => {
      const lines = async (ds: readonly DiagnosticInfo[]) => Promise.all(ds.map(async (d) => problemLine(await show(d.path), d)));
      if (path === undefined) {
        const got = await intel.folderDiagnostics();
        const { kept } = await inside(got.problems);
        const unknown = await inside(got.unknown);
        const files = await Promise.all(unknown.kept.map(async (u) => ({ file: await show(u.path), languageId: u.languageId })));
        return text(folderDiagnosticsText({ problems: await lines(kept), unknown: files, waitedMs: got.waitedMs }));
      }
      return withPath(path, async (real) => {
        const got = await intel.fileDiagnostics(real);
        const { kept } = await inside(got.problems);
        const view = { file: await show(real), languageId: got.languageId, outcome: got.outcome, waitedMs: got.waitedMs };
        return text(fileDiagnosticsText({ ...view, problems: await lines(kept) }));
      });
    },
  );
}

/** `definition`, `references`, `hover`: what the editor knows of the symbol at a position. */
function registerNavigation(server: McpServer, { intel, withPath, locations }: IntelScope): void {
  server.registerTool(
    "definition",
    { description: "Where the symbol at a position is defined.", inputSchema: posArgs, annotations: ro },
    ({ path, line, character }) =>
      withPath(path, async (real) => locations(await intel.definitions(real, { line, character }), "definition")),
  );
  server.registerTool(
    "references",
    { description: "Every reference to the symbol at a position.", inputSchema: posArgs, annotations: ro },
    ({ path, line, character }) =>
      withPath(path, async (real) => locations(await intel.references(real, { line, character }), "reference")),
  );
  server.registerTool(
    "hover",
    {
      description: "Type and documentation of the symbol at a position (what the editor shows on hover).",
      inputSchema: posArgs,
      annotations: ro,
    },
    ({ path, line, character }) =>
      withPath(path, async (real) => {
        const parts = await intel.hover(real, { line, character });
        return text(parts.length ? parts.join("\n\n") : "Nothing to show at this position.");
      }),
  );
}

/** `document_symbols`, `workspace_symbols`: declared symbols of a file, or matching a query in the folder. */
function registerSymbols(server: McpServer, { intel, show, inside, withPath }: IntelScope): void {
  server.registerTool(
    "document_symbols",
    { description: "The symbols (classes, functions, variables…) declared in a file.", inputSchema: { path: pathArg }, annotations: ro },
    ({ path }) =>
      withPath(path, async (real) => {
        const syms = (await intel.documentSymbols(real)).slice(0, MAX_ITEMS);
        if (syms.length === 0) return text("No symbols found.");
        return text(syms.map((s) => `${s.kind} ${s.container ? `${s.container}.` : ""}${s.name} ${fmtPos(s.range.start)}`).join("\n"));
      }),
  );
  server.registerTool(
    "workspace_symbols",
    { description: "Symbols matching a query across this workspace folder.", inputSchema: { query: z.string().max(500) }, annotations: ro },
    async ({ query }) => {
      // Other folders' matches are left out without a count: even that would describe them.
      const { kept } = await inside(await intel.workspaceSymbols(query));
      if (kept.length === 0) return text("No symbols match in this folder.");
      const lines = await Promise.all(kept.map(async (s) => `${s.kind} ${s.name} ${await show(s.path)}:${fmtPos(s.range.start)}`));
      return text(lines.join("\n"));
    },
  );
}

/** `open_editors`, `selection`: what the user has open and selected, in this folder only. */
function registerEditorState(server: McpServer, { folder, intel, show, inside }: IntelScope): void {
  server.registerTool(
    "open_editors",
    { description: "Files open in the editor (in this folder), and which is active.", inputSchema: {}, annotations: ro },
    async () => {
      const { kept } = await inside(await intel.openEditors());
      if (kept.length === 0) return text("No file of this folder is open.");
      const lines = await Promise.all(
        kept.map(async (e) => `${await show(e.path)} (${e.languageId}${e.active ? ", active" : ""}${e.dirty ? ", unsaved changes" : ""})`),
      );
      return text(lines.join("\n"));
    },
  );
  server.registerTool(
    "selection",
    { description: "The current selection in the active editor, if it is a file of this folder.", inputSchema: {}, annotations: ro },
    async () => {
      const sel = await intel.selection();
      const c = sel ? await folder.confine(sel.path) : undefined;
      if (!sel || !c?.ok) return text("No selection in a file of this folder.");
      return text(`${await show(c.path)}:${fmtPos(sel.range.start)}-${fmtPos(sel.range.end)}\n${sel.text}`);
    },
  );
}
