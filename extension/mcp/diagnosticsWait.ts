// Waiting for a file's diagnostics, without the editor: an injected source of reports and an injected
// clock (the VS Code adapter feeds `languages.onDidChangeDiagnostics`; tests feed a fake). A report is
// the editor saying a file's diagnostics were set, also to none. The outcome says whether one came:
// `settled` only after a report, `none` when the bound passed without one. A report after the bound is
// not claimed: the wait has ended, its listener is gone, its answer stays `none`.

/** Whether the language server reported for a file: `partial` is a many-file answer with some unknown. */
export type ReportOutcome = "settled" | "partial" | "none";

export interface ReportSource {
  /** Calls `listener` with the files (keys) whose diagnostics were just set, also to none. */
  onReport(listener: (keys: readonly string[]) => void): { dispose(): void };
  /** How many problems the file has now. */
  problemCount(key: string): number;
}

export interface WaitClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realClock: WaitClock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export interface WaitBounds {
  /** How long the first report may take; past it the result is unknown. */
  firstMs: number;
  /**
   * After a report listing no problem, how long at least to wait for another: servers report in passes
   * (TypeScript sends syntax problems, then semantic ones). A server slow to send its first pass gets as
   * long again, within `firstMs`.
   */
  settleMs: number;
}

/** The editor's bounds: a cold TypeScript server on a loaded machine needs seconds for its first pass. */
export const DIAGNOSTICS_BOUNDS: WaitBounds = { firstMs: 15_000, settleMs: 2_500 };

/**
 * Resolves `settled` at `key`'s first report listing problems, once reports listing none have settled,
 * or at the bound if one came; `none` at the bound if none came. Subscribe before asking for analysis.
 */
export function waitForReport(key: string, source: ReportSource, clock: WaitClock, bounds: WaitBounds): Promise<ReportOutcome> {
  return new Promise<ReportOutcome>((resolve) => {
    const started = clock.now();
    let reported = false;
    let settle: unknown;
    const bound = clock.setTimeout(() => done(reported ? "settled" : "none"), bounds.firstMs);
    const sub = source.onReport((keys) => {
      if (!keys.includes(key)) return;
      reported = true;
      if (source.problemCount(key) > 0) return done("settled");
      if (settle !== undefined) clock.clearTimeout(settle);
      settle = clock.setTimeout(() => done("settled"), Math.max(bounds.settleMs, clock.now() - started));
    });
    let finished = false;
    function done(outcome: ReportOutcome): void {
      if (finished) return;
      finished = true;
      clock.clearTimeout(bound);
      if (settle !== undefined) clock.clearTimeout(settle);
      sub.dispose();
      resolve(outcome);
    }
  });
}

/**
 * Which open files have a report on its way: opened or changed since their server last reported, or
 * reported so recently that another pass may follow (the settle rule of `waitForReport`). Fed by the
 * adapter's editor events from its start; a file it has seen nothing of is not pending (its state is
 * whatever the editor holds).
 */
export class ReportLog {
  readonly #pending = new Map<string, number>();
  /** Per file: when its last report came, and how long after the change it answered. */
  readonly #reported = new Map<string, { at: number; after: number }>();
  readonly #sub: { dispose(): void };

  constructor(
    source: ReportSource,
    private readonly clock: WaitClock = realClock,
  ) {
    this.#sub = source.onReport((keys) => {
      const now = clock.now();
      for (const k of keys) {
        const since = this.#pending.get(k);
        const last = this.#reported.get(k);
        // A later pass of the same check keeps the delay of its first: the window is measured from that.
        this.#reported.set(k, { at: now, after: since !== undefined ? now - since : (last?.after ?? 0) });
        this.#pending.delete(k);
      }
    });
  }
  /** The file was opened or its text changed: its last report, if any, is about other text. */
  changed(key: string): void {
    if (!this.#pending.has(key)) this.#pending.set(key, this.clock.now());
  }
  /** The file was closed: nothing is on its way for it. */
  closed(key: string): void {
    this.#pending.delete(key);
  }
  /** A report is due for the file. */
  pending(key: string): boolean {
    return this.#pending.has(key);
  }
  /** The file's server reported at least once since the log started: it has one. */
  everReported(key: string): boolean {
    return this.#reported.has(key);
  }
  /** How long another pass may still follow the file's last report (0: that report has settled). */
  quietLeft(key: string, bounds: WaitBounds): number {
    const r = this.#reported.get(key);
    if (!r) return 0;
    return Math.max(0, r.at + Math.max(bounds.settleMs, r.after) - this.clock.now());
  }
  dispose(): void {
    this.#sub.dispose();
  }
}
