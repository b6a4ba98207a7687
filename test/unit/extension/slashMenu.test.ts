// The slash-command menu's pure logic: filtering (prefix, then substring), the active
// option moving with wrapping, Enter running a command without input and filling one with input, Tab
// completing, Escape closing the menu until the draft changes.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { AvailableCommand } from "@agentclientprotocol/sdk";
import {
  activeIndex,
  filterCommands,
  initialSlashMenu,
  onDraftChanged,
  slashKey,
  slashOptions,
  slashQuery,
  type SlashMenuState,
} from "../../../extension/webview/slashMenu";

const COMMANDS: AvailableCommand[] = [
  { name: "compact", description: "summarise" },
  { name: "clear", description: "forget" },
  { name: "init", description: "AGENTS.md", input: { hint: "focus" } },
  { name: "recompile", description: "has co inside" },
];
const names = (cs: readonly AvailableCommand[]) => cs.map((c) => c.name);

test("the menu opens on a leading / and closes at the first whitespace", () => {
  assert.equal(slashQuery("/co"), "co");
  assert.equal(slashQuery("/"), "");
  assert.equal(slashQuery("/init now"), undefined);
  assert.equal(slashQuery("hello /co"), undefined);
  assert.deepEqual(names(slashOptions("/", COMMANDS, initialSlashMenu)), ["compact", "clear", "init", "recompile"]);
  assert.deepEqual(slashOptions("/init ", COMMANDS, initialSlashMenu), []);
});

test("filtering: prefix matches first, then substring matches, case-insensitively", () => {
  assert.deepEqual(names(filterCommands(COMMANDS, "co")), ["compact", "recompile"]);
  assert.deepEqual(names(filterCommands(COMMANDS, "CL")), ["clear"]);
  assert.deepEqual(names(filterCommands(COMMANDS, "zz")), []);
});

test("ArrowDown and ArrowUp move the active option and wrap", () => {
  let st: SlashMenuState = initialSlashMenu;
  const press = (key: string, draft = "/co") => {
    const r = slashKey(st, draft, COMMANDS, key);
    st = r.state;
    return r.action;
  };
  assert.equal(activeIndex(st, 2), 0);
  assert.deepEqual(press("ArrowDown"), { kind: "handled" });
  assert.equal(activeIndex(st, 2), 1);
  press("ArrowDown");
  assert.equal(activeIndex(st, 2), 0, "wraps past the last");
  press("ArrowUp");
  assert.equal(activeIndex(st, 2), 1, "wraps before the first");
  // Typing resets the active option to the first.
  st = onDraftChanged(st);
  assert.equal(activeIndex(st, 2), 0);
});

test("Enter runs a command that takes no input and fills one that does; Tab always fills", () => {
  assert.deepEqual(slashKey(initialSlashMenu, "/co", COMMANDS, "Enter").action, { kind: "run", text: "/compact" });
  assert.deepEqual(slashKey(initialSlashMenu, "/in", COMMANDS, "Enter").action, { kind: "fill", text: "/init " });
  assert.deepEqual(slashKey(initialSlashMenu, "/co", COMMANDS, "Tab").action, { kind: "fill", text: "/compact " });
  const second = slashKey(initialSlashMenu, "/co", COMMANDS, "ArrowDown").state;
  assert.deepEqual(slashKey(second, "/co", COMMANDS, "Enter").action, { kind: "run", text: "/recompile" });
});

test("Escape closes the menu until the draft changes; then keys pass to the composer", () => {
  const closed = slashKey(initialSlashMenu, "/co", COMMANDS, "Escape");
  assert.deepEqual(closed.action, { kind: "handled" });
  assert.deepEqual(slashOptions("/co", COMMANDS, closed.state), []);
  // A second Escape is the composer's (it cancels a running turn).
  assert.deepEqual(slashKey(closed.state, "/co", COMMANDS, "Escape").action, { kind: "pass" });
  assert.deepEqual(slashKey(closed.state, "/co", COMMANDS, "Enter").action, { kind: "pass" });
  // Typing on reopens it.
  assert.deepEqual(names(slashOptions("/com", COMMANDS, onDraftChanged(closed.state))), ["compact", "recompile"]);
});

test("with no matching command, no key is taken from the composer", () => {
  for (const key of ["ArrowDown", "Enter", "Tab", "Escape"]) {
    assert.deepEqual(slashKey(initialSlashMenu, "/zz", COMMANDS, key).action, { kind: "pass" });
    assert.deepEqual(slashKey(initialSlashMenu, "plain text", COMMANDS, key).action, { kind: "pass" });
  }
  // Other keys pass even while open.
  assert.deepEqual(slashKey(initialSlashMenu, "/co", COMMANDS, "a").action, { kind: "pass" });
});
