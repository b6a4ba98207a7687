// The host side of a panel's checkpoint UI: the changes list (keep/undo, open diff), restore with a
// confirmation that lists every file first, the banner that undoes the last restore or undo (only
// the files it changed, and only while nothing later was checkpointed), and edit-and-resend. The
// list is posted as it is on disk now: a refresh older than one already posted is dropped, and the
// banner travels with the list it belongs to.
import { randomBytes } from "node:crypto";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { oneLine, quotePrompt } from "../common/text";
import type { ChangesView, HostToWebview, RestoreDoneView, RestorePlanView } from "../common/webviewProtocol";
import type { WebviewToHost } from "../common/webviewMessages";
import type { FolderSession } from "../sessions/folderSession";
import type { FolderCheckpoints, RestoreOutcome, RestorePlan } from "./folderCheckpoints";

export type ReviewMessage = Extract<
  WebviewToHost,
  {
    type:
      | "changes/refresh"
      | "changes/open"
      | "changes/keep"
      | "changes/undo"
      | "restore/ask"
      | "restore/undo"
      | "prompt/edit"
      | "restore/confirm"
      | "restore/cancel";
  }
>;

/** Opens a changed file against its baseline (VS Code's diff editor; the editor half lives in extension/vscode/). */
export interface ChangeDiffs {
  openDiff(ck: FolderCheckpoints, sessionId: string, rel: string, status: "A" | "D" | "M"): Promise<void>;
}

export interface ReviewDeps {
  session: Pick<FolderSession, "sessionId" | "state" | "forgetsOnResend" | "emit" | "editAndResend">;
  /** Undefined when checkpoints are unavailable (with the reason). */
  checkpoints(): { ck: FolderCheckpoints } | { unavailable: string };
  docs: ChangeDiffs;
  post(msg: HostToWebview): void;
  /** The blocks for an edited message (same path as the composer). */
  promptBlocks(text: string): ContentBlock[];
}

interface Pending {
  plan: RestorePlan;
  resend?: { promptIndex: number; text: string };
  /** What the banner says once it is applied. */
  kind: RestoreDoneView["kind"];
}

function changesView(c: Awaited<ReturnType<FolderCheckpoints["changes"]>>): ChangesView {
  return { files: c.files, ...(c.baseline ? { baselineLabel: oneLine(c.baseline.label, 60) } : {}) };
}

export function isReviewMessage(msg: WebviewToHost): msg is ReviewMessage {
  return msg.type.startsWith("changes/") || msg.type.startsWith("restore/") || msg.type === "prompt/edit";
}

export class CheckpointReview {
  readonly #pending = new Map<string, Pending>();
  /** The banner shown now (it undoes the last record of the session, and nothing else). */
  #banner: RestoreDoneView | undefined;
  /** Refreshes started, and the latest one posted: an older one finishing later is dropped. */
  #started = 0;
  #posted = 0;

  constructor(private readonly deps: ReviewDeps) {}

