// What one panel's webview is sent of its session: a snapshot of the latest entries, then the
// session's events at most once per frame, merged (coalesce.ts), and older entries page by page when it
// asks. Whenever events would not fold the same on the webview's partial copy (history cleared or cut, a
// tool card older than what the webview holds changed) or would only replay a load, the webview gets a
// fresh snapshot instead; a load's replay gives one snapshot when it ends, not thousands of events.
import { announcementOf } from "../common/announcements";
import type { TranscriptEvent, TranscriptState } from "../common/transcript";
import { entriesBefore, indexOfEntry, TAIL_ENTRIES, type TranscriptPage, type TranscriptWindow } from "../common/transcriptWindow";
import type { HostToWebview } from "../common/webviewProtocol";
import { coalesceEvents } from "./coalesce";

/** Events wait at most this long (one frame) before they are posted. */
export const FRAME_MS = 16;

export interface FeedTimer {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimer: FeedTimer = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * The session's transcript as the host keeps it (extension/sessions/hostTranscript.ts): the state with
 * its latest entries live, older ones archived before them.
 */
export interface FeedSource {
  /** With every event pushed so far folded in. */
  readonly state: TranscriptState;
  /** Moves whenever entries are removed or brought back: a page computed before no longer fits. */
  readonly generation: number;
  tail(count: number): { state: TranscriptState; window: TranscriptWindow };
  page(beforeId: string, count: number): Promise<TranscriptPage | undefined>;
}

export interface PanelFeedDeps {
  source: FeedSource;
  post(msg: HostToWebview): void;
  timer?: FeedTimer;
}

export class PanelFeed {
  readonly #timer: FeedTimer;
  #queue: TranscriptEvent[] = [];
  #scheduled: { handle: unknown } | undefined;
  #resync = false;
  /** The last snapshot showed a load in progress: what the load replays waits for its end. */
  #shownLoading = false;
  /**
   * The first entry the webview holds (it holds every later one); undefined while it holds none. By id:
   * the agent's older turns, when fetched, go in front of the host's entries and move every index.
   */
  #heldFirst: string | undefined;

  constructor(private readonly deps: PanelFeedDeps) {
    this.#timer = deps.timer ?? realTimer;
  }

  /** The webview is (again) ready: the state as it is now, then the events from here on. */
  start(): void {
    this.#cancel();
    this.#queue = [];
    this.#snapshot(undefined);
  }

  /** Events the session has just folded into its state. */
  push(events: readonly TranscriptEvent[]): void {
    if (events.length === 0) return;
    for (const ev of events) this.#queue.push(ev);
    if (!this.#resync && this.#needsSnapshot(events)) this.#resync = true;
    this.#scheduled ??= { handle: this.#timer.set(() => this.flush(), FRAME_MS) };
  }

  /** Posts what waits (normally run by the frame timer). */
  flush(): void {
    this.#scheduled = undefined;
    const queued = this.#queue;
    this.#queue = [];
    if (this.#resync) {
      if (this.deps.source.state.loading && this.#shownLoading) return;
      this.#snapshot(announcementOf(queued));
      return;
    }
    if (queued.length > 0) this.deps.post({ type: "events", events: coalesceEvents(queued) });
  }

  /** The webview, holding entries from `beforeId` on, asks for up to `count` older ones. */
  async page(beforeId: string, count: number): Promise<void> {
    const src = this.deps.source;
    const generation = src.generation;
    const page = await src.page(beforeId, count);
    // A request made before the last snapshot asks from an entry the webview no longer starts with; one
    // answered from entries that were cut or brought back meanwhile may not fit either.
    if (!page || src.generation !== generation || page.beforeId !== this.#heldFirst) return;
    if (page.entries[0]) this.#heldFirst = page.entries[0].id;
    this.deps.post({ type: "transcript/page", page });
  }

  dispose(): void {
    this.#cancel();
    this.#queue = [];
  }

  #snapshot(announce: string | undefined): void {
    this.#resync = false;
    const s = this.deps.source.state;
    // While a load replays, what is folded so far is not worth a render: the panel says it is loading
    // (and its composer works) until the snapshot at the load's end.
    const { state, window } = this.deps.source.tail(s.loading ? 0 : TAIL_ENTRIES);
    this.#heldFirst = state.entries[0]?.id;
    this.#shownLoading = s.loading;
    this.deps.post({ type: "snapshot", state, ...(entriesBefore(window) > 0 ? { window } : {}), ...(announce ? { announce } : {}) });
  }

  #cancel(): void {
    if (this.#scheduled) this.#timer.clear(this.#scheduled.handle);
    this.#scheduled = undefined;
  }

  #needsSnapshot(events: readonly TranscriptEvent[]): boolean {
    const s = this.deps.source.state;
    if (s.loading) return true;
    return events.some((ev) => {
      switch (ev.type) {
        case "reset":
        case "loading":
        case "transcript/truncate":
          return true;
        case "session/bound":
          return ev.clearHistory;
        case "acp":
          return (
            (ev.update.sessionUpdate === "tool_call" || ev.update.sessionUpdate === "tool_call_update") &&
            !this.#holdsTool(s, ev.update.toolCallId)
          );
        default:
          return false;
      }
    });
  }

  /** Whether the tool card is among the entries the webview holds (searched from the end: it is usually recent). */
  #holdsTool(s: TranscriptState, toolCallId: string): boolean {
    // Live entries only: an event about an archived card brought the archive back before it got here.
    const first = this.#heldFirst === undefined ? -1 : indexOfEntry(s.entries, this.#heldFirst);
    const from = Math.max(0, first);
    for (let i = s.entries.length - 1; i >= from; i--) {
      const e = s.entries[i];
      if (e?.kind === "tool" && e.toolCallId === toolCallId) return true;
    }
    return false;
  }
}
