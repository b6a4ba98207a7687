// One folder's transcript as the extension host keeps it: the reducer's state with only the
// latest entries live, the older ones compressed in a TranscriptArchive. A panel's snapshot carries the
// latest TAIL_ENTRIES and it pages older ones in as the user scrolls up, so nothing the panel shows
// needs the archive to be live; twenty panels of 10,000-event histories then cost the host their
// compressed size instead of their object graphs.
//
// Indexes here are absolute (archived entries first): a panel's window keeps meaning the same entries
// when pages are frozen. The few events that change an entry by its id (a tool update, a permission or
// question settled, a cancel of unfinished tools, an edit that cuts the history) are rare for old
// entries; when one refers to an archived entry the archive is thawed first and the reducer sees the
// whole transcript, exactly as if nothing had been frozen.
import {
  clearsHistory,
  emptyTranscript,
  reduceTranscript,
  type TranscriptEntry,
  type TranscriptEvent,
  type TranscriptState,
  type TranscriptUpdate,
} from "../common/transcript";
import {
  indexOfEntry,
  isPrompt,
  MAX_PAGE_ENTRIES,
  TAIL_ENTRIES,
  type TranscriptPage,
  type TranscriptWindow,
} from "../common/transcriptWindow";
import { TranscriptArchive } from "./transcriptArchive";

export interface HostTranscriptLimits {
  /** Live entries kept at least (more than a snapshot's tail, so a snapshot never needs the archive). */
  keep: number;
  /** Entries frozen together, once `keep + page` are live. */
  page: number;
}

export const DEFAULT_LIMITS: HostTranscriptLimits = { keep: 2 * TAIL_ENTRIES, page: 200 };

/**
 * Turns the agent still holds before the earliest entry here (a load that replayed only the latest
 * turns: base/historyPages.ts). They are fetched, folded and put in front of the archive when a panel
 * pages up to them.
 */
export interface OlderHistory {
  /** User prompts before the earliest entry held (≥ 1). */
  readonly beforePrompt: number;
  /** Whole turns before prompt `beforePrompt`, as the transcript's updates, and the prompt they begin at. */
  fetch(beforePrompt: number): Promise<{ updates: TranscriptUpdate[]; fromPrompt: number }>;
}

/** Entries of older turns, folded on their own (ids made unique to the page: `h<prompt>.<id>`). */
function foldOlder(updates: readonly TranscriptUpdate[], fromPrompt: number): TranscriptEntry[] {
  let s = emptyTranscript("", "");
  for (const update of updates) s = reduceTranscript(s, { type: "acp", update });
  return s.entries.map((e) => ({ ...e, id: `h${fromPrompt}.${e.id}` }));
}

export class HostTranscript {
  #state: TranscriptState;
  readonly #archive = new TranscriptArchive();
  /** Bumped whenever entries are removed or thawed: an answer computed before no longer fits. */
  #generation = 0;
  #historyOf?: string;
  #older?: OlderHistory;
  #fetching?: Promise<void>;

  constructor(
    initial: TranscriptState,
    private readonly limits: HostTranscriptLimits = DEFAULT_LIMITS,
  ) {
    this.#state = initial;
  }

  /** The state with its live entries (the latest ones; `archived` older ones precede them). */
  get state(): TranscriptState {
    return this.#state;
  }
  get archived(): number {
    return this.#archive.count;
  }
  /** Entries in all, archived and live. */
  get length(): number {
    return this.#archive.count + this.#state.entries.length;
  }
  /** User prompts (steers not counted) in all, the agent's older turns included. */
  get prompts(): number {
    return this.#olderPrompts + this.#archive.prompts + this.#state.entries.filter(isPrompt).length;
  }
  /** Whether the agent holds older turns not fetched yet. */
  get hasOlder(): boolean {
    return this.#older !== undefined;
  }

  /** Older turns the agent holds (after a load that replayed only the latest), or none. */
  setOlder(older: OlderHistory | undefined): void {
    this.#older = older;
  }

