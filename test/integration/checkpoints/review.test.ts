// The panel's review flow on the host side (CheckpointReview over a real folder's checkpoints): the
// user's own edits marked and kept, the banner that undoes exactly what it names, and a changes list
// that is posted as the disk is now.
import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { FolderCheckpoints } from "../../../extension/checkpoints/folderCheckpoints";
import { CheckpointReview, type ReviewDeps } from "../../../extension/checkpoints/review";
import type { ChangesView, HostToWebview, RestoreDoneView, RestorePlanView } from "../../../extension/common/webviewProtocol";
import { restoreChoices } from "../../../extension/webview/reviewTexts";
import { read, tempBase, write } from "./helpers";

/** Holds the first `changes()` answer back until `release()`, after it was computed (a slow, stale refresh). */
class SlowFirstChanges extends FolderCheckpoints {
  #held: Promise<void> | undefined;
  release: () => void = () => {};
  calls = 0;
  /** Answers computed (the held one included). */
  computed = 0;

  hold(): void {
    this.#held = new Promise((resolve) => (this.release = resolve));
  }

  #heldList: Promise<void> | undefined;
  releaseList: () => void = () => {};
  listCalls = 0;

  /** Holds the next `list()` back until `releaseList()`, before it reads the records. */
  holdList(): void {
    this.#heldList = new Promise((resolve) => (this.releaseList = resolve));
  }

  override async list(sessionId: string): ReturnType<FolderCheckpoints["list"]> {
    this.listCalls++;
    const held = this.#heldList;
    this.#heldList = undefined;
    if (held) await held;
    return super.list(sessionId);
  }

  override async changes(sessionId: string): ReturnType<FolderCheckpoints["changes"]> {
    this.calls++;
    const c = await super.changes(sessionId);
    this.computed++;
    const held = this.#held;
    this.#held = undefined;
    if (held) await held;
    return c;
  }
}

function setup() {
  const base = tempBase();
  const folder = join(base, "proj");
  mkdirSync(folder);
  const ck = new SlowFirstChanges(join(base, "storage"), folder);
  const posted: HostToWebview[] = [];
  const session = {
    sessionId: "s",
    state: { running: false },
    forgetsOnResend: false,
    emit: () => {},
    editAndResend: async () => {},
  } as unknown as ReviewDeps["session"];
  const review = new CheckpointReview({
    session,
    checkpoints: () => ({ ck }),
    docs: { openDiff: async () => {} },
    post: (m) => void posted.push(m),
    promptBlocks: (text) => [{ type: "text", text }],
  });
  /** The list and banner as the webview holds them after everything posted so far. */
  const view = () => {
    let changes: ChangesView | undefined;
    let done: RestoreDoneView | undefined;
    let plan: RestorePlanView | undefined;
    for (const m of posted) {
      if (m.type === "changes") changes = m.changes;
      if (m.type === "restore/plan") plan = m.plan;
      if (m.type === "restore/done") {
        done = m.done;
        if (m.changes) changes = m.changes;
      }
    }
    return { changes, done, plan };
  };
  const rows = () => (view().changes?.files ?? []).map((f) => `${f.path}${f.userEdit ? " (mine)" : ""}`);
  /** An agent turn: a checkpoint, the agent's writes, the turn's end. */
  const turn = async (index: number, writes: Record<string, string>) => {
    await ck.beforePrompt("s", index, `turn ${index}`);
    for (const [rel, text] of Object.entries(writes)) write(folder, rel, text);
    await ck.afterTurn("s");
  };
  return { folder, ck, review, posted, view, rows, turn };
}

test("I-105: the changes list marks the files the user changed by hand; Undo all leaves them and names them", async () => {
  const { folder, review, view, rows, turn } = setup();
  write(folder, "agent.txt", "a1\n");
  write(folder, "mine.txt", "m1\n");
  await turn(0, { "agent.txt": "a2 by the agent\n" });
  write(folder, "mine.txt", "m2 by hand\n"); // after the turn ended: the user's
  await review.refresh();
  assert.deepEqual(rows(), ["agent.txt", "mine.txt (mine)"]);

  await review.handle({ type: "changes/undo", paths: "all" });
  assert.equal(read(folder, "agent.txt"), "a1\n", "the agent's change is undone");
  assert.equal(read(folder, "mine.txt"), "m2 by hand\n", "the user's own edit is left as it is");
  const { done } = view();
  assert.deepEqual(
    { kind: done?.kind, paths: done?.paths, kept: done?.kept },
    { kind: "undo", paths: ["agent.txt"], kept: ["mine.txt"] },
    "the banner names the edit it left",
  );
  assert.deepEqual(rows(), ["mine.txt (mine)"]);
});

