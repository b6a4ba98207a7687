// The VS Code adapter of `LanguageIntelligence`: the editor's language features through the
// built-in `vscode.execute*Provider` commands, diagnostics, open editors and the selection. Thin: the
// checks live in intelTools.ts. Positions are converted between 1-based (tools) and 0-based (VS Code).
import * as vscode from "vscode";
import { languageService } from "../diagnosticsText";
import { DIAGNOSTICS_BOUNDS, realClock, ReportLog, waitForReport, type ReportOutcome, type ReportSource } from "../diagnosticsWait";
import type {
  DiagnosticInfo,
  FileDiagnostics,
  FolderDiagnostics,
  LanguageIntelligence,
  Location,
  Position,
  SymbolInfo,
} from "../intelligence";

const toPos = (p: vscode.Position): Position => ({ line: p.line + 1, character: p.character + 1 });
const toRange = (r: vscode.Range) => ({ start: toPos(r.start), end: toPos(r.end) });
const fromPos = (p: Position) => new vscode.Position(p.line - 1, p.character - 1);
const SEVERITY: Record<vscode.DiagnosticSeverity, DiagnosticInfo["severity"]> = { 0: "error", 1: "warning", 2: "info", 3: "hint" };

function diag(uri: vscode.Uri, d: vscode.Diagnostic): DiagnosticInfo {
  const code = typeof d.code === "object" ? d.code.value : d.code;
  return {
    path: uri.fsPath,
    severity: SEVERITY[d.severity],
    message: d.message,
    ...(d.source ? { source: d.source } : {}),
    ...(code !== undefined ? { code: String(code) } : {}),
    range: toRange(d.range),
  };
}

function location(l: vscode.Location | vscode.LocationLink): Location {
  return "targetUri" in l
    ? { path: l.targetUri.fsPath, range: toRange(l.targetSelectionRange ?? l.targetRange) }
    : { path: l.uri.fsPath, range: toRange(l.range) };
}

const sameUri = (a: vscode.Uri) => (b: vscode.Uri) => a.toString() === b.toString();

/** The text tabs showing `uri` (a diff tab counts: TypeScript checks both of its sides). */
function tabsOf(uri: vscode.Uri): vscode.Tab[] {
  const is = sameUri(uri);
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) =>
      t.input instanceof vscode.TabInputText
        ? is(t.input.uri)
        : t.input instanceof vscode.TabInputTextDiff && (is(t.input.modified) || is(t.input.original)),
    );
}

const key = (uri: vscode.Uri): string => uri.toString();

/** The editor's diagnostics as reports: `onDidChangeDiagnostics` fires when a file's are set, also to none. */
const editorReports: ReportSource = {
  onReport: (listener) => vscode.languages.onDidChangeDiagnostics((e) => listener(e.uris.map(key))),
  problemCount: (k) => vscode.languages.getDiagnostics(vscode.Uri.parse(k)).length,
};

let reportLog: ReportLog | undefined;

/** Follows, from now on, which open files have a report on its way (McpHost starts it with the window). */
export function followReports(): vscode.Disposable {
  if (reportLog) return new vscode.Disposable(() => undefined);
  const log = (reportLog = new ReportLog(editorReports));
  const subs = [
    vscode.workspace.onDidOpenTextDocument((d) => log.changed(key(d.uri))),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.contentChanges.length > 0) log.changed(key(e.document.uri));
    }),
    vscode.workspace.onDidCloseTextDocument((d) => log.closed(key(d.uri))),
  ];
  return new vscode.Disposable(() => {
    for (const sub of subs) sub.dispose();
    log.dispose();
    if (reportLog === log) reportLog = undefined;
  });
}

const openDocument = (uri: vscode.Uri): vscode.TextDocument | undefined =>
  vscode.workspace.textDocuments.find((d) => key(d.uri) === key(uri));

/**
 * Whether a shown file's problems are its server's answer for its current text: reported since its last
 * change, and (saved) its text is what is on disk, so no reload from a write is still on its way.
 */