  #ck(): FolderCheckpoints {
    const r = this.deps.checkpoints();
    if ("unavailable" in r) throw new Error(r.unavailable);
    return r.ck;
  }

  #sessionId(): string {
    const id = this.deps.session.sessionId;
    if (!id) throw new Error("No session is attached to this folder.");
    return id;
  }

  #soon: "idle" | "running" | "again" = "idle";

  /** A refresh for a file change seen on disk: one at a time, and one more after it when more came meanwhile. */
  refreshSoon(onError: (err: unknown) => void): void {
    if (this.#soon !== "idle") {
      this.#soon = "again";
      return;
    }
    this.#soon = "running";
    void this.refresh()
      .catch(onError)
      .finally(() => {
        const again = this.#soon === "again";
        this.#soon = "idle";
        if (again) this.refreshSoon(onError);
      });
  }

  /** Posts the changes list; the banner goes with it once a later checkpoint (a turn, a restore) exists. */
  async refresh(): Promise<void> {
    const seq = ++this.#started;
    const r = this.deps.checkpoints();
    const sessionId = this.deps.session.sessionId;
    let changes: ChangesView;
    let stale = false;
    // The banner this refresh judges; a restore applied meanwhile sets a newer one, which is not stale.
    const banner = this.#banner;
    if ("unavailable" in r) changes = { files: [], unavailable: r.unavailable };
    else if (!sessionId) changes = { files: [] };
    else {
      const [c, list] = await Promise.all([r.ck.changes(sessionId), banner ? r.ck.list(sessionId) : Promise.resolve([])]);
      stale = banner !== undefined && list[list.length - 1]?.id !== banner.undoCheckpointId;
      changes = changesView(c);
    }
    if (seq < this.#posted) return; // a later refresh already posted what is on disk now
    this.#posted = seq;
    if (stale && this.#banner === banner) {
      this.#banner = undefined;
      this.deps.post({ type: "restore/done", done: undefined, changes });
    } else this.deps.post({ type: "changes", changes });
  }

  async handle(msg: ReviewMessage): Promise<void> {
    switch (msg.type) {
      case "changes/refresh":
        return this.refresh();
      case "changes/open": {
        const ck = this.#ck();
        const sessionId = this.#sessionId();
        const file = (await ck.changes(sessionId)).files.find((f) => f.path === msg.path);
        if (file) await this.deps.docs.openDiff(ck, sessionId, file.path, file.status);
        return;
      }
      case "changes/keep":
        await this.#ck().keep(this.#sessionId(), msg.paths);
        return this.refresh();
      case "changes/undo": {
        const out = await this.#ck().undoFiles(this.#sessionId(), msg.paths);
        return out ? this.#done(out, "undo") : this.refresh();
      }
      case "restore/ask":
        return this.ask(msg.promptIndex, msg.checkpointId);
      case "restore/undo":
        return this.undoLast(msg.checkpointId);
      case "prompt/edit":
        return this.ask(msg.promptIndex, undefined, msg.text);
      case "restore/confirm":
        return this.confirm(msg.planId, msg.keepUserEdits);
      case "restore/cancel":
        this.#pending.delete(msg.planId);
        this.deps.post({ type: "restore/plan", plan: undefined });
        return;
    }
  }

  /** The banner's undo: back to the checkpoint taken before it, for the files it changed only. */
  async undoLast(checkpointId: string): Promise<void> {
    const banner = this.#banner;
    if (!banner || banner.kind === "revert" || banner.undoCheckpointId !== checkpointId)
      throw new Error("That can no longer be undone from here (something later changed the files); use Restore Checkpoint to pick one.");
    return this.ask(undefined, checkpointId, undefined, { only: banner.paths, kind: "revert" });
  }

  /** Shows what restoring would change (before message `promptIndex`, or checkpoint `checkpointId`). */
  async ask(
    promptIndex: number | undefined,
    checkpointId: string | undefined,
    resendText?: string,
    undoing?: { only: string[]; kind: "revert" },
  ): Promise<void> {
    const ck = this.#ck();
    const sessionId = this.#sessionId();
    if (this.deps.session.state.running) throw new Error("A turn is running; cancel it before restoring a checkpoint.");
    const list = await ck.list(sessionId);
    const rec =
      checkpointId !== undefined
        ? list.find((c) => c.id === checkpointId)
        : [...list].reverse().find((c) => c.kind === "prompt" && c.promptIndex === promptIndex);
    if (!rec) throw new Error("There is no checkpoint for that message (it was sent before checkpoints were taken, or they were deleted).");
    const plan = await ck.planRestore(sessionId, rec.id, undoing?.only);
    const resend = resendText !== undefined && promptIndex !== undefined ? { promptIndex, text: resendText } : undefined;
    const planId = randomBytes(8).toString("hex");
    this.#pending.clear();
    this.#pending.set(planId, { plan, kind: undoing?.kind ?? "restore", ...(resend ? { resend } : {}) });
    if (resend && plan.items.length === 0) return this.confirm(planId, true); // nothing to restore: just resend
    const view: RestorePlanView = {
      planId,
      label: rec.kind === "prompt" ? `before ${quotePrompt(rec.label)}` : `before the ${oneLine(rec.label, 80)}`,
      items: plan.items.map((i) => ({
        path: i.path,
        action: i.action,
        added: i.added,
        removed: i.removed,
        ...(i.userEdit ? { userEdit: i.userEdit } : {}),
        ...(i.leaveAlone ? { leaveAlone: i.leaveAlone } : {}),
      })),
      ...(resend ? { resendText: resend.text, agentRemembers: !this.deps.session.forgetsOnResend } : {}),
    };
    this.deps.post({ type: "restore/plan", plan: view });
  }

  async confirm(planId: string, keepUserEdits: boolean): Promise<void> {
    const pending = this.#pending.get(planId);
    if (!pending) throw new Error("That restore is no longer pending; ask for it again.");
    this.#pending.delete(planId);
    this.deps.post({ type: "restore/plan", plan: undefined });
    const ck = this.#ck();
    const skip = new Set(keepUserEdits ? pending.plan.items.filter((i) => i.userEdit).map((i) => i.path) : []);
    if (pending.plan.items.length > 0) {
      const label = pending.kind === "restore" ? pending.plan.checkpoint.label : undefined;
      await this.#done(await ck.restore(pending.plan, skip), pending.kind, label);
    } else await this.refresh();
    if (pending.resend) {
      const { promptIndex, text } = pending.resend;
      await this.deps.session.editAndResend(promptIndex, this.deps.promptBlocks(text), { text, attachments: [] });
      await this.refresh();
    }
  }

  /** The banner of a restore or undo just applied, posted with the changes list as it is now. */
  async #done(out: RestoreOutcome, kind: RestoreDoneView["kind"], label?: string): Promise<void> {
    const failures = out.results.filter((r) => !r.ok).map((r) => ({ path: r.path, reason: r.reason ?? "failed" }));
    const done: RestoreDoneView = {
      kind,
      undoCheckpointId: out.undo.id,
      ...(label !== undefined ? { label: oneLine(label, 60) } : {}),
      restored: out.results.length - failures.length,
      paths: out.results.filter((r) => r.ok).map((r) => r.path),
      failures,
      kept: out.kept.map((k) => k.path),
    };
    this.#banner = done;
    const seq = ++this.#started;
    const changes = await this.#changesNow();
    if (seq >= this.#posted && this.#banner === done) {
      this.#posted = seq;
      this.deps.post({ type: "restore/done", done, changes });
    }
    if (failures.length > 0) {
      this.deps.session.emit({
        type: "notice",
        severity: "warning",
        text: `Changed ${done.restored} of ${out.results.length} files; not changed: ${failures.map((f) => `${f.path} (${f.reason})`).join("; ")}. Undo it from the banner to get the state before it back.`,
      });
    }
  }

  async #changesNow(): Promise<ChangesView> {
    return changesView(await this.#ck().changes(this.#sessionId()));
  }
}
