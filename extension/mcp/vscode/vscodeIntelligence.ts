// The VS Code adapter of `LanguageIntelligence`: the editor's language features through the
// built-in `vscode.execute*Provider` commands, diagnostics, open editors and the selection. Thin: the
// checks live in intelTools.ts. Positions are converted between 1-based (tools) and 0-based (VS Code).
import * as vscode from "vscode";
import type { DiagnosticInfo, LanguageIntelligence, Location, Position, SymbolInfo } from "../intelligence";

/**
 * How long a file just opened for analysis may take to get its problems: a language server that starts
 * cold (the first TypeScript file of a window) needs seconds on a loaded machine.
 */
const FIRST_DIAGNOSTICS_MS = 15_000;
/**
 * After an update that lists no problem, how long at least to wait for another: servers report in
 * passes (TypeScript sends syntax problems, then semantic ones), so a first empty update is not the
 * answer. A server that was slow to send its first pass (a loaded machine) gets as long again for the
 * next one: a fixed window answered "no problems" under load while the semantic pass was on its way.
 */
const SETTLE_MS = 2_500;

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

/** Resolves at `uri`'s first problems, once updates listing none have settled, or at the bound. */
function reportedOn(uri: vscode.Uri): Promise<void> {
  const is = sameUri(uri);
  return new Promise<void>((resolve) => {
    const started = Date.now();
    const bound = setTimeout(done, FIRST_DIAGNOSTICS_MS);
    let settle: NodeJS.Timeout | undefined;
    const sub = vscode.languages.onDidChangeDiagnostics((e) => {
      if (!e.uris.some(is)) return;
      if (vscode.languages.getDiagnostics(uri).length > 0) return done();
      clearTimeout(settle);
      settle = setTimeout(done, Math.max(SETTLE_MS, Date.now() - started));
    });
    function done(): void {
      clearTimeout(bound);
      clearTimeout(settle);
      sub.dispose();
      resolve();
    }
  });
}

/**
 * Gets a file analysed and waits for its first problems. Language servers check only files the user
 * sees: TypeScript validates a file only while it is in a tab (unless its experimental project-wide
 * diagnostics are on), so a document opened without a tab is never checked. A file in no tab is opened
 * in a background tab (no focus, the active editor stays in front) and that tab is closed afterwards.
 */
async function analysed(uri: vscode.Uri): Promise<void> {
  const shown = tabsOf(uri).length > 0;
  // A shown file is kept current by its server; one in no tab may hold problems from before an edit.
  if (shown && vscode.languages.getDiagnostics(uri).length > 0) return;
  const reported = reportedOn(uri);
  await vscode.workspace.openTextDocument(uri); // throws for what is not text, before any tab opens
  if (shown) return reported;
  // `background` (the editor's "inactive") is honoured by `vscode.open`, not by showTextDocument.
  await vscode.commands.executeCommand("vscode.open", uri, { preview: false, preserveFocus: true, background: true });
  try {
    await reported;
  } finally {
    // Ours to close only while nobody changed it; a closed tab keeps its problems in the Problems view.
    const ours = tabsOf(uri).filter((t) => t.input instanceof vscode.TabInputText && !t.isDirty);
    if (ours.length > 0) await vscode.window.tabGroups.close(ours, true);
  }
}

export const vscodeIntelligence: LanguageIntelligence = {
  async diagnostics(path) {
    if (path === undefined)
      return vscode.languages.getDiagnostics().flatMap(([uri, list]) => (uri.scheme === "file" ? list.map((d) => diag(uri, d)) : []));
    const uri = vscode.Uri.file(path);
    await analysed(uri);
    return vscode.languages.getDiagnostics(uri).map((d) => diag(uri, d));
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