test("I-105: the restore confirmation marks the hand-edited file and keeping it is the primary choice, which leaves it", async () => {
  const { folder, review, view, turn } = setup();
  write(folder, "agent.txt", "a1\n");
  write(folder, "mine.txt", "m1\n");
  await turn(0, { "agent.txt": "a2\n" });
  write(folder, "mine.txt", "m2 by hand\n");
  await turn(1, { "agent.txt": "a3\n" });
  await review.handle({ type: "restore/ask", promptIndex: 0 });
  const plan = view().plan;
  assert.ok(plan);
  assert.deepEqual(plan.items.map((i) => `${i.path}${i.userEdit ? " (mine)" : ""}`).sort(), ["agent.txt", "mine.txt (mine)"]);
  assert.equal(plan.label, "before “turn 0”");
  const [first, second] = restoreChoices(plan);
  assert.deepEqual(
    [first, second].map((c) => c && `${c.primary ? "primary" : "secondary"}: ${c.label}`),
    ["primary: Restore, keep my edits", "secondary: Restore all, including my edits"],
  );
  await review.handle({ type: "restore/confirm", planId: plan.planId, keepUserEdits: first!.keepUserEdits });
  assert.equal(read(folder, "agent.txt"), "a1\n");
  assert.equal(read(folder, "mine.txt"), "m2 by hand\n");
});

test("I-105: a per-file Undo offers Undo this undo, which brings back that file only; Undo restore brings back exactly the state before", async () => {
  const { folder, review, view, rows, turn } = setup();
  write(folder, "a.txt", "a1\n");
  write(folder, "b.txt", "b1\n");
  await turn(0, { "a.txt": "a2\n", "b.txt": "b2\n" });
  await review.handle({ type: "changes/undo", paths: ["b.txt"] });
  assert.equal(read(folder, "b.txt"), "b1\n");
  const undo = view().done;
  assert.deepEqual({ kind: undo?.kind, paths: undo?.paths }, { kind: "undo", paths: ["b.txt"] });
  write(folder, "c.txt", "the user's new file\n"); // after the undo, not part of it

  await review.handle({ type: "restore/undo", checkpointId: undo!.undoCheckpointId });
  const plan = view().plan;
  assert.deepEqual(
    plan?.items.map((i) => i.path),
    ["b.txt"],
    "undoing the undo changes only what the undo changed",
  );
  await review.handle({ type: "restore/confirm", planId: plan!.planId, keepUserEdits: true });
  assert.deepEqual([read(folder, "a.txt"), read(folder, "b.txt"), read(folder, "c.txt")], ["a2\n", "b2\n", "the user's new file\n"]);
  assert.equal(view().done?.kind, "revert");
  assert.deepEqual(rows(), ["a.txt", "b.txt", "c.txt (mine)"]);

  // A restore to before the turn, then its undo: the state before the restore, c.txt included.
  await review.handle({ type: "restore/ask", promptIndex: 0 });
  await review.handle({ type: "restore/confirm", planId: view().plan!.planId, keepUserEdits: false });
  assert.deepEqual([read(folder, "a.txt"), read(folder, "b.txt"), existsSync(join(folder, "c.txt"))], ["a1\n", "b1\n", false]);
  const restored = view().done;
  assert.equal(restored?.kind, "restore");
  assert.equal(restored?.label, "turn 0");
  assert.deepEqual(rows(), []);
  await review.handle({ type: "restore/undo", checkpointId: restored!.undoCheckpointId });
  await review.handle({ type: "restore/confirm", planId: view().plan!.planId, keepUserEdits: false });
  assert.deepEqual([read(folder, "a.txt"), read(folder, "b.txt"), read(folder, "c.txt")], ["a2\n", "b2\n", "the user's new file\n"]);
  assert.deepEqual(rows(), ["a.txt", "b.txt", "c.txt (mine)"]);
});

