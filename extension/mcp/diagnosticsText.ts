// What the `diagnostics` tool tells the model, from the outcome of waiting (diagnosticsWait.ts). "No
// problems" is said only when the language server reported a file and listed none; a file with no report
// within the bound is unknown, and the answer says so and what was waited for. Paths here are as shown
// (relative to the folder); confinement is intelTools.ts's.
import type { DiagnosticInfo, Position } from "./intelligence";

/** The language features that check common language ids, by the name the model may know them by. */
const SERVICES: Readonly<Record<string, string>> = {
  typescript: "the TypeScript language service",
  typescriptreact: "the TypeScript language service",
  javascript: "the TypeScript language service",
  javascriptreact: "the TypeScript language service",
  json: "VS Code's JSON language service",
  jsonc: "VS Code's JSON language service",
  css: "VS Code's CSS language service",
  scss: "VS Code's CSS language service",
  less: "VS Code's CSS language service",
  html: "VS Code's HTML language service",
  python: "the Python extension's language server",
  rust: "rust-analyzer",
  go: "gopls",
};

const fmtPos = (p: Position): string => `${p.line}:${p.character}`;
const seconds = (ms: number): string => `${Math.round(ms / 100) / 10}`;

/** The language feature a file's diagnostics come from, as far as its language id tells. */
export function languageService(languageId: string): string | undefined {
  return Object.hasOwn(SERVICES, languageId) ? SERVICES[languageId] : undefined;
}

/** What was waited for: the language id's diagnostics, and the service that usually sends them. */
export function waitedFor(languageId: string): string {
  const service = languageService(languageId);
  return service
    ? `waited for ${languageId}'s diagnostics, e.g. ${service}`
    : `waited for ${languageId}'s diagnostics, from whichever extension checks that language, if one does`;
}

/** One problem as a line: `path:line:col severity [source code]: message`. */
export function problemLine(shown: string, d: DiagnosticInfo): string {
  const src = d.source ? ` [${d.source}${d.code ? ` ${d.code}` : ""}]` : "";
  return `${shown}:${fmtPos(d.range.start)} ${d.severity}${src}: ${d.message}`;
}

export interface FileDiagnosticsView {
  /** The file as shown to the model. */
  file: string;
  languageId: string;
  outcome: "settled" | "none";
  waitedMs: number;
  /** Its problems as lines (problemLine). */
  problems: readonly string[];
}

/** The answer for one file: its problems, "no problems" only after a report, or that it is unknown. */
export function fileDiagnosticsText(v: FileDiagnosticsView): string {
  const unknown = `No report within ${seconds(v.waitedMs)} s for ${v.file}: the result is unknown (${waitedFor(v.languageId)}); a problem may still be on its way.`;
  if (v.outcome === "none") {
    if (v.problems.length === 0) return unknown;
    // Problems the editor held from an earlier report: they may be about text since changed.
    return `${v.problems.join("\n")}\n(Those are from an earlier report. ${unknown})`;
  }
  if (v.problems.length > 0) return v.problems.join("\n");
  const by = languageService(v.languageId) ?? `the language server for ${v.languageId}`;
  return `Reported by ${by}: no problems in ${v.file}.`;
}

export interface FolderDiagnosticsView {
  /** The folder's known problems as lines (problemLine). */
  problems: readonly string[];
  /** Open files whose report did not come within the bound. */
  unknown: readonly { file: string; languageId: string }[];
  waitedMs: number;
}

/** The folder's outcome: `partial` while some open file is unknown. */
export function folderOutcome(v: FolderDiagnosticsView): "settled" | "partial" {
  return v.unknown.length > 0 ? "partial" : "settled";
}

/** The answer for the folder: known problems, and every open file whose result is unknown, by name. */
export function folderDiagnosticsText(v: FolderDiagnosticsView): string {
  if (folderOutcome(v) === "settled")
    return v.problems.length > 0
      ? v.problems.join("\n")
      : "Reported by the editor's language servers: no problems in the files of this folder they have checked (open files, and those their project-wide checks cover; other files are not counted).";
  const known = v.problems.length > 0 ? v.problems.join("\n") : "Problems reported so far: none.";
  const unknown = v.unknown.map((u) => `- ${u.file} (${waitedFor(u.languageId)})`);
  return `${known}\nNo report within ${seconds(v.waitedMs)} s for ${v.unknown.length} open file(s): their results are unknown, a problem may still be on its way:\n${unknown.join("\n")}`;
}
