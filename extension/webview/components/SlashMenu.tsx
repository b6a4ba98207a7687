// The slash-command menu: the listbox of the composer's combobox (WAI-ARIA 1.2 combobox with a listbox
// popup). Focus stays in the textarea; the active option is announced through aria-activedescendant,
// so the keys (pure logic in ../slashMenu.ts and ../composerKeys.ts) are handled by the composer's textarea.
import { useState } from "preact/hooks";
import type { AvailableCommand } from "@agentclientprotocol/sdk";
import { TEST_IDS } from "../testIds";
import { activeIndex, initialSlashMenu, onDraftChanged, pick, slashOptions, type SlashAction, type SlashMenuState } from "../slashMenu";

export const SLASH_MENU_ID = "slash-menu";

export function slashOptionId(name: string): string {
  return `slash-option-${name.replace(/[^\w-]/g, "_")}`;
}

/** What the textarea needs: its combobox attributes and the menu's state for its key handling. */
export interface SlashMenuModel {
  options: AvailableCommand[];
  active: number;
  /** ARIA attributes for the textarea (the combobox). */
  comboboxProps: Record<string, string | boolean | undefined>;
  /** The menu's state, for the composer's keys (../composerKeys.ts). */
  state: SlashMenuState;
  /** The menu's state after a key in the textarea. */
  setState(next: SlashMenuState): void;
  /** The draft changed (typed, filled, cleared). */
  onDraft(): void;
}

export function useSlashMenu(draft: string, commands: readonly AvailableCommand[]): SlashMenuModel {
  const [state, setState] = useState<SlashMenuState>(initialSlashMenu);
  const options = slashOptions(draft, commands, state);
  const active = activeIndex(state, options.length);
  const open = options.length > 0;
  const activeCmd = open ? options[active] : undefined;
  return {
    options,
    active,
    comboboxProps: {
      role: "combobox",
      "aria-autocomplete": "list",
      "aria-expanded": open ? "true" : "false",
      "aria-controls": SLASH_MENU_ID,
      "aria-activedescendant": activeCmd ? slashOptionId(activeCmd.name) : undefined,
    },
    state,
    setState(next) {
      if (next !== state) setState(next);
    },
    onDraft() {
      setState(onDraftChanged);
    },
  };
}

export function SlashMenu(p: { model: SlashMenuModel; onPick(action: SlashAction): void }) {
  const { options, active } = p.model;
  // The listbox exists whenever the combobox names it (aria-controls); hidden while closed.
  return (
    <ul
      id={SLASH_MENU_ID}
      class="slash"
      data-testid={TEST_IDS.slashCommands}
      role="listbox"
      aria-label="Commands"
      hidden={options.length === 0}
    >
      {options.map((c, i) => (
        <li
          key={c.name}
          id={slashOptionId(c.name)}
          role="option"
          aria-selected={i === active ? "true" : "false"}
          class={i === active ? "slash-option active" : "slash-option"}
          data-testid={TEST_IDS.slashOption}
          // mousedown, not click: the textarea keeps focus.
          onMouseDown={(ev) => {
            ev.preventDefault();
            p.onPick(pick(c, "Enter"));
          }}
        >
          <span class="slash-name">/{c.name}</span>
          {c.input?.hint ? <span class="muted"> {c.input.hint}</span> : null}
          <span class="muted slash-description"> {c.description}</span>
        </li>
      ))}
    </ul>
  );
}
