// ARCHITECTURE.md is the repository's own design document. This test keeps it honest:
// - every rule number cited in the tracked sources, tests and docs (`I-<n>`, also `I-20..24` and
//   `I-57/58`; CHANGELOG.md excepted) has an entry in it: a line that starts with the number, as in
//   `- **I-29** …` or `### I-29`;
// - every repository path it names in backticks exists. A backticked span counts as a path when it
//   has no whitespace and either starts with a top-level entry of the repository (`sandbox/`,
//   `agent-server/acp/bridge.ts`, `package.json`) or ends in a source or doc extension. Build output
//   (`dist/`, `out/`), absolute paths and protocol names such as `session/update` are not checked.
// Run: node --import tsx --test test/integration/docs/architecture.test.ts
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const DOC = "ARCHITECTURE.md";
/** Top-level names that are build output or tooling state, never part of the documented tree. */
const NOT_IN_REPO = new Set([".git", "node_modules", "dist", "out", "test-results"]);
const CITING = /\.(ts|tsx|mjs|md)$/;
const FILE_LIKE = /\.(ts|tsx|mts|mjs|cjs|js|json|md|sh|css)$/;

/** Every rule number a text cites. `I-20..24` is a range, `I-57/58` a list. */
export function citedRules(text: string): Set<number> {
  const out = new Set<number>();
  for (const m of text.matchAll(/\bI-(\d+)(?:(\.\.|\/)(\d+)\b)?/g)) {
    const first = Number(m[1]);
    out.add(first);
    if (m[3] === undefined) continue;
    const last = Number(m[3]);
    if (m[2] === "/") out.add(last);
    else for (let n = first + 1; n <= last && n - first <= 200; n++) out.add(n);
  }
  return out;
}

/** Rule numbers that have an entry: a line starting (after a list marker, heading or bold) with `I-<n>`. */
export function ruleEntries(doc: string): Set<number> {
  const out = new Set<number>();
  for (const line of doc.split("\n")) {
    const m = /^\s*(?:[-*+]\s+|\d+\.\s+|#{1,6}\s+|\|\s*)?(?:\*\*|__)?`?I-(\d+)\b/.exec(line);
    if (m) out.add(Number(m[1]));
  }
  return out;
}

/** `a/{b,c}/d` → `a/b/d`, `a/c/d` (one level of braces is enough for prose). */
function expandBraces(span: string): string[] {
  const m = /\{([^{}]*)\}/.exec(span);
  if (!m) return [span];
  return m[1]!.split(",").flatMap((alt) => expandBraces(span.slice(0, m.index) + alt.trim() + span.slice(m.index + m[0].length)));
}

/** The repository paths a Markdown text names in inline code (fenced blocks are diagrams, not checked). */
export function namedPaths(doc: string, topLevel: ReadonlySet<string>): string[] {
  const prose = doc.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
  const out = new Set<string>();
  for (const m of prose.matchAll(/`([^`\n]+)`/g)) {
    const span = m[1]!.trim();
    if (span === "" || /\s/.test(span) || span.includes("://") || /^[/~$<]/.test(span)) continue;
    const first = span.replace(/^\.\//, "").split("/")[0]!;
    if (NOT_IN_REPO.has(first)) continue;
    if (!topLevel.has(first) && !(FILE_LIKE.test(span) && !first.startsWith("."))) continue;
    for (const p of expandBraces(span.replace(/^\.\//, ""))) out.add(p);
  }
  return [...out];
}

/** Whether a named path exists under `root`: a trailing `/` must be a directory, `*` matches in the last segment. */
export function pathExists(root: string, p: string): boolean {
  const full = join(root, p);
  if (p.includes("*")) {
    const dir = dirname(full);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) return false;
    const re = new RegExp(
      `^${basename(p)
        .split("*")
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
        .join("[^/]*")}$`,
    );
    return readdirSync(dir).some((name) => re.test(name));
  }
  if (!existsSync(full)) return false;
  return p.endsWith("/") ? statSync(full).isDirectory() : true;
}

/** Tracked files (`git ls-files`); without git (an unpacked archive), every file outside build output. */
function repoFiles(root: string): string[] {
  try {
    return execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })
      .split("\0")
      .filter((f) => f !== "");
  } catch {
    const out: string[] = [];
    const walk = (rel: string): void => {
      for (const name of readdirSync(join(root, rel))) {
        if (rel === "" && NOT_IN_REPO.has(name)) continue;
        if (name === "node_modules" || name === ".git") continue;
        const r = rel === "" ? name : posix.join(rel, name);
        if (statSync(join(root, r)).isDirectory()) walk(r);
        else out.push(r);
      }
    };
    walk("");
    return out;
  }
}

const doc = readFileSync(join(ROOT, DOC), "utf8");
const files = repoFiles(ROOT);

describe("ARCHITECTURE.md", () => {
  it("has an entry for every rule number cited in the tracked sources, tests and docs", () => {
    const entries = ruleEntries(doc);
    const missing = new Map<number, string[]>();
    for (const f of files) {
      if (!CITING.test(f) || basename(f) === "CHANGELOG.md" || !existsSync(join(ROOT, f))) continue;
      for (const n of citedRules(readFileSync(join(ROOT, f), "utf8"))) {
        if (entries.has(n)) continue;
        missing.set(n, [...(missing.get(n) ?? []), f]);
      }
    }
    const report = [...missing]
      .sort((a, b) => a[0] - b[0])
      .map(([n, where]) => `I-${n} (cited in ${where.slice(0, 3).join(", ")}${where.length > 3 ? ", …" : ""})`);
    assert.deepEqual(report, [], `rules cited in the code with no entry in ${DOC}:\n  ${report.join("\n  ")}`);
  });

  it("names only repository paths that exist", () => {
    const topLevel = new Set(files.map((f) => f.split("/")[0]!).filter((f) => !NOT_IN_REPO.has(f)));
    const named = namedPaths(doc, topLevel);
    assert.ok(named.length > 0, `no repository paths found in ${DOC}: the path check would prove nothing`);
    const missing = named.filter((p) => !pathExists(ROOT, p));
    assert.deepEqual(missing, [], `${DOC} names paths that do not exist:\n  ${missing.join("\n  ")}`);
  });

  it("the checks catch a bogus rule citation and a bogus path", () => {
    const sample = [
      "- **I-1** a rule",
      "### I-2 another",
      "`agent-server/acp/nope.ts`, `sandbox/`, `session/update`, `dist/agent-server.js`, `/tmp`",
    ].join("\n");
    const entries = ruleEntries(sample);
    assert.deepEqual([...entries].sort(), [1, 2]);
    // Spelled in pieces so that this file itself cites no rule 999.
    const cited = citedRules(`test("I-1: …"); // I-2, I-${"999"} and I-20..22, I-57/58; not GUI-3`);
    assert.deepEqual(
      [...cited].filter((n) => !entries.has(n)).sort((a, b) => a - b),
      [20, 21, 22, 57, 58, 999],
    );
    const named = namedPaths(sample, new Set(["agent-server", "sandbox", "dist"]));
    assert.deepEqual(named, ["agent-server/acp/nope.ts", "sandbox/"]);
    assert.deepEqual(
      named.filter((p) => !pathExists(ROOT, p)),
      ["agent-server/acp/nope.ts"],
    );
  });
});
