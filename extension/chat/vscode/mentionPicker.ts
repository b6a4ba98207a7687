// The `@` mention picker of a chat panel: one quick pick whose first items are the
// context a coding question usually needs — the editor selection, the folder's problems, the active
// terminal's recent output, a workspace symbol (a second, live-searched pick) — then the folder's
// files, as Copilot's "Add Context…" and Zed's `@` menu list them. Each source is confined to the
// session's folder (extension/chat/mentions.ts) before it becomes an attachment; a source with
// nothing to give says why in its description, and picking it tells the user.
import * as path from "node:path";
import * as vscode from "vscode";
import type { ResolvedAttachment } from "../promptBuilder";
import {
  confinedFile,
  confinedProblems,
  confinedSelection,
  confinedSymbol,
  confinedTerminal,
  type Confine,
  type Mention,
} from "../mentions";
import type { Problem, ProblemSeverity } from "../problems";
import type { TerminalOutputs } from "./terminalOutputs";

export interface MentionContext {
  folder: string;
  folderName: string;
  confine: Confine;
  terminals: TerminalOutputs;
}

type Resolve = () => Promise<Mention<ResolvedAttachment> | undefined>;
interface Item extends vscode.QuickPickItem {
  resolve?: Resolve;
}

const MAX_FILES = 5000;
const MAX_SYMBOLS = 200;

/** Shows the picker; the attachment picked (undefined: dismissed), or why it cannot be attached. */
export async function pickMention(ctx: MentionContext): Promise<Mention<ResolvedAttachment> | undefined> {
  const qp = vscode.window.createQuickPick<Item>();
  qp.placeholder = `Add context from ${ctx.folderName}: selection, problems, terminal output, a symbol or a file`;
  qp.matchOnDescription = true;
  qp.busy = true;
  const context = await contextItems(ctx);
  qp.items = context;
  qp.show();
  // Files arrive after the context items: a large folder does not delay the first ones.
  void fileItems(ctx).then((files) => {
    qp.items = [...context, { label: "Files", kind: vscode.QuickPickItemKind.Separator }, ...files];
    qp.busy = false;
  });
  const picked = await accepted(qp);
  return picked?.resolve ? picked.resolve() : undefined;
}

/** The editor selection (the "attach the selection" button and the picker's first item). */
export async function selectionMention(ctx: MentionContext): Promise<Mention<ResolvedAttachment>> {
  const editor =
    vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme === "file" && !e.selection.isEmpty) ??
    vscode.window.activeTextEditor;
  if (!editor || editor.selection.isEmpty || editor.document.uri.scheme !== "file")
    return { ok: false, reason: `select some text in an editor of ${ctx.folderName} first` };
  const sel = editor.selection;
  return confinedSelection(ctx.confine, {
    path: editor.document.uri.fsPath,
    startLine: sel.start.line + 1,
    endLine: sel.end.line + 1,
    text: editor.document.getText(sel),
  });
}

/** The first items: what each would attach right now, or why nothing. */
async function contextItems(ctx: MentionContext): Promise<Item[]> {
  const selection = await selectionMention(ctx);
  const problems = await problemsMention(ctx);
  const terminal = await terminalMention(ctx);
  const describe = (m: Mention<ResolvedAttachment>, ok: (a: ResolvedAttachment) => string) => (m.ok ? ok(m.attachment) : m.reason);
  return [
    { label: "Context", kind: vscode.QuickPickItemKind.Separator },
    {
      label: "$(selection) Selection",
      description: describe(selection, (a) => (a.kind === "selection" ? `${path.basename(a.path)}:${a.startLine}-${a.endLine}` : "")),
      resolve: () => Promise.resolve(selection),
    },
    {
      label: "$(warning) Problems",
      description: describe(problems, (a) => (a.kind === "problems" ? `${a.count} in ${ctx.folderName}` : "")),
      resolve: () => Promise.resolve(problems),
    },
    {
      label: "$(terminal) Terminal output",
      description: describe(terminal, () => `recent commands of "${vscode.window.activeTerminal?.name ?? ""}"`),
      resolve: () => Promise.resolve(terminal),
    },
    { label: "$(symbol-method) Symbol…", description: "search the workspace's symbols", resolve: () => pickSymbol(ctx) },
  ];
}

async function fileItems(ctx: MentionContext): Promise<Item[]> {
  const files = await vscode.workspace.findFiles(
    new vscode.RelativePattern(vscode.Uri.file(ctx.folder), "**/*"),
    "**/{node_modules,.git}/**",
    MAX_FILES,
  );
  return files
    .map((uri) => ({
      label: `$(file) ${path.basename(uri.fsPath)}`,
      description: path.relative(ctx.folder, path.dirname(uri.fsPath)),
      resolve: () => confinedFile(ctx.confine, uri.fsPath, readText),
    }))
    .sort((a, b) => (a.description + a.label).localeCompare(b.description + b.label));
}

