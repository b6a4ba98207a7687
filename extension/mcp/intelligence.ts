// What Manifold's own MCP server asks the editor: a vscode-free interface (the VS Code adapter is
// vscodeIntelligence.ts; tests use a fake). Paths are absolute real paths; positions are 1-based.

export interface Position {
  line: number;
  character: number;
}
export interface Location {
  path: string;
  range: { start: Position; end: Position };
}
export interface DiagnosticInfo {
  path: string;
  severity: "error" | "warning" | "info" | "hint";
  message: string;
  source?: string;
  code?: string;
  range: { start: Position; end: Position };
}
/**
 * One file's problems and whether its language server reported them: `settled` after a report (also one
 * listing none), `none` when no report came within `waitedMs` (the result is unknown).
 */
export interface FileDiagnostics {
  path: string;
  languageId: string;
  outcome: "settled" | "none";
  waitedMs: number;
  problems: DiagnosticInfo[];
}
/** The problems the editor knows of, and the open files whose report did not come within `waitedMs`. */
export interface FolderDiagnostics {
  problems: DiagnosticInfo[];
  unknown: { path: string; languageId: string }[];
  waitedMs: number;
}
export interface SymbolInfo {
  name: string;
  kind: string;
  path: string;
  range: { start: Position; end: Position };
  container?: string;
}
export interface EditorInfo {
  path: string;
  active: boolean;
  dirty: boolean;
  languageId: string;
}
export interface SelectionInfo {
  path: string;
  range: { start: Position; end: Position };
  text: string;
}

export interface LanguageIntelligence {
  /** Problems for one file, analysed first if the editor has not yet, and whether its server reported. */
  fileDiagnostics(path: string): Promise<FileDiagnostics>;
  /** Every known problem, and which open files' reports are still unknown. */
  folderDiagnostics(): Promise<FolderDiagnostics>;
  definitions(path: string, at: Position): Promise<Location[]>;
  references(path: string, at: Position): Promise<Location[]>;
  hover(path: string, at: Position): Promise<string[]>;
  documentSymbols(path: string): Promise<SymbolInfo[]>;
  workspaceSymbols(query: string): Promise<SymbolInfo[]>;
  openEditors(): Promise<EditorInfo[]>;
  selection(): Promise<SelectionInfo | undefined>;
}
