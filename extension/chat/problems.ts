// The folder's problems as one text block (the `@` mention "Problems"): errors first, then
// by file and line, bounded in count and size so a noisy workspace cannot flood the prompt.
import * as path from "node:path";

export type ProblemSeverity = "error" | "warning" | "info" | "hint";

export interface Problem {
  /** Absolute path of the file (already confined to the session's folder). */
  path: string;
  /** 1-based. */
  line: number;
  column: number;
  severity: ProblemSeverity;
  message: string;
  source?: string;
  code?: string;
}

const RANK: Record<ProblemSeverity, number> = { error: 0, warning: 1, info: 2, hint: 3 };

export interface ProblemsText {
  text: string;
  /** How many problems there are in all (the text may list fewer). */
  count: number;
}

export function problemsText(folder: string, problems: readonly Problem[], limits = { maxItems: 200, maxChars: 32_000 }): ProblemsText {
  const sorted = [...problems].sort(
    (a, b) => RANK[a.severity] - RANK[b.severity] || a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column,
  );
  const counts = (["error", "warning", "info", "hint"] as const)
    .map((sev) => [sev, problems.filter((p) => p.severity === sev).length] as const)
    .filter(([, n]) => n > 0)
    .map(([sev, n]) => `${n} ${sev}${n === 1 ? "" : sev === "info" ? "" : "s"}`);
  const head = `Problems in ${path.basename(folder)} (${problems.length === 0 ? "none" : counts.join(", ")}):`;
  const lines: string[] = [head];
  let size = head.length;
  let shown = 0;
  for (const p of sorted) {
    const rel = path.relative(folder, p.path) || path.basename(p.path);
    const tag = p.source ? ` [${p.source}${p.code ? ` ${p.code}` : ""}]` : "";
    // One problem, one line: a multi-line message is joined.
    const line = `${rel}:${p.line}:${p.column}: ${p.severity}: ${p.message.replace(/\s*\n\s*/g, " ")}${tag}`;
    if (shown >= limits.maxItems || size + line.length + 1 > limits.maxChars) break;
    lines.push(line);
    size += line.length + 1;
    shown++;
  }
  if (shown < sorted.length) lines.push(`[… ${sorted.length - shown} more not listed]`);
  return { text: lines.join("\n"), count: problems.length };
}