// A function, not a table built at load: the bundle loads before (and without) a real `vscode` (test/agent/extensionBundle.test.ts).
function severity(s: vscode.DiagnosticSeverity): ProblemSeverity {
  switch (s) {
    case vscode.DiagnosticSeverity.Error:
      return "error";
    case vscode.DiagnosticSeverity.Warning:
      return "warning";
    case vscode.DiagnosticSeverity.Information:
      return "info";
    default:
      return "hint";
  }
}

/** Diagnostics of files inside the folder (the Problems view's, filtered), as one text block. */
async function problemsMention(ctx: MentionContext): Promise<Mention<ResolvedAttachment>> {
  const problems: Problem[] = vscode.languages
    .getDiagnostics()
    .filter(([uri]) => uri.scheme === "file")
    .flatMap(([uri, diags]) =>
      diags.map((d) => ({
        path: uri.fsPath,
        line: d.range.start.line + 1,
        column: d.range.start.character + 1,
        severity: severity(d.severity),
        message: d.message,
        ...(d.source ? { source: d.source } : {}),
        ...(d.code !== undefined ? { code: String(typeof d.code === "object" ? d.code.value : d.code) } : {}),
      })),
    );
  const attachment = await confinedProblems(ctx.confine, ctx.folder, problems);
  return attachment.count > 0 ? { ok: true, attachment } : { ok: false, reason: `no problems in ${ctx.folderName}` };
}

/** The active terminal's recent runs whose cwd is inside the folder. */
async function terminalMention(ctx: MentionContext): Promise<Mention<ResolvedAttachment>> {
  const t = vscode.window.activeTerminal;
  if (!t) return { ok: false, reason: "no active terminal" };
  return confinedTerminal(ctx.confine, t.name, ctx.terminals.runs(t));
}

interface SymbolItem extends Item {
  symbol: vscode.SymbolInformation;
}

/** The second pick: workspace symbols for the typed query, only those inside the folder. */
async function pickSymbol(ctx: MentionContext): Promise<Mention<ResolvedAttachment> | undefined> {
  const qp = vscode.window.createQuickPick<SymbolItem>();
  qp.placeholder = `Search symbols in ${ctx.folderName}`;
  qp.matchOnDescription = true;
  let latest = 0;
  const search = async (query: string) => {
    const mine = ++latest;
    qp.busy = true;
    const found =
      (await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>("vscode.executeWorkspaceSymbolProvider", query)) ?? [];
    const items: SymbolItem[] = [];
    for (const symbol of found) {
      if (items.length >= MAX_SYMBOLS) break;
      if (symbol.location.uri.scheme !== "file" || !(await ctx.confine(symbol.location.uri.fsPath)).ok) continue;
      items.push({
        label: `$(${symbolIcon(symbol.kind)}) ${symbol.name}`,
        description: `${symbol.containerName ? `${symbol.containerName} · ` : ""}${path.relative(ctx.folder, symbol.location.uri.fsPath)}:${symbol.location.range.start.line + 1}`,
        symbol,
      });
    }
    if (mine !== latest) return; // a newer query is under way
    qp.items = items;
    qp.busy = false;
  };
  qp.onDidChangeValue((q) => void search(q).catch(() => (qp.busy = false)));
  void search("").catch(() => (qp.busy = false));
  qp.show();
  const picked = await accepted(qp);
  if (!picked) return undefined;
  const { symbol } = picked;
  const range = symbol.location.range;
  return confinedSymbol(
    ctx.confine,
    {
      name: symbol.name,
      symbolKind: vscode.SymbolKind[symbol.kind].toLowerCase(),
      path: symbol.location.uri.fsPath,
      startLine: range.start.line + 1,
      endLine: range.end.line + 1,
    },
    // Whole lines: a declaration's range may start after its indentation or comment.
    async (real) =>
      (await vscode.workspace.openTextDocument(vscode.Uri.file(real))).getText(
        new vscode.Range(range.start.line, 0, range.end.line + 1, 0),
      ),
  );
}

function symbolIcon(kind: vscode.SymbolKind): string {
  // Codicons name them after the enum: EnumMember → symbol-enum-member.
  return `symbol-${vscode.SymbolKind[kind].replace(/([a-z])([A-Z])/g, "$1-$2").toLowerCase()}`;
}

/** Reads a file as text (unsaved changes included); undefined when it is binary or unreadable. */
async function readText(real: string): Promise<string | undefined> {
  try {
    return (await vscode.workspace.openTextDocument(vscode.Uri.file(real))).getText();
  } catch {
    return undefined;
  }
}

/** The item accepted, or undefined when the pick is hidden first; the pick is disposed either way. */
function accepted<T extends vscode.QuickPickItem>(qp: vscode.QuickPick<T>): Promise<T | undefined> {
  return new Promise((resolve) => {
    qp.onDidAccept(() => {
      const item = qp.selectedItems[0] ?? qp.activeItems[0];
      resolve(item);
      qp.hide();
    });
    qp.onDidHide(() => {
      resolve(undefined);
      qp.dispose();
    });
  });
}
