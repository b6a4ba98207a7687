// When the Sessions view redraws. A folder session fires an event for every streamed text delta, but
// the view shows none of that text: only each folder's activity, how many requests wait on the user,
// its current session and that session's title. So an event redraws the view only when one of those
// changed, and redraws are coalesced to at most one per REFRESH_MS. The timer is injected, so a test
// drives it by hand.
import type { SessionActivity } from "./folderSession";
import { toDisposable, type IDisposable } from "../common/lifecycle";

/** At most one redraw per this many milliseconds. */
export const REFRESH_MS = 250;

/** What the view reads of one folder session (a `FolderSession` is one). */
export interface ShownSession {
  readonly folder: string;
  readonly activity: SessionActivity;
  readonly pending: readonly unknown[];
  readonly pendingQuestions: readonly unknown[];
  readonly sessionId: string | undefined;
  readonly state: { readonly title?: string | undefined };
}

export interface RefreshTimer {
  /** Runs `fn` once after `ms`; disposing the result cancels it. */
  set(fn: () => void, ms: number): IDisposable;
}

export const realTimer: RefreshTimer = {
  set(fn, ms) {
    const handle = setTimeout(fn, ms);
    return toDisposable(() => clearTimeout(handle));
  },
};

/** Everything the view shows of these sessions, as one comparable value. */
export function shownKey(sessions: Iterable<ShownSession>): string {
  const rows: unknown[] = [];
  for (const s of sessions)
    rows.push([s.folder, s.activity, s.pending.length, s.pendingQuestions.length, s.sessionId ?? null, s.state.title ?? null]);
  return JSON.stringify(rows);
}

export class SessionsViewRefresh implements IDisposable {
  /** What the view will show once the scheduled redraw (or the last one) has run. */
  #shown: string;
  #scheduled?: IDisposable;

  constructor(
    private readonly opts: {
      sessions(): Iterable<ShownSession>;
      redraw(): void;
      timer?: RefreshTimer;
    },
  ) {
    this.#shown = shownKey(opts.sessions());
  }

  /** A folder session changed (any event): redraws only if what the view shows of the sessions differs. */
  sessionsChanged(): void {
    const key = shownKey(this.opts.sessions());
    if (key === this.#shown) return;
    this.#shown = key;
    this.#schedule();
  }

  /** Something the sessions do not say changed (the folders, a checkpoint, a cleared cache): redraws. */
  invalidate(): void {
    this.#shown = shownKey(this.opts.sessions());
    this.#schedule();
  }

  #schedule(): void {
    this.#scheduled ??= (this.opts.timer ?? realTimer).set(() => {
      this.#scheduled = undefined;
      this.opts.redraw();
    }, REFRESH_MS);
  }

  dispose(): void {
    this.#scheduled?.dispose();
    this.#scheduled = undefined;
  }
}
