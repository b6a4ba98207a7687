// The composer's keys, pure: Enter sends (queues while a turn runs), Shift+Enter is a new line,
// Ctrl/Cmd+Enter steers only while a turn runs, Escape cancels a running turn, `@` at the start of a word
// opens the file picker, the open slash menu takes its keys first (only without modifiers), and an input
// method's composition keeps every key.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { AvailableCommand } from "@agentclientprotocol/sdk";
import { composerKey, noteKey, type ComposerKeyState, type KeyFacts } from "../../../extension/webview/composerKeys";
import { initialSlashMenu, slashKey } from "../../../extension/webview/slashMenu";

const COMMANDS: AvailableCommand[] = [
  { name: "compact", description: "summarise" },
  { name: "init", description: "AGENTS.md", input: { hint: "focus" } },
];

function key(k: string, mods: Partial<Omit<KeyFacts, "key">> = {}): KeyFacts {
  return { key: k, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, isComposing: false, ...mods };
}

function state(over: Partial<ComposerKeyState> = {}): ComposerKeyState {
  return { running: false, draft: "hello", commands: COMMANDS, menu: initialSlashMenu, ...over };
}

const kind = (k: KeyFacts, s: ComposerKeyState) => composerKey(k, s).action.kind;

test("Enter sends, Shift+Enter is left to the textarea (a new line)", () => {
  assert.equal(kind(key("Enter"), state()), "send");
  assert.equal(kind(key("Enter", { shiftKey: true }), state()), "none");
  assert.equal(kind(key("Enter", { altKey: true }), state()), "send");
  // While a turn runs Enter still "sends": the composer queues it.
  assert.equal(kind(key("Enter"), state({ running: true })), "send");
});

test("Ctrl+Enter and Cmd+Enter steer only while a turn runs; otherwise they send", () => {
  assert.equal(kind(key("Enter", { ctrlKey: true }), state({ running: true })), "steer");
  assert.equal(kind(key("Enter", { metaKey: true }), state({ running: true })), "steer");
  assert.equal(kind(key("Enter", { ctrlKey: true, shiftKey: true }), state({ running: true })), "steer");
  assert.equal(kind(key("Enter", { ctrlKey: true }), state()), "send");
  assert.equal(kind(key("Enter", { ctrlKey: true, shiftKey: true }), state()), "none");
});

test("Escape cancels a running turn and is left alone while idle", () => {
  assert.equal(kind(key("Escape"), state({ running: true })), "cancel");
  assert.equal(kind(key("Escape"), state()), "none");
});

test("@ opens the file picker at the start of a word only", () => {
  assert.equal(kind(key("@", { shiftKey: true }), state({ draft: "" })), "mention");
  assert.equal(kind(key("@"), state({ draft: "look at " })), "mention");
  assert.equal(kind(key("@"), state({ draft: "look at\n" })), "mention");
  assert.equal(kind(key("@"), state({ draft: "mail me@" })), "none");
  assert.equal(kind(key("@"), state({ draft: "me" })), "none");
});

test("other keys are the textarea's", () => {
  for (const k of ["a", "ArrowDown", "Tab", "Backspace"]) assert.equal(kind(key(k), state()), "none", k);
});

test("while an input method composes, no key is taken and the menu does not move", () => {
  const s = state({ draft: "/co", running: true });
  for (const k of ["Enter", "Escape", "ArrowDown", "@"]) {
    const r = composerKey(key(k, { isComposing: true }), s);
    assert.deepEqual(r.action, { kind: "none" }, k);
    assert.equal(r.menu, s.menu);
  }
});

test("the open slash menu takes its keys first and its state moves with them", () => {
  const s = state({ draft: "/", running: true });
  const down = composerKey(key("ArrowDown"), s);
  assert.deepEqual(down.action, { kind: "slash", action: { kind: "handled" } });
  assert.deepEqual(down.menu, slashKey(initialSlashMenu, "/", COMMANDS, "ArrowDown").state);
  // Enter picks the active option (init takes input: filled in) instead of sending or queueing.
  assert.deepEqual(composerKey(key("Enter"), { ...s, menu: down.menu }).action, {
    kind: "slash",
    action: { kind: "fill", text: "/init " },
  });
  assert.deepEqual(composerKey(key("Enter"), s).action, { kind: "slash", action: { kind: "run", text: "/compact" } });
  assert.deepEqual(composerKey(key("Tab"), s).action, { kind: "slash", action: { kind: "fill", text: "/compact " } });
});

test("Escape closes the slash menu first; a second Escape cancels the running turn", () => {
  const s = state({ draft: "/co", running: true });
  const first = composerKey(key("Escape"), s);
  assert.deepEqual(first.action, { kind: "slash", action: { kind: "handled" } });
  assert.equal(first.menu.dismissedAt, "/co");
  const second = composerKey(key("Escape"), { ...s, menu: first.menu });
  assert.deepEqual(second.action, { kind: "cancel" });
  assert.equal(second.menu, first.menu, "the closed menu's state is kept");
});

test("a key with a modifier skips the slash menu", () => {
  const s = state({ draft: "/co", running: true });
  const r = composerKey(key("Enter", { ctrlKey: true }), s);
  assert.deepEqual(r.action, { kind: "steer" });
  assert.equal(r.menu, s.menu);
  // Shift+Enter with the menu open is a new line, not a pick.
  assert.deepEqual(composerKey(key("Enter", { shiftKey: true }), s).action, { kind: "none" });
});

test("with the menu closed (no match), keys go to the composer and the menu state is unchanged", () => {
  const s = state({ draft: "/zz" });
  const r = composerKey(key("Enter"), s);
  assert.deepEqual(r.action, { kind: "send" });
  assert.equal(r.menu, s.menu);
});

test("the permission card's note field: Enter sends, Shift+Enter is a new line, Escape closes it, composition keeps its keys", () => {
  assert.equal(noteKey(key("Enter")), "send");
  assert.equal(noteKey(key("Enter", { shiftKey: true })), "none");
  assert.equal(noteKey(key("Escape")), "cancel");
  assert.equal(noteKey(key("Enter", { isComposing: true })), "none");
  assert.equal(noteKey(key("Escape", { isComposing: true })), "none");
  // The card's answer keys are plain typing here.
  for (const k of ["1", "a", "r", "n"]) assert.equal(noteKey(key(k)), "none");
});
