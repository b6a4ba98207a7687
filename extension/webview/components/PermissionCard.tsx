// A permission request in the transcript: its options as buttons (keys 1…n, a for allow once, r for reject
// once), "Reject with a note…" (n) when the agent offers a reject-once option, Dismiss (Esc, which rejects);
// once settled, how it was answered.
import type { Ref } from "preact";
import { memo } from "preact/compat";
import { Markdown } from "./Markdown";
import { useEffect, useRef, useState } from "preact/hooks";
import { permissionState, type PermissionEntry } from "../../common/transcript";
import { planOptionLabel } from "../../common/adapterConventions";
import { PERMISSION_NOTE_MAX, rejectWithNote } from "../../common/webviewProtocol";
import { noteKey } from "../composerKeys";
import { TEST_IDS } from "../testIds";
import { userIsTyping } from "../focus";
import { Icon } from "../icons";
import { post } from "../vscodeApi";

function shortcutFor(kind: string, i: number): string {
  return String(i + 1) + (kind === "allow_once" ? " / a" : kind === "reject_once" ? " / r" : "");
}

/** `pending` is the broker's word (the transcript's `pendingPermissions`); `e.outcome` is how it was settled. */
export const PermissionCard = memo(function PermissionCard({ e, pending }: { e: PermissionEntry; pending: boolean }) {
  const dismissButton = useRef<HTMLButtonElement>(null);
  const state = permissionState({ pendingPermissions: pending ? [e.requestId] : [] }, e);
  useEffect(() => {
    // A request arriving takes focus, unless the user is typing a message. Focus lands on Dismiss, so a
    // stray Enter rejects; the card's keys (1…n, a, r, Esc) work from there.
    if (pending && !userIsTyping()) dismissButton.current?.focus();
  }, [pending]);
  const noteButton = useRef<HTMLButtonElement>(null);
  const [noting, setNoting] = useState(false);
  const closeNote = () => {
    setNoting(false);
    noteButton.current?.focus(); // the field is gone: focus goes back to the button that opened it
  };
  const canNote = e.options.some((o) => o.kind === "reject_once");
  const onKey = (ev: KeyboardEvent) => {
    // The note field's keys are its own (typing "1" or "a" there answers nothing).
    if (!pending || noting) return;
    if (ev.key === "n" && canNote) {
      ev.preventDefault();
      setNoting(true);
      return;
    }
    if (ev.key === "Escape") {
      ev.preventDefault();
      ev.stopPropagation();
      post({ type: "permission/dismiss", requestId: e.requestId });
      return;
    }
    const n = Number(ev.key);
    let opt = Number.isInteger(n) && n >= 1 ? e.options[n - 1] : undefined;
    if (ev.key === "a") opt = e.options.find((o) => o.kind === "allow_once");
    if (ev.key === "r") opt = e.options.find((o) => o.kind === "reject_once");
    if (opt) {
      ev.preventDefault();
      post({ type: "permission/answer", requestId: e.requestId, optionId: opt.optionId });
    }
  };
  return (
    <div
      class={`card permission ${pending ? "pending" : "settled"}`}
      data-testid={TEST_IDS.permissionCard}
      data-request-id={e.requestId}
      data-state={state.state}
      role="group"
      aria-label={e.plan !== undefined ? `Plan to approve: ${e.title}` : `Approval needed: ${e.title}`}
      onKeyDown={onKey}
    >
      <div class="permission-title">
        <Icon name="shield" /> <span>{e.title}</span>
        {pending ? (
          <button
            ref={dismissButton}
            class="icon"
            data-testid={TEST_IDS.permissionDismiss}
            title="Dismiss (Esc) — rejects"
            aria-label="Dismiss (rejects)"
            onClick={() => post({ type: "permission/dismiss", requestId: e.requestId })}
          >
            <Icon name="close" />
          </button>
        ) : null}
      </div>
      {e.plan !== undefined ? (
        <div class="plan-approval" data-testid={TEST_IDS.planApproval}>
          <Markdown text={e.plan} />
        </div>
      ) : null}
      {pending ? (
        <PermissionOptions e={e} noting={noting} noteButton={noteButton} onNote={canNote ? () => setNoting(true) : undefined} />
      ) : (
        <div class="muted">{state.state === "selected" ? `Answered: ${state.optionName}` : "Cancelled"}</div>
      )}
      {pending && noting ? <RejectNote e={e} onClose={closeNote} /> : null}
    </div>
  );
});

/** The agent's options as buttons, then "Reject with a note…" when the agent offers a reject-once option. */
function PermissionOptions({
  e,
  noting,
  noteButton,
  onNote,
}: {
  e: PermissionEntry;
  noting: boolean;
  noteButton: Ref<HTMLButtonElement>;
  /** Absent: the agent offers no reject-once option, so there is nothing to attach a note to. */
  onNote: (() => void) | undefined;
}) {
  return (
    <div class="permission-options">
      {e.options.map((o, i) => (
        <button
          key={o.optionId}
          class={o.kind.startsWith("allow") ? "primary" : "secondary"}
          data-testid={TEST_IDS.permissionOption}
          data-option-id={o.optionId}
          data-kind={o.kind}
          title={`Shortcut: ${shortcutFor(o.kind, i)}`}
          onClick={() => post({ type: "permission/answer", requestId: e.requestId, optionId: o.optionId })}
        >
          {planOptionLabel(e, o)} <kbd>{i + 1}</kbd>
        </button>
      ))}
      {onNote ? (
        <button
          ref={noteButton}
          class="secondary"
          data-testid={TEST_IDS.permissionRejectNote}
          title="Shortcut: n — tell the agent why"
          aria-expanded={noting}
          onClick={onNote}
        >
          Reject with a note…
        </button>
      ) : null}
    </div>
  );
}

/** The note field: focused on open; Enter rejects with the note, Shift+Enter is a new line, Escape closes it. */
function RejectNote({ e, onClose }: { e: PermissionEntry; onClose: () => void }) {
  const input = useRef<HTMLTextAreaElement>(null);
  useEffect(() => input.current?.focus(), []);
  const onKey = (ev: KeyboardEvent) => {
    const action = noteKey(ev);
    if (action === "none") return;
    ev.preventDefault();
    ev.stopPropagation(); // Escape here closes the field; it must not dismiss the card
    if (action === "cancel") return onClose();
    const msg = rejectWithNote(e.requestId, e.options, input.current?.value ?? "");
    if (msg) post(msg);
  };
  return (
    <div class="permission-note">
      <textarea
        ref={input}
        data-testid={TEST_IDS.permissionNoteInput}
        rows={2}
        maxLength={PERMISSION_NOTE_MAX}
        aria-label="Note for the agent: why you reject this call (Enter sends, Escape cancels)"
        placeholder="Why? The agent reads this (Enter sends, Shift+Enter new line, Esc cancels)"
        onKeyDown={onKey}
      />
    </div>
  );
}
