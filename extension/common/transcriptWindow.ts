// Which part of a long transcript the webview holds. The host keeps every entry (the older
// ones compressed: extension/sessions/hostTranscript.ts); the webview gets the latest ones in its
// snapshot and asks for older pages as the user scrolls up. Entries
// are only ever appended at the end or cleared (the host resends a snapshot then), so "the webview holds
// entries[start..]" stays true between snapshots. Pure: both sides import it.
import type { TranscriptEntry, TranscriptState } from "./transcript";

/** Entries a snapshot carries: several screens of the latest messages. */
export const TAIL_ENTRIES = 150;
/** Entries one `transcript/page` answer carries. */
export const PAGE_ENTRIES = 250;
/** The most a webview may ask for at once (the host clamps to it). */
export const MAX_PAGE_ENTRIES = 500;

export interface TranscriptWindow {
  /** Index, in the host's entries, of the first entry the webview holds (0: the host has none before them). */
  start: number;
  /** User prompts (steers not counted) before the held entries: the first held prompt's index for restore and edit. */
  promptsBefore: number;
  /** The agent holds turns older than the host's first entry, fetched when paged up to (base/historyPages.ts). */
  older?: boolean;
}

/** How many entries precede the held ones, at least 1 while older turns wait at the agent (their count is not known). */
export function entriesBefore(w: TranscriptWindow): number {
  return w.start + (w.older === true ? 1 : 0);
}

/** Older entries for a webview that holds entries from `beforeId` on. */
export interface TranscriptPage {
  beforeId: string;
  entries: TranscriptEntry[];
  /** The window once the page is prepended. */
  window: TranscriptWindow;
}

export const FULL_WINDOW: TranscriptWindow = { start: 0, promptsBefore: 0 };

/** Whether an entry counts as a prompt for restore and edit (steers do not: they were never a prompt of their own). */
export function isPrompt(e: TranscriptEntry): boolean {
  return e.kind === "user" && !e.steered;
}

/** Index of the entry with `id`, searched from the end (the webview's first entry is usually recent). */
export function indexOfEntry(entries: readonly TranscriptEntry[], id: string): number {
  for (let i = entries.length - 1; i >= 0; i--) if (entries[i]?.id === id) return i;
  return -1;
}

/**
 * The webview's state with a page prepended, or undefined when the page no longer fits (its first entry
 * changed since it asked: a snapshot replaced it, or the history was cleared).
 */
export function prependPage(
  state: TranscriptState,
  window: TranscriptWindow,
  page: TranscriptPage,
): { state: TranscriptState; window: TranscriptWindow } | undefined {
  // Not by index: fetching the agent's older turns puts entries in front of the host's, moving every index.
  if (state.entries[0]?.id !== page.beforeId || entriesBefore(window) === 0) return undefined;
  return { state: { ...state, entries: [...page.entries, ...state.entries] }, window: page.window };
}
