// The slash-command menu's pure logic: which commands a draft offers, and what a key does
// to the menu. The component (components/SlashMenu.tsx) renders it as an ARIA combobox's listbox; this
// module knows nothing of the DOM, so the unit tier tests it.
import type { AvailableCommand } from "@agentclientprotocol/sdk";

/** The menu's own state: which option is active, and the draft at which Escape closed it. */
export interface SlashMenuState {
  active: number;
  /** The draft the user closed the menu at (Escape); it stays closed until the draft changes. */
  dismissedAt: string | undefined;
}

export const initialSlashMenu: SlashMenuState = { active: 0, dismissedAt: undefined };

/** What the composer should do after a key the menu handled. */
export type SlashAction =
  /** The menu did not use the key: the composer handles it as usual. */
  | { kind: "pass" }
  /** The menu used the key (moved or closed); nothing else happens. */
  | { kind: "handled" }
  /** Put `/name ` in the composer: the command takes input. */
  | { kind: "fill"; text: string }
  /** Send `/name` now: the command takes no input. */
  | { kind: "run"; text: string };

/** The word after `/` while the draft is a command being typed (a `/` first, no whitespace yet). */
export function slashQuery(draft: string): string | undefined {
  return draft.startsWith("/") && !/\s/.test(draft) ? draft.slice(1) : undefined;
}

/** Commands matching `query`: prefix matches first, then substring matches, each in the agent's order. */
export function filterCommands(commands: readonly AvailableCommand[], query: string): AvailableCommand[] {
  const q = query.toLowerCase();
  const prefix = commands.filter((c) => c.name.toLowerCase().startsWith(q));
  const inner = commands.filter((c) => !c.name.toLowerCase().startsWith(q) && c.name.toLowerCase().includes(q));
  return [...prefix, ...inner];
}

/** The options the menu shows for a draft; empty when it is closed. */
export function slashOptions(draft: string, commands: readonly AvailableCommand[], state: SlashMenuState): AvailableCommand[] {
  const q = slashQuery(draft);
  if (q === undefined || state.dismissedAt === draft) return [];
  return filterCommands(commands, q);
}

/** The active option's index, kept inside the list (the list shrinks as the user types). */
export function activeIndex(state: SlashMenuState, count: number): number {
  return count === 0 ? -1 : Math.min(Math.max(state.active, 0), count - 1);
}

/** The draft changed: the first option becomes active again. */
export function onDraftChanged(state: SlashMenuState): SlashMenuState {
  return { active: 0, dismissedAt: state.dismissedAt };
}

/**
 * Enter picks by the command's `input` (ACP `AvailableCommand.input`): a command that takes input is
 * filled in for the user to complete, one that takes none runs. Tab always completes (it never sends).
 */
export function pick(cmd: AvailableCommand, key: "Enter" | "Tab"): SlashAction {
  const takesInput = cmd.input !== undefined && cmd.input !== null;
  if (key === "Enter" && !takesInput) return { kind: "run", text: `/${cmd.name}` };
  return { kind: "fill", text: `/${cmd.name} ` };
}

/** A key pressed in the composer while the draft is `draft`. */
export function slashKey(
  state: SlashMenuState,
  draft: string,
  commands: readonly AvailableCommand[],
  key: string,
): { state: SlashMenuState; action: SlashAction } {
  const options = slashOptions(draft, commands, state);
  if (options.length === 0) return { state, action: { kind: "pass" } };
  const active = activeIndex(state, options.length);
  const n = options.length;
  switch (key) {
    case "ArrowDown":
      return { state: { ...state, active: (active + 1) % n }, action: { kind: "handled" } };
    case "ArrowUp":
      return { state: { ...state, active: (active - 1 + n) % n }, action: { kind: "handled" } };
    case "Enter":
    case "Tab": {
      const cmd = options[active];
      return cmd ? { state: { ...state, active: 0 }, action: pick(cmd, key) } : { state, action: { kind: "pass" } };
    }
    case "Escape":
      return { state: { active: 0, dismissedAt: draft }, action: { kind: "handled" } };
    default:
      return { state, action: { kind: "pass" } };
  }
}
