// The repository's two design documents stay true to the tree: ARCHITECTURE.md, the codemap, and
// docs/rules.md, the numbered rules. Checked here:
// - every rule number cited in the files (`I-<n>`, also `I-20..24` and `I-57/58`; CHANGELOG.md
//   excepted) has an entry in docs/rules.md: a line that starts with the number, as in `- **I-29** …`;
//   and every test file an entry names cites that rule (an entry with none says "not yet proven");
// - every repository path either document names in backticks exists. A backticked span counts as a
//   path when it has no whitespace and either starts with a top-level entry of the repository
//   (`sandbox/`, `agent-server/acp/bridge.ts`, `package.json`) or ends in a source or doc extension.
//   Build output (`dist/`, `out/`), absolute paths, placeholders (`extension/<feature>/`) and protocol
//   names such as `session/update` are not checked;
// - ARCHITECTURE.md is at most 16 KB (a short line for each of ~300 source files, and little prose), so the map stays a map;
// - every source file (`.ts`, `.tsx`, `.mjs`, `.css`) under base/, extension/, agent-server/ and
//   sandbox/ has a line in ARCHITECTURE.md. The convention: a heading that starts with a folder in
//   backticks (`` ### `agent-server/acp/` the ACP app ``) opens that folder's section, and each list
//   line in it that starts with a file name (`- bridge.ts: …`) names that folder's file, which must
//   exist; any other heading closes the section. A file's full path in backticks anywhere counts too.
// "The files" are those git tracks or would add (not ignored), so a new file needs its line at once.
// Run: node --import tsx --test test/integration/docs/architecture.test.ts
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { NOT_IN_REPO, repoFiles } from "./repoFiles";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const MAP = "ARCHITECTURE.md";
const RULES = "docs/rules.md";
const MAP_MAX_BYTES = 16 * 1024;
const CITING = /\.(ts|tsx|mjs|md)$/;
const FILE_LIKE = /\.(ts|tsx|mts|mjs|cjs|js|json|md|sh|css)$/;
/** The source files the codemap must name. */
const MAPPED_SOURCE = /^(base|extension|agent-server|sandbox)\/.*\.(ts|tsx|mjs|css)$/;

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

