// The Sessions view redraws only when what it shows changed (activity, waiting count, current session,
// its title), at most once per REFRESH_MS: streamed text deltas alone never redraw it. The timer is a
// fake the test runs by hand, so nothing here waits on a clock.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { TranscriptEvent } from "../../../extension/common/transcript";
import { toDisposable, type IDisposable } from "../../../extension/common/lifecycle";
import { FolderSession, type SessionActivity } from "../../../extension/sessions/folderSession";
import { REFRESH_MS, SessionsViewRefresh, type RefreshTimer, type ShownSession } from "../../../extension/sessions/sessionsViewRefresh";
import { createNoSandbox } from "../../../sandbox/none";

/** Timers that fire only when the test says so. */
class FakeTimer implements RefreshTimer {
  readonly due: { fn: () => void; ms: number }[] = [];
  set(fn: () => void, ms: number): IDisposable {
    const t = { fn, ms };
    this.due.push(t);
    return toDisposable(() => {
      const i = this.due.indexOf(t);
      if (i >= 0) this.due.splice(i, 1);
    });
  }
  /** Fires every timer set so far, as if their time had come. */
  fire(): void {
    for (const t of this.due.splice(0)) t.fn();
  }
}

function delta(text: string): TranscriptEvent {
  return { type: "acp", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } };
}

function fakeSession(folder: string): ShownSession & { activity: SessionActivity; pending: unknown[]; state: { title?: string } } {
  return { folder, activity: "idle", pending: [], pendingQuestions: [], sessionId: "s1", state: {} };
}

function setup(sessions: () => Iterable<ShownSession>): { refresh: SessionsViewRefresh; timer: FakeTimer; redraws: () => number } {
  const timer = new FakeTimer();
  let redraws = 0;
  const refresh = new SessionsViewRefresh({ sessions, redraw: () => void redraws++, timer });
  return { refresh, timer, redraws: () => redraws };
}

test("a real folder session's text deltas never redraw the view; its title changing redraws it exactly once", () => {
  const s = new FolderSession("/w/alpha", "alpha", {
    bindings: { get: () => undefined, set: () => undefined },
    editor: { openDocumentText: () => undefined, writeOpenDocument: async () => false },
    terminalSandbox: async () => createNoSandbox({}, "none"),
  });
  const { refresh, timer, redraws } = setup(() => [s]);
  s.onDidEmit(() => refresh.sessionsChanged());

  for (let i = 0; i < 200; i++) s.emit(delta(`chunk ${i} `));
  assert.equal(timer.due.length, 0, "no redraw is even scheduled");
  timer.fire();
  assert.equal(redraws(), 0);

  s.emit({ type: "acp", update: { sessionUpdate: "session_info_update", title: "Fix the parser" } });
  for (let i = 0; i < 50; i++) s.emit(delta(`more ${i} `));
  assert.deepEqual(
    timer.due.map((t) => t.ms),
    [REFRESH_MS],
  );
  timer.fire();
  assert.equal(redraws(), 1);

  for (let i = 0; i < 50; i++) s.emit(delta(`after ${i} `));
  timer.fire();
  assert.equal(redraws(), 1, "deltas after the redraw add none");
  refresh.dispose();
  s.dispose();
});

test("an activity change among many deltas redraws once; changes within one period share one redraw", () => {
  const a = fakeSession("/w/a");
  const b = fakeSession("/w/b");
  const { refresh, timer, redraws } = setup(() => [a, b]);

  for (let i = 0; i < 100; i++) refresh.sessionsChanged();
  timer.fire();
  assert.equal(redraws(), 0);

  a.activity = "running";
  refresh.sessionsChanged();
  for (let i = 0; i < 100; i++) refresh.sessionsChanged();
  assert.equal(timer.due.length, 1);
  timer.fire();
  assert.equal(redraws(), 1);

  // Two visible changes before the timer fires: one redraw shows both.
  b.pending.push({});
  refresh.sessionsChanged();
  a.activity = "idle";
  refresh.sessionsChanged();
  assert.equal(timer.due.length, 1);
  timer.fire();
  assert.equal(redraws(), 2);

  refresh.dispose();
});

test("invalidate redraws without a visible change; dispose cancels a scheduled redraw", () => {
  const a = fakeSession("/w/a");
  const { refresh, timer, redraws } = setup(() => [a]);
  refresh.invalidate();
  refresh.invalidate();
  timer.fire();
  assert.equal(redraws(), 1);

  a.activity = "needs-approval";
  refresh.sessionsChanged();
  refresh.dispose();
  assert.equal(timer.due.length, 0);
  timer.fire();
  assert.equal(redraws(), 1);
});