async function reportIsCurrent(uri: vscode.Uri): Promise<boolean> {
  const doc = openDocument(uri);
  if (!doc || reportLog?.pending(key(uri))) return false;
  if (!reportLog?.everReported(key(uri)) && vscode.languages.getDiagnostics(uri).length === 0) return false;
  if (doc.isDirty) return true;
  const disk = await vscode.workspace.fs.readFile(uri).then(
    (b) => Buffer.from(b).toString("utf8"),
    () => undefined,
  );
  return disk !== undefined && disk.replace(/^\uFEFF/, "") === doc.getText();
}

/**
 * Gets a file analysed and waits for its server's report (diagnosticsWait.ts: `none` when none came in
 * the bound). Language servers check only files the user sees: TypeScript validates a file only while
 * it is in a tab (unless its experimental project-wide diagnostics are on), so a document opened
 * without a tab is never checked. A file in no tab is opened in a background tab (no focus, the active
 * editor stays in front) and that tab is closed afterwards.
 */
async function analysed(uri: vscode.Uri): Promise<{ outcome: ReportOutcome; languageId: string }> {
  const shown = tabsOf(uri).length > 0;
  if (shown && (await reportIsCurrent(uri))) {
    // Reported for this text; a report listing none may still be followed by another pass.
    const quiet = reportLog?.quietLeft(key(uri), DIAGNOSTICS_BOUNDS) ?? 0;
    if (quiet > 0 && vscode.languages.getDiagnostics(uri).length === 0)
      await waitForReport(key(uri), editorReports, realClock, { ...DIAGNOSTICS_BOUNDS, firstMs: quiet });
    return { outcome: "settled", languageId: openDocument(uri)?.languageId ?? "unknown" };
  }
  const reported = waitForReport(key(uri), editorReports, realClock, DIAGNOSTICS_BOUNDS);
  const doc = await vscode.workspace.openTextDocument(uri); // throws for what is not text, before any tab opens
  if (shown) return { outcome: await reported, languageId: doc.languageId };
  // `background` (the editor's "inactive") is honoured by `vscode.open`, not by showTextDocument.
  await vscode.commands.executeCommand("vscode.open", uri, { preview: false, preserveFocus: true, background: true });
  try {
    return { outcome: await reported, languageId: doc.languageId };
  } finally {
    // Ours to close only while nobody changed it; a closed tab keeps its problems in the Problems view.
    const ours = tabsOf(uri).filter((t) => t.input instanceof vscode.TabInputText && !t.isDirty);
    if (ours.length > 0) await vscode.window.tabGroups.close(ours, true);
  }
}

/** Problems of every file the editor knows of, and the shown files whose report is still on its way. */
async function folderDiagnostics(): Promise<FolderDiagnostics> {
  const due = vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .flatMap((t) => (t.input instanceof vscode.TabInputText && t.input.uri.scheme === "file" ? [t.input.uri] : []))
    .filter((uri, i, all) => all.findIndex((u) => key(u) === key(uri)) === i && reportLog?.pending(key(uri)));
  // Only files whose server is known to report (it did before, or the language has a well-known one).
  const waited = due.flatMap((uri) => {
    const languageId = openDocument(uri)?.languageId ?? "unknown";
    if (!reportLog?.everReported(key(uri)) && languageService(languageId) === undefined) return [];
    return [{ uri, languageId, outcome: waitForReport(key(uri), editorReports, realClock, DIAGNOSTICS_BOUNDS) }];
  });
  const unknown: FolderDiagnostics["unknown"] = [];
  for (const w of waited) if ((await w.outcome) === "none") unknown.push({ path: w.uri.fsPath, languageId: w.languageId });
  const problems = vscode.languages.getDiagnostics().flatMap(([uri, list]) => (uri.scheme === "file" ? list.map((d) => diag(uri, d)) : []));
  return { problems, unknown, waitedMs: DIAGNOSTICS_BOUNDS.firstMs };
}

