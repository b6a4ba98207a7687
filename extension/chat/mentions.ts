// `@` mentions beyond files: a workspace symbol, the folder's problems, a terminal's recent
// output. What each carries once resolved, its chip label, its ACP blocks, and the confinement every
// source passes before it becomes an attachment: only what lies inside the session's folder (through
// the session's `confinement`, extension/client/folderConfinement.ts) is ever attached (I-94).
import { pathToFileURL } from "node:url";
import * as path from "node:path";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { ConfineResult } from "../client/folderConfinement";
import { formatTerminalRuns, type TerminalRun } from "../common/terminalLog";
import { problemsText, type Problem } from "./problems";
import { ignoreError } from "../../base/errors";

export type MentionAttachment =
  | { kind: "symbol"; path: string; name: string; symbolKind: string; startLine: number; endLine: number; text?: string }
  | { kind: "problems"; folder: string; count: number; text: string }
  | { kind: "terminal"; name: string; text: string };

/** The session folder's confinement (`FolderSession.confinement.confine`). */
export type Confine = (input: string) => Promise<ConfineResult>;

/** A refusal says why, for the user (a notice); nothing is attached. */
export type Mention<T> = { ok: true; attachment: T } | { ok: false; reason: string };

/** How much of a symbol's text is embedded (its declaration, usually a few lines). */
export const SYMBOL_LIMITS = { maxLines: 400, maxChars: 40_000 };

export function mentionLabel(a: MentionAttachment): string {
  switch (a.kind) {
    case "symbol":
      return `${a.name} (${path.basename(a.path)}:${a.startLine})`;
    case "problems":
      return `Problems (${a.count})`;
    case "terminal":
      return `Terminal: ${a.name}`;
  }
}

/**
 * A symbol is its file's line range, embedded when the agent takes embedded context (and the text was
 * read), else a link to the file that names the symbol and lines. Problems and terminal output are
 * text that lives in no file: embedded resources, or quoted into the message for an agent without
 * embedded context.
 */
export function mentionBlocks(a: MentionAttachment, embeddedContext: boolean): { blocks: ContentBlock[]; quote?: string } {
  switch (a.kind) {
    case "symbol": {
      const uri = pathToFileURL(a.path).href;
      const lines = `lines ${a.startLine}-${a.endLine}`;
      if (embeddedContext && a.text !== undefined)
        return {
          blocks: [{ type: "resource", resource: { uri: `${uri}#L${a.startLine}-L${a.endLine}`, mimeType: "text/plain", text: a.text } }],
        };
      return { blocks: [{ type: "resource_link", uri, name: path.basename(a.path), description: `${a.symbolKind} ${a.name}, ${lines}` }] };
    }
    case "problems":
    case "terminal": {
      const uri =
        a.kind === "problems"
          ? `manifold://problems/${encodeURIComponent(path.basename(a.folder))}`
          : `manifold://terminal/${encodeURIComponent(a.name)}`;
      if (embeddedContext) return { blocks: [{ type: "resource", resource: { uri, mimeType: "text/plain", text: a.text } }] };
      return { blocks: [], quote: `\n\n${a.text}` };
    }
  }
}

/** Keeps the first `maxLines` lines and `maxChars` characters, marking the cut. */
export function boundText(text: string, limits = SYMBOL_LIMITS): string {
  const lines = text.split("\n");
  let out = lines.slice(0, limits.maxLines).join("\n");
  if (out.length > limits.maxChars) out = out.slice(0, limits.maxChars);
  return out.length < text.length ? `${out}\n[… cut]` : out;
}

/** A workspace symbol, only when its file is inside the folder; `read` gets the text of its real path. */
export async function confinedSymbol(
  confine: Confine,
  sym: { name: string; symbolKind: string; path: string; startLine: number; endLine: number },
  read: (realPath: string) => Promise<string | undefined>,
): Promise<Mention<MentionAttachment & { kind: "symbol" }>> {
  const r = await confine(sym.path);
  if (!r.ok) return { ok: false, reason: `the symbol ${sym.name} is not in this folder: ${r.reason}` };
  const text = await read(r.path).catch(ignoreError("unreadable now: attached by its path, without its text"));
  return {
    ok: true,
    attachment: { kind: "symbol", ...sym, path: r.path, ...(text !== undefined ? { text: boundText(text) } : {}) },
  };
}

/** The folder's problems: diagnostics of files outside the folder are left out (and not counted). */
export async function confinedProblems(
  confine: Confine,
  folder: string,
  problems: readonly Problem[],
): Promise<MentionAttachment & { kind: "problems" }> {
  const inside: Problem[] = [];
  const verdicts = new Map<string, ConfineResult>();
  for (const p of problems) {
    let v = verdicts.get(p.path);
    if (!v) verdicts.set(p.path, (v = await confine(p.path)));
    if (v.ok) inside.push({ ...p, path: v.path });
  }
  const root = await confine(folder);
  const { text, count } = problemsText(root.ok ? root.path : folder, inside);
  return { kind: "problems", folder, count, text };
}

/**
 * A terminal's runs whose cwd is inside the folder: a run that happened elsewhere (a `cd` out of the
 * folder, another project) or whose cwd is unknown is left out, as a file outside would be.
 */
export async function confinedTerminal(
  confine: Confine,
  name: string,
  runs: readonly TerminalRun[],
): Promise<Mention<MentionAttachment & { kind: "terminal" }>> {
  const inside: TerminalRun[] = [];
  for (const r of runs) if (r.cwd !== undefined && (await confine(r.cwd)).ok) inside.push(r);
  if (inside.length === 0)
    return {
      ok: false,
      reason:
        runs.length === 0
          ? `no output captured from terminal "${name}" (shell integration reports commands run after it starts)`
          : `terminal "${name}" ran nothing in this folder`,
    };
  return { ok: true, attachment: { kind: "terminal", name, text: formatTerminalRuns(name, inside) } };
}

/** A file, only inside the folder; `read` gets its text (undefined: binary or unreadable, sent as a link). */
export async function confinedFile(
  confine: Confine,
  file: string,
  read: (realPath: string) => Promise<string | undefined>,
): Promise<Mention<{ kind: "file"; path: string; text?: string }>> {
  const r = await confine(file);
  if (!r.ok) return { ok: false, reason: `not attaching ${file}: ${r.reason}` };
  const text = await read(r.path).catch(ignoreError("unreadable now: attached by its path, without its text"));
  return { ok: true, attachment: { kind: "file", path: r.path, ...(text !== undefined ? { text } : {}) } };
}

/** The editor selection, only when its file is inside the folder. */
export async function confinedSelection(
  confine: Confine,
  sel: { path: string; startLine: number; endLine: number; text: string },
): Promise<Mention<{ kind: "selection"; path: string; startLine: number; endLine: number; text: string }>> {
  const r = await confine(sel.path);
  if (!r.ok) return { ok: false, reason: `the selection is not in this folder: ${r.reason}` };
  return { ok: true, attachment: { kind: "selection", ...sel, path: r.path } };
}
