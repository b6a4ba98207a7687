// What the review cards say and offer, decided apart from their markup: the restore confirmation's
// buttons (keeping the user's own edits is the primary one whenever there are any) and the banner
// of a restore or an undo (what it did, which of the user's edits it left, how to undo it).
import { quotePrompt } from "../common/text";
import type { RestoreDoneView, RestorePlanView } from "../common/webviewProtocol";

export interface RestoreChoice {
  keepUserEdits: boolean;
  label: string;
  primary: boolean;
  testId: "restoreKeepMine" | "restoreApply";
  title?: string;
}

const plural = (n: number): string => `${n} file${n === 1 ? "" : "s"}`;

/** The confirmation's restore buttons, in order: the safe choice first and primary. */
export function restoreChoices(plan: RestorePlanView): RestoreChoice[] {
  const mine = plan.items.filter((i) => i.userEdit && !i.leaveAlone).length;
  if (mine === 0) return [{ keepUserEdits: false, label: "Restore", primary: true, testId: "restoreApply" }];
  return [
    {
      keepUserEdits: true,
      label: "Restore, keep my edits",
      primary: true,
      testId: "restoreKeepMine",
      title: `Restore the rest; your edits to ${plural(mine)} stay as they are`,
    },
    { keepUserEdits: false, label: "Restore all, including my edits", primary: false, testId: "restoreApply" },
  ];
}

/** The banner's sentence. */
export function doneText(done: RestoreDoneView): string {
  const failed = done.failures.length > 0 ? `; ${done.failures.length} not changed (see the notice)` : "";
  const kept = done.kept.length > 0 ? ` Your own edits stay: ${done.kept.join(", ")}.` : "";
  if (done.kind === "restore")
    return `Restored ${plural(done.restored)}${done.label ? ` to before ${quotePrompt(done.label)}` : ""}${failed}.`;
  if (done.kind === "revert") return `Brought back ${plural(done.restored)}${failed}.`;
  const what =
    done.restored === 1 && done.paths.length === 1 ? `the change to ${done.paths[0]}` : `the changes to ${plural(done.restored)}`;
  return `Undid ${what}${failed}.${kept}`;
}

/** The banner's undo button, when it has one: it undoes exactly what the banner names. */
export function undoLabel(done: RestoreDoneView): string | undefined {
  if (done.paths.length === 0) return undefined;
  return done.kind === "restore" ? "Undo restore" : done.kind === "undo" ? "Undo this undo" : undefined;
}
