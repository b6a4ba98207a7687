// The sources say their rules in words: no file cites an issue by its number (in prose, or in
// parentheses after a test title) or the design document that is not in the repository (its name is
// built below, so that this file does not cite it). Rule names (`I-29`) are rules and stay. Checked:
// every file git tracks or would add (not ignored) with a source extension, outside build output,
// benchmark results and lockfiles; Markdown is prose and not checked here.
// Run: node --import tsx --test test/integration/docs/citations.test.ts
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { repoFiles } from "./repoFiles";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const SOURCE = /\.(ts|tsx|mjs|cjs|js|sh|css|json)$/;
const SKIPPED_DIRS = /(^|\/)(node_modules|dist|out|test-results)\/|^bench\/results\//;
const LOCKFILES = /(^|\/)package-lock\.json$/;
const DESIGN_DOC = ["DESIGN", "md"].join(".");

/** What counts as a citation, each with a name for the report. */
const CITATIONS: readonly { name: string; re: RegExp }[] = [
  { name: "issue number", re: /\bissue #\d+/i },
  { name: "(#n)", re: /\(#\d+\)/ },
  { name: DESIGN_DOC, re: new RegExp(DESIGN_DOC.replace(".", "\\.")) },
];

/** The citations in a text, as `line: kind` strings (empty when it has none). */
export function citationsIn(text: string): string[] {
  const out: string[] = [];
  text.split("\n").forEach((line, i) => {
    for (const c of CITATIONS) if (c.re.test(line)) out.push(`${i + 1}: ${c.name}`);
  });
  return out;
}

/** Whether a repository path is a source file this check reads. */
export function isCheckedSource(path: string): boolean {
  return SOURCE.test(path) && !SKIPPED_DIRS.test(path) && !LOCKFILES.test(path);
}

describe("source citations", () => {
  it("no source file cites an issue number or the design document", () => {
    const files = [...new Set(repoFiles(ROOT))].filter((f) => isCheckedSource(f) && existsSync(join(ROOT, f)));
    assert.ok(files.length > 100, `only ${files.length} source files found: the check would prove nothing`);
    const found = files.flatMap((f) => citationsIn(readFileSync(join(ROOT, f), "utf8")).map((c) => `${f}:${c}`));
    assert.deepEqual(found, [], `say the rule in words instead of citing it:\n  ${found.join("\n  ")}`);
  });

  it("the check catches each kind of citation and lets rule names, anchors and colours be", () => {
    const hash = "#";
    assert.deepEqual(citationsIn(`// Images into the composer (issue ${hash}17): checked`), ["1: issue number"]);
    assert.deepEqual(citationsIn(`x\ndescribe("checkpoints (${hash}16)", () => {`), ["2: (#n)"]);
    assert.deepEqual(citationsIn(`// cold start (${DESIGN_DOC} §7)`), [`1: ${DESIGN_DOC}`]);
    const clean = 'I-29: a rule; see README.md#L1-L3; color: #1e1e1e; this.#private; "&#39;"; an issue with no number';
    assert.deepEqual(citationsIn(clean), []);
    assert.equal(isCheckedSource("extension/api.ts"), true);
    assert.equal(isCheckedSource("extension/webview/styles.css"), true);
    for (const skipped of ["dist/extension.js", "node_modules/zod/index.js", "bench/results/a.json", "README.md", "package-lock.json"]) {
      assert.equal(isCheckedSource(skipped), false, skipped);
    }
  });
});