  get #olderPrompts(): number {
    return this.#older?.beforePrompt ?? 0;
  }
  /**
   * The session whose history the entries are. Unlike `state.sessionId` it outlives a close (the panel
   * closed, the session left, the entries kept), so reopening that session can resume without a replay.
   */
  get historyOf(): string | undefined {
    return this.#historyOf;
  }
  get generation(): number {
    return this.#generation;
  }
  /** Compressed bytes held by the archive. */
  get archivedBytes(): number {
    return this.#archive.compressedBytes;
  }

  /** Resolves when the pages frozen so far are compressed. */
  compressed(): Promise<void> {
    return this.#archive.compressed();
  }

  /** Replaces fields of the state that are not history (the queue at construction). */
  patch(fields: Partial<Omit<TranscriptState, "entries">>): void {
    this.#state = { ...this.#state, ...fields };
  }

  apply(ev: TranscriptEvent): void {
    if (ev.type === "reset") this.#historyOf = undefined;
    else if (ev.type === "session/bound") this.#historyOf = ev.sessionId ?? (ev.clearHistory ? undefined : this.#historyOf);
    if (clearsHistory(ev)) {
      this.#archive.clear();
      this.#older = undefined;
      this.#generation++;
    } else if (ev.type === "transcript/truncate" && this.#older && ev.keepPrompts < this.#older.beforePrompt) {
      // The cut is among the turns not fetched: every entry here is after it.
      this.#archive.clear();
      this.#state = { ...this.#state, entries: [], plan: [] };
      this.#older = ev.keepPrompts > 0 ? { ...this.#older, beforePrompt: ev.keepPrompts } : undefined;
      this.#generation++;
      return;
    } else if (this.#needsArchive(ev)) {
      this.#state = { ...this.#state, entries: [...this.#archive.thaw(), ...this.#state.entries] };
      this.#generation++;
    }
    const before = this.#state.entries;
    this.#state = reduceTranscript(this.#state, this.#live(ev));
    if (this.#state.entries.length < before.length) this.#generation++;
    this.#freeze();
  }

  /** The latest `count` entries and where they start: what a snapshot carries. */
  tail(count = TAIL_ENTRIES): { state: TranscriptState; window: TranscriptWindow } {
    const live = this.#state.entries;
    const from = Math.max(0, live.length - count);
    const start = this.#archive.count + from;
    return { state: from === 0 ? this.#state : { ...this.#state, entries: live.slice(from) }, window: this.#windowAt(start) };
  }

  /**
   * Up to `count` entries before the one with `beforeId`, from the live ones and, past them, the
   * archive; undefined when that entry is gone. Check `generation` when it resolves: if it moved, the
   * page may no longer fit.
   */
  async page(beforeId: string, count: number): Promise<TranscriptPage | undefined> {
    const want = Math.min(Math.max(1, count), MAX_PAGE_ENTRIES);
    // Short of entries before `beforeId`: the agent's older turns are fetched first (once at a time).
    if (this.#older && this.#indexOf(beforeId) < want) await this.#fetchOlder();
    const end = this.#indexOf(beforeId);
    if (end < 0) return undefined;
    const base = this.#archive.count;
    const live = this.#state.entries;
    const start = Math.max(0, end - want);
    const window = this.#windowAt(start);
    const older = start < base ? await this.#archive.slice(start, Math.min(end, base)) : [];
    const newer = end > base ? live.slice(Math.max(0, start - base), end - base) : [];
    return { beforeId, entries: [...older, ...newer], window };
  }

  /** The window of a webview whose first entry is at absolute index `start`. */
  #windowAt(start: number): TranscriptWindow {
    const promptsBefore = this.#olderPrompts + this.#promptsBefore(start);
    return this.#older ? { start, promptsBefore, older: true } : { start, promptsBefore };
  }

  /** Absolute index of the entry `id`, or -1. */
  #indexOf(id: string): number {
    const i = indexOfEntry(this.#state.entries, id);
    return i >= 0 ? this.#archive.count + i : this.#archive.indexOf(id);
  }

  /** Fetches the agent's next older turns into the front of the archive; a fetch that fails leaves them to a later ask. */
  #fetchOlder(): Promise<void> {
    this.#fetching ??= (async () => {
      const older = this.#older;
      if (!older) return;
      try {
        const { updates, fromPrompt } = await older.fetch(older.beforePrompt);
        // Cleared, cut or replaced meanwhile: what came back is no longer the turns before these entries.
        if (this.#older !== older) return;
        this.#archive.prepend(foldOlder(updates, fromPrompt));
        this.#older = fromPrompt > 0 ? { ...older, beforePrompt: fromPrompt } : undefined;
      } catch {
        // The agent is gone or refused: the entries held stay as they are, and a later page asks again.
      } finally {
        this.#fetching = undefined;
      }
    })();
    return this.#fetching;
  }

  /** Every entry, archived ones included (rare: an export or a test). */
  async entries(): Promise<TranscriptEntry[]> {
    const live = this.#state.entries;
    return [...(await this.#archive.slice(0, this.#archive.count)), ...live];
  }

  #promptsBefore(abs: number): number {
    const base = this.#archive.count;
    if (abs >= base) {
      let n = this.#archive.prompts;
      for (let i = 0; i < abs - base; i++) if (isPrompt(this.#state.entries[i] as TranscriptEntry)) n++;
      return n;
    }
    return this.#archive.promptsBefore(abs);
  }

  /** `ev` as the reducer must see it when it sees only the live entries. */
  #live(ev: TranscriptEvent): TranscriptEvent {
    // The prompts to keep are counted from the session's first; the older and archived ones are kept anyway.
    if (ev.type === "transcript/truncate") return { ...ev, keepPrompts: ev.keepPrompts - this.#olderPrompts - this.#archive.prompts };
    return ev;
  }

  /** Whether the reducer must see archived entries to apply `ev` as if nothing were archived. */
  #needsArchive(ev: TranscriptEvent): boolean {
    if (this.#archive.count === 0) return false;
    const refs = this.#archive.refs;
    switch (ev.type) {
      case "acp":
        return (
          (ev.update.sessionUpdate === "tool_call" || ev.update.sessionUpdate === "tool_call_update") &&
          refs.toolCallIds.has(ev.update.toolCallId)
        );
      case "permission/resolved":
        return refs.requestIds.has(ev.requestId);
      case "question/resolved":
        return refs.questionIds.has(ev.questionId);
      case "tools/cancelUnfinished":
      case "turn/ended":
        return refs.unfinishedTools > 0;
      case "transcript/truncate":
        return ev.keepPrompts < this.#olderPrompts + this.#archive.prompts;
      default:
        return false;
    }
  }

  #freeze(): void {
    const { keep, page } = this.limits;
    while (this.#state.entries.length >= keep + page) {
      const entries = this.#state.entries;
      this.#archive.freeze(entries.slice(0, page));
      this.#state = { ...this.#state, entries: entries.slice(page) };
    }
  }
}
