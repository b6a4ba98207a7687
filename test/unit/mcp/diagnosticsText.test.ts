// The `diagnostics` tool's text: "no problems" only for a file its language server reported without
// any; a file with no report within the bound is unknown, and the text says what was waited for.
import * as assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fileDiagnosticsText, folderDiagnosticsText, folderOutcome, problemLine, waitedFor } from "../../../extension/mcp/diagnosticsText";

const range = { start: { line: 3, character: 14 }, end: { line: 3, character: 15 } };
const typeError = problemLine("src/a.ts", {
  path: "/w/src/a.ts",
  severity: "error",
  message: "Type 'string' is not assignable to type 'number'.",
  source: "ts",
  code: "2322",
  range,
});
const file = { file: "src/a.ts", languageId: "typescript", waitedMs: 15_000 };

describe("diagnostics text", () => {
  it("a problem is one line: path:line:col severity [source code]: message", () => {
    assert.equal(typeError, "src/a.ts:3:14 error [ts 2322]: Type 'string' is not assignable to type 'number'.");
    const bare = problemLine("b.txt", { path: "/w/b.txt", severity: "warning", message: "m", range });
    assert.equal(bare, "b.txt:3:14 warning: m");
  });

  it("settled with problems: the problems, nothing else", () => {
    assert.equal(fileDiagnosticsText({ ...file, outcome: "settled", problems: [typeError] }), typeError);
  });

  it("settled and empty: 'no problems', naming who reported", () => {
    assert.equal(
      fileDiagnosticsText({ ...file, outcome: "settled", problems: [] }),
      "Reported by the TypeScript language service: no problems in src/a.ts.",
    );
    assert.equal(
      fileDiagnosticsText({ file: "x.zig", languageId: "zig", waitedMs: 15_000, outcome: "settled", problems: [] }),
      "Reported by the language server for zig: no problems in x.zig.",
    );
  });

  it("none: the result is unknown, with the bound and the language feature waited for; never 'no problems'", () => {
    const t = fileDiagnosticsText({ ...file, outcome: "none", problems: [] });
    assert.equal(
      t,
      "No report within 15 s for src/a.ts: the result is unknown (waited for typescript's diagnostics, e.g. the TypeScript language service); a problem may still be on its way.",
    );
    const other = fileDiagnosticsText({ file: "notes.txt", languageId: "plaintext", waitedMs: 15_000, outcome: "none", problems: [] });
    assert.match(
      other,
      /^No report within 15 s for notes\.txt: the result is unknown \(waited for plaintext's diagnostics, from whichever extension/,
    );
    for (const x of [t, other]) assert.doesNotMatch(x, /no problem/i);
  });

  it("none with problems held from an earlier report: listed, and said to be from before, the result unknown", () => {
    const t = fileDiagnosticsText({ ...file, outcome: "none", problems: [typeError] });
    assert.ok(t.startsWith(`${typeError}\n(Those are from an earlier report. No report within 15 s for src/a.ts: the result is unknown`));
  });

  it("the folder, every file reported: its problems, or 'no problems' in the checked files", () => {
    assert.equal(folderDiagnosticsText({ problems: [typeError], unknown: [], waitedMs: 15_000 }), typeError);
    const clean = { problems: [], unknown: [], waitedMs: 15_000 };
    assert.equal(folderOutcome(clean), "settled");
    assert.match(
      folderDiagnosticsText(clean),
      /^Reported by the editor's language servers: no problems in the files of this folder they have checked/,
    );
  });

  it("the folder, partial: lists each unknown file and what was waited for; never 'no problems'", () => {
    const partial = {
      problems: [],
      unknown: [
        { file: "src/b.ts", languageId: "typescript" },
        { file: "c.py", languageId: "python" },
      ],
      waitedMs: 15_000,
    };
    assert.equal(folderOutcome(partial), "partial");
    assert.equal(
      folderDiagnosticsText(partial),
      [
        "Problems reported so far: none.",
        "No report within 15 s for 2 open file(s): their results are unknown, a problem may still be on its way:",
        "- src/b.ts (waited for typescript's diagnostics, e.g. the TypeScript language service)",
        "- c.py (waited for python's diagnostics, e.g. the Python extension's language server)",
      ].join("\n"),
    );
    assert.doesNotMatch(folderDiagnosticsText(partial), /no problem/i);
    const withProblems = folderDiagnosticsText({ ...partial, problems: [typeError] });
    assert.ok(withProblems.startsWith(`${typeError}\nNo report within 15 s for 2 open file(s)`));
  });

  it("a language id that is an Object property name is not taken for a known service", () => {
    assert.match(waitedFor("constructor"), /from whichever extension checks that language/);
  });
});
