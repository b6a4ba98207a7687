// Plain-text tables for the console and Markdown tables for bench/README.md.

export type Cell = string | number | null | undefined;

export interface Table {
  title: string;
  headers: string[];
  rows: Cell[][];
  notes?: string[];
}

export function fmt(v: Cell, digits = 2): string {
  if (v === null || v === undefined) return "—";
  if (typeof v === "string") return v;
  if (!Number.isFinite(v)) return "—";
  if (Number.isInteger(v)) return v.toLocaleString("en-US");
  const abs = Math.abs(v);
  const d = abs >= 1000 ? 0 : abs >= 100 ? 1 : digits;
  return v.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d });
}

function cells(t: Table): string[][] {
  return t.rows.map((r) => t.headers.map((_, i) => fmt(r[i])));
}

export function renderText(t: Table): string {
  const body = cells(t);
  const widths = t.headers.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]): string => r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  ");
  const out = [`\n== ${t.title}`, line(t.headers), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)];
  for (const n of t.notes ?? []) out.push(`  note: ${n}`);
  return out.join("\n");
}

export function renderMarkdown(t: Table): string {
  const body = cells(t);
  const out = [
    `### ${t.title}`,
    "",
    `| ${t.headers.join(" | ")} |`,
    `|${t.headers.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`,
    ...body.map((r) => `| ${r.join(" | ")} |`),
  ];
  if (t.notes?.length) out.push("", ...t.notes.map((n) => `- ${n}`));
  return out.join("\n");
}
