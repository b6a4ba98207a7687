// A permission request in the transcript: its options as buttons (keys 1…n, a for allow once, r for reject
// once), Dismiss (Esc, which rejects); once settled, how it was answered.
import { memo } from "preact/compat";
import { useEffect, useRef } from "preact/hooks";
import { permissionState, type PermissionEntry } from "../../common/transcript";
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
  const onKey = (ev: KeyboardEvent) => {
    if (!pending) return;
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
      aria-label={`Approval needed: ${e.title}`}
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
      {pending ? (
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
              {o.name} <kbd>{i + 1}</kbd>
            </button>
          ))}
        </div>
      ) : (
        <div class="muted">{state.state === "selected" ? `Answered: ${state.optionName}` : "Cancelled"}</div>
      )}
    </div>
  );
});
