// What a tail-first replay reads of a session's log: how many entries it has, where its user turns
// start, the entries from a cut on, and the last plan, title and usage before the cut. Two kinds
// answer it: the live log's entries (`entriesSource`), and `TailKeeper`, which is fed a log as it is
// read and keeps only what a replay of its latest `events` can need, so a session/load can replay
// before the whole log is in memory. Pure.
import type { LogEntry } from "../session/events";

export interface ReplaySource {
  readonly length: number;
  /** Indexes of the entries that start a user turn: prompt k starts at `starts[k]`. */
  readonly starts: readonly number[];
  /** The entries from index `from` to the end (`from` is 0 or a prompt's start). */
  from(index: number): readonly LogEntry[];
  /** The last plan, title and usage before `end`, in log order: state the full replay would have set. */
  stateBefore(end: number): LogEntry[];
}

type StateType = "plan" | "session/title" | "usage";
const isState = (e: LogEntry): boolean => e.type === "plan" || e.type === "session/title" || e.type === "usage";
const startsUserTurn = (e: LogEntry): boolean => e.type === "turn/start" && e.source === "user";

/** The latest prompt `j < before` (j > 0) from which the turns up to `end` hold at least `events` entries; 0 when none does. */
export function firstPrompt(starts: readonly number[], before: number, end: number, events: number): number {
  for (let j = before - 1; j > 0; j--) if (end - (starts[j] as number) >= events) return j;
  return 0;
}

/** The replay source of a whole list of entries. */
export function entriesSource(entries: readonly LogEntry[]): ReplaySource {
  const starts: number[] = [];
  entries.forEach((e, i) => {
    if (startsUserTurn(e)) starts.push(i);
  });
  return {
    length: entries.length,
    starts,
    from: (index) => entries.slice(index),
    stateBefore(end) {
      const last = new Map<string, LogEntry>();
      for (let i = end - 1; i >= 0 && last.size < 3; i--) {
        const e = entries[i] as LogEntry;
        if (isState(e) && !last.has(e.type)) last.set(e.type, e);
      }
      return [...last.values()].reverse();
    },
  };
}

/**
 * Fed every entry of a log in order (`add`), keeps what a tail replay of at least `events` entries
 * can need: every entry from the latest prompt whose turns already hold `events` (the cut can only
 * move later as entries come), all of them while no prompt does, and the state entries before that.
 */
export class TailKeeper implements ReplaySource {
  readonly starts: number[] = [];
  private count = 0;
  /** Kept entries: the log's from index `windowStart` on. */
  private window: LogEntry[] = [];
  private windowStart = 0;
  /** The latest prompt (index into `starts`, > 0) whose turns hold `events`; 0 while none does. */
  private cutPrompt = 0;
  /** State entries by index; before the window, only the last of each type is kept. */
  private state: { index: number; entry: LogEntry }[] = [];

  /** `minDrop`: entries dropped at least at once (each drop copies the window; a test drops eagerly). */
  constructor(
    private readonly events: number,
    private readonly minDrop = 1024,
  ) {}

  get length(): number {
    return this.count;
  }

  /** The first entry still kept. */
  get keptFrom(): number {
    return this.windowStart;
  }

  add(entry: LogEntry): void {
    const index = this.count++;
    if (startsUserTurn(entry)) this.starts.push(index);
    if (isState(entry)) this.state.push({ index, entry });
    this.window.push(entry);
    while (this.cutPrompt + 1 < this.starts.length && this.count - (this.starts[this.cutPrompt + 1] as number) >= this.events)
      this.cutPrompt++;
    // Dropped in batches of at least half the window: each entry is copied a bounded number of times.
    if (this.cutPrompt > 0) {
      const cut = this.starts[this.cutPrompt] as number;
      if (cut - this.windowStart >= Math.max(this.minDrop, this.window.length / 2)) this.dropBefore(cut);
    }
  }

  from(index: number): readonly LogEntry[] {
    if (index < this.windowStart) throw new Error(`entries before ${this.windowStart} were not kept (asked from ${index})`);
    return this.window.slice(index - this.windowStart);
  }

  stateBefore(end: number): LogEntry[] {
    const last = new Map<StateType, { index: number; entry: LogEntry }>();
    for (let i = this.state.length - 1; i >= 0 && last.size < 3; i--) {
      const s = this.state[i]!;
      if (s.index < end && !last.has(s.entry.type as StateType)) last.set(s.entry.type as StateType, s);
    }
    return [...last.values()].sort((a, b) => a.index - b.index).map((s) => s.entry);
  }

  private dropBefore(cut: number): void {
    this.window = this.window.slice(cut - this.windowStart);
    this.windowStart = cut;
    // Before the window only the last of each state type can still be asked for.
    const lastBefore = new Map<string, { index: number; entry: LogEntry }>();
    const kept: { index: number; entry: LogEntry }[] = [];
    for (const s of this.state) {
      if (s.index < cut) lastBefore.set(s.entry.type, s);
      else kept.push(s);
    }
    this.state = [...[...lastBefore.values()].sort((a, b) => a.index - b.index), ...kept];
  }
}