test("I-105: once a later turn is checkpointed the banner goes, and its undo is refused", async () => {
  const { folder, ck, review, view, turn } = setup();
  write(folder, "a.txt", "a1\n");
  await turn(0, { "a.txt": "a2\n" });
  await review.handle({ type: "changes/undo", paths: ["a.txt"] });
  const undo = view().done;
  assert.equal(undo?.kind, "undo");
  await review.refresh(); // a refresh with nothing new keeps it
  assert.equal(view().done, undo);

  await ck.beforePrompt("s", 1, "a later turn");
  write(folder, "a.txt", "a3 by the later turn\n");
  await review.refresh(); // as the panel does when the records change
  assert.equal(view().done, undefined, "the banner of the earlier undo is gone");
  await assert.rejects(review.handle({ type: "restore/undo", checkpointId: undo!.undoCheckpointId }), /no longer be undone/);
  assert.equal(read(folder, "a.txt"), "a3 by the later turn\n");
});

test("I-105: after an undo the banner and the list arrive in one message, as the disk is; a refresh older than one posted is dropped", async () => {
  const { folder, ck, review, posted, rows, turn } = setup();
  write(folder, "a.txt", "a1\n");
  await turn(0, { "a.txt": "a2\n", "new.txt": "new\n" });
  await review.refresh();
  assert.deepEqual(rows(), ["a.txt", "new.txt"]);

  const from = posted.length;
  await review.handle({ type: "changes/undo", paths: ["new.txt"] });
  const sent = posted.slice(from).filter((m) => m.type === "changes" || m.type === "restore/done");
  assert.equal(sent.length, 1, `one message for the banner and the list: ${JSON.stringify(sent.map((m) => m.type))}`);
  assert.equal(sent[0]?.type, "restore/done");
  assert.deepEqual(sent[0]?.type === "restore/done" ? sent[0].changes?.files.map((f) => f.path) : undefined, ["a.txt"]);

  // A slow refresh computed before a file appeared finishes after a newer one was posted: dropped.
  ck.hold();
  const computed = ck.computed;
  const slow = review.refresh();
  while (ck.computed === computed) await new Promise((resolve) => setImmediate(resolve));
  write(folder, "late.txt", "late\n");
  await review.refresh();
  assert.deepEqual(rows(), ["a.txt", "late.txt (mine)"]);
  ck.release();
  await slow;
  assert.deepEqual(rows(), ["a.txt", "late.txt (mine)"], "the older refresh did not bring back a stale list");
});

test("refreshes asked for by file changes run one at a time, with one more after the one running", async () => {
  const { folder, ck, review, rows, turn } = setup();
  await turn(0, { "a.txt": "a\n" });
  ck.hold();
  const calls = ck.calls;
  const errors: unknown[] = [];
  review.refreshSoon((e) => errors.push(e));
  write(folder, "b.txt", "b\n");
  review.refreshSoon((e) => errors.push(e));
  review.refreshSoon((e) => errors.push(e));
  ck.release();
  while (rows().length < 2) await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(rows(), ["a.txt", "b.txt (mine)"]);
  assert.equal(ck.calls - calls, 2, "three requests, two refreshes");
  assert.deepEqual(errors, []);
});

test("I-105: a refresh that judged the previous banner stale never takes away the banner of a restore applied meanwhile", async () => {
  const { folder, ck, review, view, turn } = setup();
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  write(folder, "a.txt", "a1\n");
  await turn(0, { "a.txt": "a2\n" });
  await review.handle({ type: "changes/undo", paths: ["a.txt"] });
  const undo = view().done;
  assert.equal(undo?.kind, "undo");
  await review.handle({ type: "restore/undo", checkpointId: undo!.undoCheckpointId });
  const planId = view().plan!.planId;

  // A refresh starts with the undo's banner and reads the records only after the next restore wrote its own.
  ck.holdList();
  const lists = ck.listCalls;
  const before = ck.computed;
  const slow = review.refresh();
  while (ck.listCalls === lists || ck.computed === before) await tick();
  // The restore is applied and its banner set; its changes list is still being computed.
  ck.hold();
  const computed = ck.computed;
  const confirm = review.handle({ type: "restore/confirm", planId, keepUserEdits: false });
  while (ck.computed === computed) await tick();
  ck.releaseList();
  await slow;
  ck.release();
  await confirm;
  assert.equal(read(folder, "a.txt"), "a2\n");
  assert.equal(view().done?.kind, "revert", "the banner of the restore just applied was taken away");
});
