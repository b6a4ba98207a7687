// The host side of a panel's checkpoint UI: the changes list (keep/undo, open diff), restore with a
// confirmation that lists every file first, undo of a restore, and edit-and-resend.
import { randomBytes } from "node:crypto";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { ChangesView, HostToWebview, RestoreDoneView, RestorePlanView, WebviewToHost } from "../common/webviewProtocol";
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
  session: FolderSession;
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
}

export function isReviewMessage(msg: WebviewToHost): msg is ReviewMessage {
  return msg.type.startsWith("changes/") || msg.type.startsWith("restore/") || msg.type === "prompt/edit";
}

export class CheckpointReview {
  readonly #pending = new Map<string, Pending>();

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

  async refresh(): Promise<void> {
    const r = this.deps.checkpoints();
    const sessionId = this.deps.session.sessionId;
    let changes: ChangesView;
    if ("unavailable" in r) changes = { files: [], unavailable: r.unavailable };
    else if (!sessionId) changes = { files: [] };
    else {
      const c = await r.ck.changes(sessionId);
      changes = { files: c.files, ...(c.baseline ? { baselineLabel: c.baseline.label } : {}) };
    }
    this.deps.post({ type: "changes", changes });
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
        if (out) this.#done(out);
        return this.refresh();
      }
      case "restore/ask":
        return this.ask(msg.promptIndex, msg.checkpointId);
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

  /** Shows what restoring would change (before message `promptIndex`, or checkpoint `checkpointId`). */
  async ask(promptIndex: number | undefined, checkpointId: string | undefined, resendText?: string): Promise<void> {
    const ck = this.#ck();
    const sessionId = this.#sessionId();
    if (this.deps.session.state.running) throw new Error("A turn is running; cancel it before restoring a checkpoint.");
    const list = await ck.list(sessionId);
    const rec =
      checkpointId !== undefined
        ? list.find((c) => c.id === checkpointId)
        : [...list].reverse().find((c) => c.kind === "prompt" && c.promptIndex === promptIndex);
    if (!rec) throw new Error("There is no checkpoint for that message (it was sent before checkpoints were taken, or they were deleted).");
    const plan = await ck.planRestore(sessionId, rec.id);
    const resend = resendText !== undefined && promptIndex !== undefined ? { promptIndex, text: resendText } : undefined;
    const planId = randomBytes(8).toString("hex");
    this.#pending.clear();
    this.#pending.set(planId, { plan, ...(resend ? { resend } : {}) });
    if (resend && plan.items.length === 0) return this.confirm(planId, true); // nothing to restore: just resend
    const view: RestorePlanView = {
      planId,
      label: rec.kind === "prompt" ? `before “${rec.label}”` : `before the ${rec.label}`,
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
      const out = await ck.restore(pending.plan, skip);
      this.#done(out);
    }
    await this.refresh();
    if (pending.resend) {
      const { promptIndex, text } = pending.resend;
      await this.deps.session.editAndResend(promptIndex, this.deps.promptBlocks(text), { text, attachments: [] });
      await this.refresh();
    }
  }

  #done(out: RestoreOutcome): void {
    const failures = out.results.filter((r) => !r.ok).map((r) => ({ path: r.path, reason: r.reason ?? "failed" }));
    const done: RestoreDoneView = { undoCheckpointId: out.undo.id, restored: out.results.length - failures.length, failures };
    this.deps.post({ type: "restore/done", done });
    const s = this.deps.session;
    if (failures.length > 0) {
      s.emit({
        type: "notice",
        severity: "warning",
        text: `Restored ${done.restored} of ${out.results.length} files; not restored: ${failures.map((f) => `${f.path} (${f.reason})`).join("; ")}. Undo the restore to get the state before it back.`,
      });
    }
  }
}
