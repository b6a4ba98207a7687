// Waiting for a file's diagnostics (diagnosticsWait.ts) with a fake report source and a fake clock, and
// the text the model then gets (diagnosticsText.ts): an empty report within the bound is "no
// problems"; no report is unknown after the bound; a report after the bound is not claimed.
import * as assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fileDiagnosticsText } from "../../../extension/mcp/diagnosticsText";
import { ReportLog, waitForReport, type ReportOutcome, type ReportSource, type WaitClock } from "../../../extension/mcp/diagnosticsWait";

const BOUNDS = { firstMs: 15_000, settleMs: 2_500 };

/** A clock whose time moves only when told; timers run in due order. */
function fakeClock(): WaitClock & { advance(ms: number): void; pending(): number } {
  let now = 0;
  let next = 0;
  const timers = new Map<number, { at: number; run: () => void }>();
  return {
    now: () => now,
    setTimeout: (run, ms) => (timers.set(++next, { at: now + ms, run }), next),
    clearTimeout: (h) => void timers.delete(h as number),
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= end).sort((x, y) => x[1].at - y[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].run();
      }
      now = end;
    },
    pending: () => timers.size,
  };
}

/** Diagnostics the test sets per file; each set is a report, as `onDidChangeDiagnostics` is. */
function fakeReports(): ReportSource & { set(key: string, problems: number): void; listeners(): number } {
  const counts = new Map<string, number>();
  const listeners = new Set<(keys: readonly string[]) => void>();
  return {
    onReport(l) {
      listeners.add(l);
      return { dispose: () => void listeners.delete(l) };
    },
    problemCount: (k) => counts.get(k) ?? 0,
    set(key, problems) {
      counts.set(key, problems);
      for (const l of [...listeners]) l([key]);
    },
    listeners: () => listeners.size,
  };
}

/** The outcome once known, or undefined while the wait goes on. */
async function settledYet(p: Promise<ReportOutcome>): Promise<ReportOutcome | undefined> {
  return Promise.race([p, new Promise<undefined>((r) => setImmediate(() => r(undefined)))]);
}

const text = (outcome: ReportOutcome, problems: string[] = []) =>
  fileDiagnosticsText({
    file: "src/a.ts",
    languageId: "typescript",
    waitedMs: BOUNDS.firstMs,
    outcome: outcome === "none" ? "none" : "settled",
    problems,
  });

describe("waiting for a file's diagnostics", () => {
  it("an empty report before the bound: settled, once no second pass came, and the model is told 'no problems'", async () => {
    const clock = fakeClock();
    const src = fakeReports();
    const wait = waitForReport("a", src, clock, BOUNDS);
    clock.advance(1_000);
    src.set("a", 0);
    clock.advance(2_000);
    assert.equal(await settledYet(wait), undefined, "answered before a semantic pass could follow the empty one");
    clock.advance(500);
    assert.equal(await wait, "settled");
    assert.equal(text(await wait), "Reported by the TypeScript language service: no problems in src/a.ts.");
    assert.equal(src.listeners(), 0);
    assert.equal(clock.pending(), 0);
  });

  it("a report listing problems settles at once", async () => {
    const clock = fakeClock();
    const src = fakeReports();
    const wait = waitForReport("a", src, clock, BOUNDS);
    src.set("b", 3); // another file's report is not this one's
    assert.equal(await settledYet(wait), undefined);
    src.set("a", 0);
    src.set("a", 1); // the semantic pass, within the settle window
    assert.equal(await wait, "settled");
  });

  it("no report within the bound: none, and the model is told the result is unknown, not 'no problems'", async () => {
    const clock = fakeClock();
    const src = fakeReports();
    const wait = waitForReport("a", src, clock, BOUNDS);
    clock.advance(14_999);
    assert.equal(await settledYet(wait), undefined, "gave up before the bound");
    clock.advance(1);
    assert.equal(await wait, "none");
    const t = text(await wait);
    assert.match(
      t,
      /^No report within 15 s for src\/a\.ts: the result is unknown \(waited for typescript's diagnostics, e\.g\. the TypeScript language service\)/,
    );
    assert.doesNotMatch(t, /no problem/i);
  });

  it("a report after the bound is not claimed: the answer stays none and nothing listens any more", async () => {
    const clock = fakeClock();
    const src = fakeReports();
    const wait = waitForReport("a", src, clock, BOUNDS);
    clock.advance(15_000);
    assert.equal(await wait, "none");
    assert.equal(src.listeners(), 0, "the wait still listens after its bound");
    src.set("a", 0);
    clock.advance(10_000);
    assert.equal(await wait, "none");
  });

  it("a slow first pass gets as long again for the next, within the bound", async () => {
    const clock = fakeClock();
    const src = fakeReports();
    const wait = waitForReport("a", src, clock, BOUNDS);
    clock.advance(6_000);
    src.set("a", 0); // the syntax pass, late: the semantic one may take as long
    clock.advance(5_000);
    assert.equal(await settledYet(wait), undefined, "a 2.5 s window would have answered under load");
    src.set("a", 1);
    assert.equal(await wait, "settled");
    assert.equal(src.problemCount("a"), 1);
  });

  it("an empty report whose settle window the bound cuts is still a report: settled", async () => {
    const clock = fakeClock();
    const src = fakeReports();
    const wait = waitForReport("a", src, clock, BOUNDS);
    clock.advance(12_000);
    src.set("a", 0);
    clock.advance(3_000);
    assert.equal(await wait, "settled");
  });
});

describe("which files have a report on its way (ReportLog)", () => {
  it("opened or changed since the last report is pending; a report clears it; closing forgets it", () => {
    const src = fakeReports();
    const log = new ReportLog(src);
    assert.equal(log.pending("a"), false, "a file never seen is not pending");
    log.changed("a");
    assert.equal(log.pending("a"), true);
    assert.equal(log.everReported("a"), false);
    src.set("a", 0);
    assert.equal(log.pending("a"), false);
    assert.equal(log.everReported("a"), true);
    log.changed("a");
    log.closed("a");
    assert.equal(log.pending("a"), false);
    log.dispose();
    assert.equal(src.listeners(), 0);
  });

  it("a report just in may be followed by another pass: quiet for max(settle, how long the server took)", () => {
    const clock = fakeClock();
    const src = fakeReports();
    const log = new ReportLog(src, clock);
    assert.equal(log.quietLeft("a", BOUNDS), 0, "no report, nothing to wait out");
    log.changed("a");
    clock.advance(1_000);
    src.set("a", 0);
    assert.equal(log.quietLeft("a", BOUNDS), 2_500);
    clock.advance(2_500);
    assert.equal(log.quietLeft("a", BOUNDS), 0);
    log.changed("a");
    clock.advance(6_000); // a loaded machine: the first pass took 6 s
    src.set("a", 0);
    clock.advance(1_000);
    assert.equal(log.quietLeft("a", BOUNDS), 5_000);
    src.set("a", 0); // a second pass keeps the first one's delay
    assert.equal(log.quietLeft("a", BOUNDS), 6_000);
    log.dispose();
  });
});
