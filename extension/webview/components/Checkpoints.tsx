// The changes list (files changed since the last prompt's checkpoint, keep/undo, open the diff), the
// restore confirmation (every file listed first, the user's own edits marked) and the restore outcome.
import type { ChangesView, RestoreDoneView, RestorePlanView } from "../../common/webviewProtocol";
import { TEST_IDS } from "../testIds";
import { Icon } from "../icons";
import { post } from "../vscodeApi";

function counts(added: number | null, removed: number | null) {
  if (added === null || removed === null) return <span class="muted">binary</span>;
  return (
    <span class="counts">
      <span class="added">+{added}</span> <span class="removed">−{removed}</span>
    </span>
  );
}

const STATUS = { A: "added", D: "deleted", M: "modified" } as const;

export function ChangesList({ changes, running }: { changes: ChangesView | undefined; running: boolean }) {
  if (!changes || (changes.files.length === 0 && !changes.unavailable)) return null;
  if (changes.unavailable) {
    return (
      <div class="changes muted" data-testid={TEST_IDS.changes} data-count="0">
        <Icon name="warning" /> {changes.unavailable}
      </div>
    );
  }
  return (
    <details class="changes" data-testid={TEST_IDS.changes} data-count={changes.files.length} open>
      <summary>
        <Icon name="diff" /> {changes.files.length} file{changes.files.length === 1 ? "" : "s"} changed
        {changes.baselineLabel ? <span class="muted"> since “{changes.baselineLabel.slice(0, 60)}”</span> : null}
        <span class="spacer" />
        <button
          class="secondary"
          data-testid={TEST_IDS.changesKeepAll}
          disabled={running}
          onClick={(ev) => (ev.preventDefault(), post({ type: "changes/keep", paths: "all" }))}
        >
          Keep all
        </button>
        <button
          class="secondary"
          data-testid={TEST_IDS.changesUndoAll}
          disabled={running}
          onClick={(ev) => (ev.preventDefault(), post({ type: "changes/undo", paths: "all" }))}
        >
          Undo all
        </button>
      </summary>
      <ul>
        {changes.files.map((f) => (
          <li key={f.path} data-testid={TEST_IDS.changesFile} data-path={f.path} data-status={f.status}>
            <button class="link" title={`Open the diff of ${f.path}`} onClick={() => post({ type: "changes/open", path: f.path })}>
              {f.path}
            </button>
            <span class={`status-${STATUS[f.status]}`}> {STATUS[f.status]} </span>
            {counts(f.added, f.removed)}
            <span class="spacer" />
            <button
              class="icon"
              data-testid={TEST_IDS.changesKeep}
              title={`Keep the change to ${f.path}`}
              aria-label={`Keep the change to ${f.path}`}
              disabled={running}
              onClick={() => post({ type: "changes/keep", paths: [f.path] })}
            >
              <Icon name="check" />
            </button>
            <button
              class="icon"
              data-testid={TEST_IDS.changesUndo}
              title={`Undo the change to ${f.path}`}
              aria-label={`Undo the change to ${f.path}`}
              disabled={running}
              onClick={() => post({ type: "changes/undo", paths: [f.path] })}
            >
              <Icon name="discard" />
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
}

export function RestoreConfirm({ plan }: { plan: RestorePlanView | undefined }) {
  if (!plan) return null;
  const mine = plan.items.filter((i) => i.userEdit && !i.leaveAlone);
  return (
    <div class="card restore-confirm" data-testid={TEST_IDS.restoreConfirm} role="dialog" aria-label="Restore checkpoint">
      <div class="card-title">
        <Icon name="history" /> Restore the files {plan.label}?
      </div>
      {plan.resendText !== undefined ? (
        <p>
          Then send: <q>{plan.resendText.slice(0, 200)}</q>
          {plan.agentRemembers ? (
            <strong> This agent cannot fork the conversation, so it still remembers the later turns.</strong>
          ) : (
            <span class="muted"> The conversation continues from that message; the later turns are forgotten.</span>
          )}
        </p>
      ) : null}
      <p class="muted">
        {plan.items.length === 0
          ? "No file changes."
          : `${plan.items.length} file${plan.items.length === 1 ? "" : "s"} will change. A checkpoint is taken first, so this can be undone.`}
      </p>
      <ul>
        {plan.items.map((i) => (
          <li key={i.path} data-testid={TEST_IDS.restoreItem} data-path={i.path} data-user-edit={i.userEdit ? "true" : "false"}>
            <Icon name={i.action === "delete" ? "trash" : "file"} /> {i.path}{" "}
            <span class="muted">{i.action === "delete" ? "deleted" : "restored"}</span> {counts(i.added, i.removed)}
            {i.userEdit ? <span class="warn"> — {i.userEdit}</span> : null}
            {i.leaveAlone ? <span class="muted"> — {i.leaveAlone}</span> : null}
          </li>
        ))}
      </ul>
      <div class="row">
        <button
          class="primary"
          data-testid={TEST_IDS.restoreApply}
          onClick={() => post({ type: "restore/confirm", planId: plan.planId, keepUserEdits: false })}
        >
          {mine.length > 0 ? "Restore all, including my edits" : "Restore"}
        </button>
        {mine.length > 0 ? (
          <button
            class="secondary"
            data-testid={TEST_IDS.restoreKeepMine}
            onClick={() => post({ type: "restore/confirm", planId: plan.planId, keepUserEdits: true })}
          >
            Restore, keep my {mine.length} edited file{mine.length === 1 ? "" : "s"}
          </button>
        ) : null}
        <button
          class="secondary"
          data-testid={TEST_IDS.restoreCancel}
          onClick={() => post({ type: "restore/cancel", planId: plan.planId })}
        >
          Cancel
        </button>
      </div>
    </div>
  );
}

export function RestoreDone({ done, onClose }: { done: RestoreDoneView | undefined; onClose(): void }) {
  if (!done) return null;
  return (
    <div
      class={`banner ${done.failures.length > 0 ? "warning" : "info"}`}
      data-testid={TEST_IDS.restoreDone}
      data-failures={done.failures.length}
    >
      <Icon name={done.failures.length > 0 ? "warning" : "check"} /> Restored {done.restored} file{done.restored === 1 ? "" : "s"}
      {done.failures.length > 0 ? `; ${done.failures.length} not restored (see the notice)` : ""}.
      <button
        class="link"
        data-testid={TEST_IDS.restoreUndo}
        onClick={() => (post({ type: "restore/ask", checkpointId: done.undoCheckpointId }), onClose())}
      >
        Undo restore
      </button>
      <button class="icon" title="Dismiss" aria-label="Dismiss" onClick={onClose}>
        <Icon name="close" />
      </button>
    </div>
  );
}