async function fileDiagnostics(path: string): Promise<FileDiagnostics> {
  const uri = vscode.Uri.file(path);
  const { outcome, languageId } = await analysed(uri);
  const problems = vscode.languages.getDiagnostics(uri).map((d) => diag(uri, d));
  return { path, languageId, outcome: outcome === "none" ? "none" : "settled", waitedMs: DIAGNOSTICS_BOUNDS.firstMs, problems };
}

/** The adapter; `diagnostics(path)` (problems only) is what the VS Code tier's suite asks. */
export const vscodeIntelligence: LanguageIntelligence & { diagnostics(path: string): Promise<DiagnosticInfo[]> } = {
  fileDiagnostics,
  folderDiagnostics,
  async diagnostics(path) {
    return (await fileDiagnostics(path)).problems;
  },
  async definitions(path, at) {
    const r = await vscode.commands.executeCommand<Array<vscode.Location | vscode.LocationLink> | undefined>(
      "vscode.executeDefinitionProvider",
      vscode.Uri.file(path),
      fromPos(at),
    );
    return (r ?? []).map(location);
  },
  async references(path, at) {
    const r = await vscode.commands.executeCommand<vscode.Location[] | undefined>(
      "vscode.executeReferenceProvider",
      vscode.Uri.file(path),
      fromPos(at),
    );
    return (r ?? []).map(location);
  },
  async hover(path, at) {
    const r = await vscode.commands.executeCommand<vscode.Hover[] | undefined>(
      "vscode.executeHoverProvider",
      vscode.Uri.file(path),
      fromPos(at),
    );
    return (r ?? []).flatMap((h) => h.contents.map((c) => (typeof c === "string" ? c : "value" in c ? c.value : "")).filter(Boolean));
  },
  async documentSymbols(path) {
    const r = await vscode.commands.executeCommand<Array<vscode.DocumentSymbol | vscode.SymbolInformation> | undefined>(
      "vscode.executeDocumentSymbolProvider",
      vscode.Uri.file(path),
    );
    const out: SymbolInfo[] = [];
    const walk = (s: vscode.DocumentSymbol | vscode.SymbolInformation, container?: string): void => {
      if ("location" in s) {
        out.push({
          name: s.name,
          kind: vscode.SymbolKind[s.kind],
          path,
          range: toRange(s.location.range),
          ...(s.containerName ? { container: s.containerName } : {}),
        });
        return;
      }
      out.push({
        name: s.name,
        kind: vscode.SymbolKind[s.kind],
        path,
        range: toRange(s.selectionRange),
        ...(container ? { container } : {}),
      });
      for (const c of s.children) walk(c, container ? `${container}.${s.name}` : s.name);
    };
    for (const s of r ?? []) walk(s);
    return out;
  },
  async workspaceSymbols(query) {
    const r = await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>("vscode.executeWorkspaceSymbolProvider", query);
    return (r ?? []).map((s) => ({
      name: s.name,
      kind: vscode.SymbolKind[s.kind],
      path: s.location.uri.fsPath,
      range: toRange(s.location.range),
      ...(s.containerName ? { container: s.containerName } : {}),
    }));
  },
  openEditors() {
    const active = vscode.window.activeTextEditor?.document.uri.toString();
    const docs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .flatMap((t) => (t.input instanceof vscode.TabInputText && t.input.uri.scheme === "file" ? [t.input.uri] : []));
    const seen = new Set<string>();
    return Promise.resolve(
      docs.flatMap((uri) => {
        if (seen.has(uri.toString())) return [];
        seen.add(uri.toString());
        const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
        return [
          { path: uri.fsPath, active: uri.toString() === active, dirty: doc?.isDirty ?? false, languageId: doc?.languageId ?? "unknown" },
        ];
      }),
    );
  },
  selection() {
    const e = vscode.window.activeTextEditor;
    if (!e || e.document.uri.scheme !== "file") return Promise.resolve(undefined);
    return Promise.resolve({
      path: e.document.uri.fsPath,
      range: toRange(e.selection),
      text: e.document.getText(e.selection).slice(0, 20_000),
    });
  },
};
