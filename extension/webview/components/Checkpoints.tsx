// The changes list (files changed since the last prompt's checkpoint, the user's own edits marked,
// keep/undo, open the diff), the restore confirmation (every file listed first, the user's own edits
// marked, keeping them the default) and the banner of a restore or undo, which can undo it.
import { oneLine, quotePrompt } from "../../common/text";
import type { ChangesView, RestoreDoneView, RestorePlanView } from "../../common/webviewProtocol";
import { TEST_IDS } from "../testIds";
import { doneText, restoreChoices, undoLabel } from "../reviewTexts";
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

type ChangedFile = ChangesView["files"][number];

function ChangeRow({ f, running }: { f: ChangedFile; running: boolean }) {
  return (
    <li data-testid={TEST_IDS.changesFile} data-path={f.path} data-status={f.status} data-user-edit={f.userEdit ? "true" : "false"}>
      <button class="link" title={`Open the diff of ${f.path}`} onClick={() => post({ type: "changes/open", path: f.path })}>
        {f.path}
      </button>
      <span class={`status-${STATUS[f.status]}`}> {STATUS[f.status]} </span>
      {counts(f.added, f.removed)}
      {f.userEdit ? (
        <span class="warn" data-testid={TEST_IDS.changesUserEdit} title={f.userEdit}>
          {" "}
          edited by you
        </span>
      ) : null}
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
  );
}

export function ChangesList({ changes, running }: { changes: ChangesView | undefined; running: boolean }) {
  if (!changes || (changes.files.length === 0 && !changes.unavailable)) return null;
  if (changes.unavailable) {
    return (
      <div class="changes muted" data-testid={TEST_IDS.changes} data-count="0">
        <Icon name="warning" /> {changes.unavailable}
      </div>
    );
  }
  const mine = changes.files.filter((f) => f.userEdit).length;
  return (
    <details class="changes" data-testid={TEST_IDS.changes} data-count={changes.files.length} open>
      <summary>
        <Icon name="diff" /> {changes.files.length} file{changes.files.length === 1 ? "" : "s"} changed
        {changes.baselineLabel ? <span class="muted"> since {quotePrompt(changes.baselineLabel)}</span> : null}
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
          title={mine > 0 ? `Undo the agent's changes; your own edits to ${mine} file${mine === 1 ? "" : "s"} stay` : "Undo every change"}
          disabled={running}
          onClick={(ev) => (ev.preventDefault(), post({ type: "changes/undo", paths: "all" }))}
        >
          Undo all
        </button>
      </summary>
      <ul>
        {changes.files.map((f) => (
          <ChangeRow key={f.path} f={f} running={running} />
        ))}
      </ul>
    </details>
  );
}

export function RestoreConfirm({ plan }: { plan: RestorePlanView | undefined }) {
  if (!plan) return null;
  return (
    <div class="card restore-confirm" data-testid={TEST_IDS.restoreConfirm} role="dialog" aria-label="Restore checkpoint">
      <div class="card-title">
        <Icon name="history" /> Restore the files {plan.label}?
      </div>
      {plan.resendText !== undefined ? (
        <p>
          Then send: <q>{oneLine(plan.resendText, 200)}</q>
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
        {restoreChoices(plan).map((c) => (
          <button
            key={c.testId}
            class={c.primary ? "primary" : "secondary"}
            data-testid={TEST_IDS[c.testId]}
            title={c.title}
            onClick={() => post({ type: "restore/confirm", planId: plan.planId, keepUserEdits: c.keepUserEdits })}
          >
            {c.label}
          </button>
        ))}
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
  const undo = undoLabel(done);
  return (
    <div
      class={`banner ${done.failures.length > 0 ? "warning" : "info"}`}
      data-testid={TEST_IDS.restoreDone}
      data-kind={done.kind}
      data-failures={done.failures.length}
      data-kept={done.kept.join("\n")}
    >
      <Icon name={done.failures.length > 0 ? "warning" : "check"} /> {doneText(done)}
      {undo ? (
        <button
          class="link"
          data-testid={TEST_IDS.restoreUndo}
          title={`Bring back what it changed: ${oneLine(done.paths.join(", "), 200)}`}
          onClick={() => (post({ type: "restore/undo", checkpointId: done.undoCheckpointId }), onClose())}
        >
          {undo}
        </button>
      ) : null}
      <button class="icon" title="Dismiss" aria-label="Dismiss" onClick={onClose}>
        <Icon name="close" />
      </button>
    </div>
  );
}
