// The per-session transcript's reducer (its model: transcriptModel.ts, re-exported here; the agent's
// updates are folded in transcriptAcp.ts).
// The extension host folds every event into its copy (so a panel that is shown again, or restored after
// a reload, gets a snapshot) and forwards the same events to the webview, which folds them with this
// same function. One reducer on both sides keeps the two copies equal by construction.
import type { PermissionEntry, PermissionState, QuestionEntry, TranscriptEvent, TranscriptState } from "./transcriptModel";
import { stopNotice } from "./turnEnd";
import { carryToolIndex, findTool } from "./toolIndex";
import { applyAcp } from "./transcriptAcp";
import { assertNever, mintId, withNotice, withTurnEnd } from "./transcriptEntries";
import { isSessionEvent, reduceSession } from "./transcriptSession";

export type * from "./transcriptModel";
export { assertNever, blockText } from "./transcriptEntries";
export { emptyTranscript } from "./transcriptSession";

function finishTools(s: TranscriptState): TranscriptState {
  let changed = false;
  const entries = s.entries.map((e) => {
    if (e.kind === "tool" && (e.status === "pending" || e.status === "in_progress")) {
      changed = true;
      return { ...e, status: "cancelled" as const };
    }
    return e;
  });
  return changed ? { ...s, entries } : s;
}

/** Whether the reducer empties the history for `ev` (a reset, or a session bound with its history cleared). */
export function clearsHistory(ev: TranscriptEvent): boolean {
  return ev.type === "reset" || (ev.type === "session/bound" && ev.clearHistory);
}

export function reduceTranscript(s: TranscriptState, ev: TranscriptEvent): TranscriptState {
  const next = reduce(s, ev);
  if (next.entries !== s.entries) carryToolIndex(s.entries, next.entries);
  return next;
}

function reduce(s: TranscriptState, ev: TranscriptEvent): TranscriptState {
  if (isSessionEvent(ev)) return reduceSession(s, ev);
  switch (ev.type) {
    case "acp":
      return applyAcp(s, ev.update);
    case "user/prompt": {
      const [id, nextId] = mintId(s);
      const images = ev.images && ev.images.length > 0 ? { images: ev.images } : {};
      return { ...s, nextId, entries: s.entries.concat([{ kind: "user", id, text: ev.text, attachments: ev.attachments, ...images }]) };
    }
    case "transcript/truncate": {
      let users = 0;
      const cut = s.entries.findIndex((e) => e.kind === "user" && !e.steered && ++users > ev.keepPrompts);
      return cut < 0 ? s : { ...s, entries: s.entries.slice(0, cut), plan: [] };
    }
    case "turn/started":
      return { ...s, running: true };
    case "turn/ended": {
      const ended = finishTools({ ...s, running: false });
      const notice = stopNotice(ev.stopReason, ev.message);
      return notice ? withTurnEnd(ended, notice, "stopReason") : ended;
    }
    case "permission/requested":
      return permissionCard(s, ev);
    case "permission/resolved":
      return {
        ...s,
        entries: s.entries.map((e) => (e.kind === "permission" && e.requestId === ev.requestId ? { ...e, outcome: ev.outcome } : e)),
      };
    case "permissions/pending":
      return { ...s, pendingPermissions: ev.requestIds };
    case "queue/changed":
      return { ...s, queue: ev.items };
    case "question/requested":
      return questionCard(s, ev);
    case "question/resolved":
      return {
        ...s,
        entries: s.entries.map((e) =>
          e.kind === "question" && e.questionId === ev.questionId && e.outcome.state === "pending" ? { ...e, outcome: ev.outcome } : e,
        ),
      };
    case "tools/cancelUnfinished":
      return finishTools(s);
    case "terminal/output":
      return { ...s, terminals: { ...s.terminals, [ev.terminalId]: ev.view } };
    case "notice":
      return withNotice(s, ev.severity, ev.text);
    default:
      return assertNever(ev);
  }
}

type EventOf<T extends TranscriptEvent["type"]> = Extract<TranscriptEvent, { type: T }>;

function permissionCard(s: TranscriptState, ev: EventOf<"permission/requested">): TranscriptState {
  const [id, nextId] = mintId(s);
  const entry: PermissionEntry = {
    kind: "permission",
    id,
    requestId: ev.requestId,
    toolCallId: ev.toolCallId,
    title: ev.title,
    options: ev.options,
  };
  // Approving a `switch_mode` call's plan: the card shows the plan it approves.
  const tool = s.entries[findTool(s.entries, ev.toolCallId)];
  if (tool?.kind === "tool" && tool.plan !== undefined) entry.plan = tool.plan;
  return { ...s, nextId, entries: s.entries.concat([entry]) };
}

function questionCard(s: TranscriptState, ev: EventOf<"question/requested">): TranscriptState {
  const [id, nextId] = mintId(s);
  const entry: QuestionEntry = {
    kind: "question",
    id,
    questionId: ev.questionId,
    ...(ev.toolCallId !== undefined ? { toolCallId: ev.toolCallId } : {}),
    message: ev.message,
    form: ev.form,
    ...(ev.url ? { url: ev.url } : {}),
    outcome: { state: "pending" },
  };
  return { ...s, nextId, entries: s.entries.concat([entry]) };
}

/** A permission card's state: pending while the broker holds its request, else how it was settled. */
export function permissionState(s: Pick<TranscriptState, "pendingPermissions">, e: PermissionEntry): PermissionState {
  if (s.pendingPermissions.includes(e.requestId)) return { state: "pending" };
  // A request the broker no longer holds was settled; a card without its outcome was cancelled with its session.
  return e.outcome ?? { state: "cancelled" };
}

/** True when the session's current model is the offline demo model. */
export function isDemoModel(s: TranscriptState): boolean {
  const model = s.configOptions.find((o) => o.id === "model" || o.category === "model");
  if (!model || model.type !== "select") return false;
  if (model.currentValue === "demo") return true;
  const flat = model.options.flatMap((o) => ("group" in o ? o.options : [o]));
  const cur = flat.find((o) => o.value === model.currentValue);
  return cur !== undefined && /demo/i.test(cur.name);
}