const ENTRY = /^\s*(?:[-*+]\s+|\d+\.\s+|#{1,6}\s+|\|\s*)?(?:\*\*|__)?`?I-(\d+)\b/;

/** Rule numbers that have an entry: a line starting (after a list marker, heading or bold) with `I-<n>`. */
export function ruleEntries(doc: string): Set<number> {
  return new Set(ruleBlocks(doc).keys());
}

/** Each rule entry's text: its line and the indented lines under it. */
export function ruleBlocks(doc: string): Map<number, string> {
  const out = new Map<number, string>();
  let current: number | null = null;
  for (const line of doc.split("\n")) {
    const m = ENTRY.exec(line);
    if (m) {
      current = Number(m[1]);
      out.set(current, line);
    } else if (current !== null && /^\s+\S/.test(line)) out.set(current, `${out.get(current)!}\n${line}`);
    else current = null;
  }
  return out;
}

/**
 * What is wrong with the rules' test references: an entry that names no test file and does not say
 * "not yet proven", or names a test file that does not cite the rule. `read` gives a file's text, or
 * null when it does not exist (the path check reports those).
 */
export function ruleTestProblems(doc: string, read: (path: string) => string | null): string[] {
  const problems: string[] = [];
  for (const [n, block] of ruleBlocks(doc)) {
    const tests = [...block.matchAll(/`(test\/[^`\s]+)`/g)].map((m) => m[1]!);
    if (tests.length === 0 && !/not yet proven/.test(block)) problems.push(`I-${n}: names no test and does not say "not yet proven"`);
    for (const t of tests) {
      const text = read(t);
      if (text !== null && !citedRules(text).has(n)) problems.push(`I-${n}: ${t} does not cite it`);
    }
  }
  return problems;
}

/** `a/{b,c}/d` → `a/b/d`, `a/c/d` (one level of braces is enough for prose). */
function expandBraces(span: string): string[] {
  const m = /\{([^{}]*)\}/.exec(span);
  if (!m) return [span];
  return m[1]!.split(",").flatMap((alt) => expandBraces(span.slice(0, m.index) + alt.trim() + span.slice(m.index + m[0].length)));
}

/** A Markdown text without its fenced blocks (diagrams, not checked). */
function withoutFences(doc: string): string {
  return doc.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
}

/** The repository paths a Markdown text names in inline code. */
export function namedPaths(doc: string, topLevel: ReadonlySet<string>): string[] {
  const out = new Set<string>();
  for (const m of withoutFences(doc).matchAll(/`([^`\n]+)`/g)) {
    const span = m[1]!.trim();
    if (span === "" || /[\s<>]/.test(span) || span.includes("://") || /^[/~$]/.test(span)) continue;
    const first = span.replace(/^\.\//, "").split("/")[0]!;
    if (NOT_IN_REPO.has(first)) continue;
    if (!topLevel.has(first) && !(FILE_LIKE.test(span) && !first.startsWith("."))) continue;
    for (const p of expandBraces(span.replace(/^\.\//, ""))) out.add(p);
  }
  return [...out];
}

/** The files the codemap's folder sections name (see the header): `folder/name` for each entry line. */
export function codemapEntries(doc: string): string[] {
  const out: string[] = [];
  let folder: string | null = null;
  for (const line of withoutFences(doc).split("\n")) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      folder = /^`([^`\s<>]+\/)`/.exec(heading[1]!)?.[1] ?? null;
      continue;
    }
    const entry = folder === null ? null : /^[-*+]\s+`?([\w.-]+\.[a-z]+)`?(?=[:\s]|$)/.exec(line);
    if (entry) out.push(posix.join(folder!, entry[1]!));
  }
  return out;
}

/** The source files under the mapped folders that the codemap names neither by entry nor by full path. */
export function unmappedSources(files: readonly string[], doc: string, topLevel: ReadonlySet<string>): string[] {
  const named = new Set([...codemapEntries(doc), ...namedPaths(doc, topLevel)]);
  return files.filter((f) => MAPPED_SOURCE.test(f) && !named.has(f));
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

const map = readFileSync(join(ROOT, MAP), "utf8");
const rules = readFileSync(join(ROOT, RULES), "utf8");
const files = [...new Set(repoFiles(ROOT))];
const topLevel = new Set(files.map((f) => f.split("/")[0]!).filter((f) => !NOT_IN_REPO.has(f)));
const readRepoFile = (p: string): string | null => (existsSync(join(ROOT, p)) ? readFileSync(join(ROOT, p), "utf8") : null);

describe("ARCHITECTURE.md and docs/rules.md", () => {
  it("docs/rules.md has an entry for every rule number cited in the tracked sources, tests and docs", () => {
    const entries = ruleEntries(rules);
    const missing = new Map<number, string[]>();
    for (const f of files) {
      if (!CITING.test(f) || basename(f) === "CHANGELOG.md") continue;
      for (const n of citedRules(readFileSync(join(ROOT, f), "utf8"))) {
        if (entries.has(n)) continue;
        missing.set(n, [...(missing.get(n) ?? []), f]);
      }
    }
    const report = [...missing]
      .sort((a, b) => a[0] - b[0])
      .map(([n, where]) => `I-${n} (cited in ${where.slice(0, 3).join(", ")}${where.length > 3 ? ", …" : ""})`);
    assert.deepEqual(report, [], `rules cited with no entry in ${RULES}:\n  ${report.join("\n  ")}`);
  });

  it("each test file a rule's entry names cites that rule", () => {
    const problems = ruleTestProblems(rules, readRepoFile);
    assert.deepEqual(problems, [], `${RULES}:\n  ${problems.join("\n  ")}`);
  });

  for (const [name, doc] of [
    [MAP, map],
    [RULES, rules],
  ] as const) {
    it(`${name} names only repository paths that exist`, () => {
      const named = [...namedPaths(doc, topLevel), ...codemapEntries(doc)];
      assert.ok(named.length > 0, `no repository paths found in ${name}: the path check would prove nothing`);
      const missing = named.filter((p) => !pathExists(ROOT, p));
      assert.deepEqual(missing, [], `${name} names paths that do not exist:\n  ${missing.join("\n  ")}`);
    });
  }

  it(`${MAP} is at most 16 KB`, () => {
    const bytes = Buffer.byteLength(map, "utf8");
    assert.ok(
      bytes <= MAP_MAX_BYTES,
      `${MAP} is ${bytes} bytes, over ${MAP_MAX_BYTES}: say less per line, or move prose into module headers`,
    );
  });

  it(`${MAP} has a line for every source file under base/, extension/, agent-server/ and sandbox/`, () => {
    const missing = unmappedSources(files, map, topLevel);
    assert.deepEqual(missing, [], `source files with no line in ${MAP} (add one under the folder's heading):\n  ${missing.join("\n  ")}`);
  });

  it("the checks catch a bogus rule citation, a bogus path, an unmapped file and an unproven rule", () => {
    const sample = [
      "- **I-1** a rule",
      "  Tests: `test/a.test.ts`, `test/b.test.ts`.",
      "### I-2 another",
      "`agent-server/acp/nope.ts`, `sandbox/`, `session/update`, `dist/agent-server.js`, `/tmp`, `extension/<feature>/`",
      "### `agent-server/acp/` the ACP app",
      "- bridge.ts: records",
      "- nope.ts: gone",
      "### Elsewhere",
      "- app.ts: not under a folder heading",
    ].join("\n");
    const entries = ruleEntries(sample);
    assert.deepEqual([...entries].sort(), [1, 2]);
    // Spelled in pieces so that this file itself cites no rule 999.
    const cited = citedRules(`test("I-1: …"); // I-2, I-${"999"} and I-20..22, I-57/58; not GUI-3`);
    assert.deepEqual(
      [...cited].filter((n) => !entries.has(n)).sort((a, b) => a - b),
      [20, 21, 22, 57, 58, 999],
    );
    const top = new Set(["agent-server", "sandbox", "dist", "extension"]);
    const named = namedPaths(sample, top);
    assert.deepEqual(named, ["test/a.test.ts", "test/b.test.ts", "agent-server/acp/nope.ts", "sandbox/", "agent-server/acp/"]);
    assert.deepEqual(codemapEntries(sample), ["agent-server/acp/bridge.ts", "agent-server/acp/nope.ts"]);
    assert.deepEqual(
      [...named, ...codemapEntries(sample)].filter((p) => !pathExists(ROOT, p)),
      ["test/a.test.ts", "test/b.test.ts", "agent-server/acp/nope.ts", "agent-server/acp/nope.ts"],
    );
    const sources = [
      "agent-server/acp/bridge.ts",
      "agent-server/acp/app.ts",
      "sandbox/env.ts",
      "test/x.ts",
      "extension/webview/tsconfig.json",
    ];
    assert.deepEqual(unmappedSources(sources, sample, top), ["agent-server/acp/app.ts", "sandbox/env.ts"]);
    const texts: Record<string, string> = { "test/a.test.ts": 'it("I-1: …")', "test/b.test.ts": 'it("I-3: …")' };
    assert.deepEqual(
      ruleTestProblems(sample, (p) => texts[p] ?? null),
      ["I-1: test/b.test.ts does not cite it", 'I-2: names no test and does not say "not yet proven"'],
    );
    assert.deepEqual(
      ruleTestProblems("- **I-2** a rule. Tests: not yet proven.", () => null),
      [],
    );
  });
});
