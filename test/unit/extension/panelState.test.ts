// The chat panel's webview state: the folder (for restoring the panel), the composer's draft and the
// values of question cards still pending, kept together (one setState holds them all) and read back
// validated. Runs the webview module outside a webview, where the state lives in memory.
import * as assert from "node:assert/strict";
import { beforeEach, describe, it } from "node:test";
import {
  forgetQuestion,
  rememberFolder,
  savedDraft,
  saveDraft,
  savedQuestionValues,
  saveQuestionValues,
} from "../../../extension/webview/panelState";
import { vscodeState } from "../../../extension/webview/vscodeApi";

describe("chat panel webview state", () => {
  beforeEach(() => vscodeState.set(undefined));

  it("keeps the folder, the draft and pending question values side by side", () => {
    rememberFolder("/work/alpha");
    saveDraft("half a thought");
    saveQuestionValues("question-1", { colour: "green", count: 3, ok: true, tags: ["a", "b"] });
    assert.deepEqual(vscodeState.get(), {
      folder: "/work/alpha",
      draft: "half a thought",
      questions: { "question-1": { colour: "green", count: 3, ok: true, tags: ["a", "b"] } },
    });
    assert.equal(savedDraft(), "half a thought");
    assert.deepEqual(savedQuestionValues("question-1"), { colour: "green", count: 3, ok: true, tags: ["a", "b"] });
    assert.equal(savedQuestionValues("question-2"), undefined);
  });

  it("an empty draft and a settled question leave nothing behind; the folder stays", () => {
    rememberFolder("/work/beta");
    saveDraft("x");
    saveDraft("");
    saveQuestionValues("question-7", { a: "1" });
    forgetQuestion("question-7");
    forgetQuestion("question-unknown");
    assert.deepEqual(vscodeState.get(), { folder: "/work/beta", questions: {} });
    assert.equal(savedDraft(), "");
  });

  it("a state of the wrong shape (an older version, tampering) reads as empty and is replaced", () => {
    vscodeState.set({ folder: 42, draft: ["not", "text"] });
    assert.equal(savedDraft(), "");
    assert.equal(savedQuestionValues("question-1"), undefined);
    saveDraft("fresh");
    assert.deepEqual(vscodeState.get(), { draft: "fresh" });
  });
});
