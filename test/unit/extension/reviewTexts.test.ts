// What the review cards offer and say: the restore confirmation's buttons (keeping the user's edits
// is the primary one) and the banner of a restore or undo.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { RestoreDoneView, RestorePlanView } from "../../../extension/common/webviewProtocol";
import { doneText, restoreChoices, undoLabel } from "../../../extension/webview/reviewTexts";

const plan = (items: RestorePlanView["items"]): RestorePlanView => ({ planId: "p", label: "before “x”", items });
const item = (path: string, extra: Partial<RestorePlanView["items"][number]> = {}): RestorePlanView["items"][number] => ({
  path,
  action: "write",
  added: 1,
  removed: 1,
  ...extra,
});
const done = (extra: Partial<RestoreDoneView>): RestoreDoneView => ({
  kind: "restore",
  undoCheckpointId: "u",
  restored: 2,
  paths: ["a.txt", "b.txt"],
  failures: [],
  kept: [],
  ...extra,
});

test("I-105: with a hand-edited file the primary restore keeps the user's edits; restoring them too is the secondary choice", () => {
  const choices = restoreChoices(plan([item("a.txt"), item("mine.txt", { userEdit: "changed by hand since this checkpoint" })]));
  assert.deepEqual(
    choices.map((c) => [c.label, c.primary, c.keepUserEdits]),
    [
      ["Restore, keep my edits", true, true],
      ["Restore all, including my edits", false, false],
    ],
  );
});

test("without hand edits (or only ones left alone anyway) there is one primary Restore", () => {
  for (const items of [[item("a.txt")], [item("a.txt"), item("big.bin", { userEdit: "by hand", leaveAlone: "too large" })]]) {
    assert.deepEqual(
      restoreChoices(plan(items)).map((c) => [c.label, c.primary]),
      [["Restore", true]],
    );
  }
});

test("I-105: the banner names what it did and what it undoes: Undo restore, Undo this undo, nothing after a revert", () => {
  assert.equal(doneText(done({ label: "fix the\nbuild   now" })), "Restored 2 files to before “fix the build now”.");
  assert.equal(undoLabel(done({})), "Undo restore");
  const undo = done({ kind: "undo", restored: 1, paths: ["a.txt"], kept: ["mine.txt", "notes.md"] });
  assert.equal(doneText(undo), "Undid the change to a.txt. Your own edits stay: mine.txt, notes.md.");
  assert.equal(undoLabel(undo), "Undo this undo");
  assert.equal(undoLabel(done({ kind: "undo", restored: 0, paths: [], kept: ["mine.txt"] })), undefined, "nothing to undo");
  assert.equal(doneText(done({ kind: "revert", restored: 1, paths: ["a.txt"] })), "Brought back 1 file.");
  assert.equal(undoLabel(done({ kind: "revert" })), undefined);
  assert.equal(
    doneText(done({ restored: 1, failures: [{ path: "b.txt", reason: "locked" }] })),
    "Restored 1 file; 1 not changed (see the notice).",
  );
});
