// What a key pressed in the composer's textarea does, pure: the open slash menu takes its keys first
// (arrows, Enter/Tab to pick, Escape to close it); then Enter sends (or queues while a turn runs),
// Shift+Enter is a new line, Ctrl/Cmd+Enter steers into the running turn, Escape cancels the turn, and
// `@` at the start of a word opens the file picker. The component (components/Composer.tsx) carries
// the action out; this module knows nothing of the DOM, so the unit tier tests it.
import type { AvailableCommand } from "@agentclientprotocol/sdk";
import { slashKey, type SlashAction, type SlashMenuState } from "./slashMenu";

/** The facts of a keydown event the composer decides on. */
export interface KeyFacts {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** An input method editor is composing: its keys are not the composer's. */
  isComposing: boolean;
}

/** The composer's state when the key is pressed. */
export interface ComposerKeyState {
  running: boolean;
  draft: string;
  commands: readonly AvailableCommand[];
  menu: SlashMenuState;
}

/** What the composer does with the key. Every action but `none` takes the key (no default behaviour). */
export type ComposerAction =
  /** Not the composer's key: the textarea does what it always does (types, moves, Shift+Enter newline). */
  | { kind: "none" }
  /** The slash menu used the key: it moved or closed, or a command was picked. */
  | { kind: "slash"; action: Exclude<SlashAction, { kind: "pass" }> }
  /** Send the draft (queued while a turn runs). */
  | { kind: "send" }
  /** Steer the draft into the running turn (queued when the agent cannot take it). */
  | { kind: "steer" }
  /** Cancel the running turn. */
  | { kind: "cancel" }
  /** Open the file picker; the file comes back as an attachment. */
  | { kind: "mention" };

/** The action, and the slash menu's state after the key (the same object when the menu did not change). */
export interface ComposerKeyResult {
  menu: SlashMenuState;
  action: ComposerAction;
}

function plain(k: KeyFacts): boolean {
  return !k.shiftKey && !k.ctrlKey && !k.metaKey && !k.altKey;
}

/** `@` opens the picker only where a word starts: at the start of the draft or after whitespace. */
function startsWord(draft: string): boolean {
  return draft === "" || /\s$/.test(draft);
}

/** The composer's own keys, once the slash menu has passed on the key. */
function composerOwnKey(k: KeyFacts, s: ComposerKeyState): ComposerAction {
  if (k.key === "Enter" && (k.ctrlKey || k.metaKey) && s.running) return { kind: "steer" };
  if (k.key === "Enter" && !k.shiftKey) return { kind: "send" };
  if (k.key === "Escape" && s.running) return { kind: "cancel" };
  if (k.key === "@" && startsWord(s.draft)) return { kind: "mention" };
  return { kind: "none" };
}

export function composerKey(k: KeyFacts, s: ComposerKeyState): ComposerKeyResult {
  if (k.isComposing) return { menu: s.menu, action: { kind: "none" } };
  let menu = s.menu;
  // Only a key without modifiers reaches the slash menu.
  if (plain(k)) {
    const r = slashKey(s.menu, s.draft, s.commands, k.key);
    if (r.action.kind !== "pass") return { menu: r.state, action: { kind: "slash", action: r.action } };
    menu = r.state;
  }
  return { menu, action: composerOwnKey(k, s) };
}

/**
 * A key in a permission card's "Reject with a note…" field: Enter sends the rejection, Shift+Enter is a new
 * line, Escape closes the field (the request stays pending). An input method's composition keeps every key.
 */
export function noteKey(k: KeyFacts): "send" | "cancel" | "none" {
  if (k.isComposing) return "none";
  if (k.key === "Enter" && !k.shiftKey) return "send";
  if (k.key === "Escape") return "cancel";
  return "none";
}
