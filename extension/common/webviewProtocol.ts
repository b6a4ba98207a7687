// THE webview ↔ extension-host contract. Both sides import this file.
// - HostToWebview: what the host posts (trusted, typed at compile time).
// - WebviewToHost: what the webview posts; the host treats it as `unknown` and parses it with
//   `parseWebviewMessage` (zod) before use — a compromised webview must not be able to pass
//   arbitrary shapes to the host.
// Handshake: the webview posts `ready` once its script runs; the host answers with `snapshot`
// (the transcript state with its latest entries: extension/chat/panelFeed.ts) and only then streams
// `events`; older entries come as `transcript/page` when the webview asks. A webview that is hidden and shown
// again (its DOM is dropped) sends `ready` again and gets a fresh snapshot.
import type { SessionConfigOption } from "@agentclientprotocol/sdk";
import { z } from "zod";
import type { TranscriptEvent, TranscriptState } from "./transcript";
import { MAX_PAGE_ENTRIES, type TranscriptPage, type TranscriptWindow } from "./transcriptWindow";

export { assertNever } from "./transcript";

/** An item attached to the composer (an @-mention: a file, the editor selection, a symbol, …). */
export interface Attachment {
  /** Opaque id minted by the host; the host resolves it when the prompt is sent. */
  id: string;
  label: string;
  kind: "file" | "selection" | "image" | AttachmentKindMore;
  /** Images only: a `data:` URL the chip shows as its thumbnail (never kept in the webview's saved state). */
  thumbnail?: string;
}

/** Mentions beyond files — a workspace symbol, the folder's problems, a terminal's recent output. */
export type AttachmentKindMore = "symbol" | "problems" | "terminal";

/** The changes list: files changed since the review baseline (a checkpoint), with +/- counts. */
export interface ChangesView {
  /** The checkpoint the list starts from (its prompt text), when there is one. */
  baselineLabel?: string;
  files: {
    path: string;
    status: "A" | "D" | "M";
    added: number | null;
    removed: number | null;
    /** Set when the user changed the file by hand since the baseline (or it has unsaved changes): why. */
    userEdit?: string;
  }[];
  /** Why there are no checkpoints (git missing, …). */
  unavailable?: string;
}

/** A restore waiting for the user's confirmation: what it will change, file by file. */
export interface RestorePlanView {
  planId: string;
  label: string;
  items: {
    path: string;
    action: "write" | "delete";
    added: number | null;
    removed: number | null;
    userEdit?: string;
    leaveAlone?: string;
  }[];
  /** Set for edit and resend: the message sent after the restore. */
  resendText?: string;
  /** Set for edit and resend when the agent will still remember the later turns. */
  agentRemembers?: boolean;
}

/**
 * The outcome of a restore, an undo from the changes list, or the reverting of one of those, with the
 * checkpoint that undoes it. `revert` (the undo of a restore or of an undo) offers no further undo.
 */
export interface RestoreDoneView {
  kind: "restore" | "undo" | "revert";
  undoCheckpointId: string;
  /** The checkpoint restored to, one line (restore only). */
  label?: string;
  restored: number;
  /** The files it changed (what undoing it brings back, and only those). */
  paths: string[];
  failures: { path: string; reason: string }[];
  /** Files the user changed by hand that an "Undo all" left as they are. */
  kept: string[];
}

export type HostToWebview =
  | {
      type: "snapshot";
      state: TranscriptState;
      /** The snapshot holds the latest entries only; absent = all of them. */
      window?: TranscriptWindow;
      /** What the events this snapshot replaces would have announced. */
      announce?: string;
    }
  | { type: "changes"; changes: ChangesView }
  | { type: "restore/plan"; plan: RestorePlanView | undefined }
  /** The banner with the changes list as they are after it (one message: never one without the other). */
  | { type: "restore/done"; done: RestoreDoneView | undefined; changes?: ChangesView }
  | { type: "events"; events: TranscriptEvent[] }
  | { type: "composer/attach"; attachments: Attachment[] }
  | { type: "composer/focus" }
  /** Older entries, asked for with `transcript/page`. */
  | { type: "transcript/page"; page: TranscriptPage };

const id = z.string().min(1).max(200);

const readyMsg = z.object({ type: z.literal("ready") }).strict();
const promptMsg = z
  .object({
    type: z.literal("prompt/send"),
    text: z.string().max(1_000_000),
    attachmentIds: z.array(id).max(100),
  })
  .strict();
// A message typed while a turn runs waits in the folder's queue or is steered into the turn.
const queuedText = z.string().min(1).max(1_000_000);
const queueAddMsg = z.object({ type: z.literal("queue/add"), text: queuedText }).strict();
const queueEditMsg = z.object({ type: z.literal("queue/edit"), id, text: queuedText }).strict();
const queueRemoveMsg = z.object({ type: z.literal("queue/remove"), id }).strict();
const queueMoveMsg = z.object({ type: z.literal("queue/move"), id, by: z.union([z.literal(-1), z.literal(1)]) }).strict();
const queueSteerMsg = z.object({ type: z.literal("queue/steer"), id }).strict();
const queueSendNextMsg = z.object({ type: z.literal("queue/sendNext") }).strict();
const steerMsg = z.object({ type: z.literal("prompt/steer"), text: queuedText }).strict();
const cancelMsg = z.object({ type: z.literal("turn/cancel") }).strict();
/** The longest note a rejection carries to the agent: a sentence or a few, not a second prompt. */
export const PERMISSION_NOTE_MAX = 2000;
// "Reject with a note…": the note rides on the answer, trimmed; an empty one is a plain reject.
const permissionNote = z.string().trim().max(PERMISSION_NOTE_MAX);
const answerMsg = z.object({ type: z.literal("permission/answer"), requestId: id, optionId: id, note: permissionNote.optional() }).strict();
const dismissMsg = z.object({ type: z.literal("permission/dismiss"), requestId: id }).strict();
// A question card's values: typed as the webview holds them; the host validates them against the form.
const questionValue = z.union([z.string().max(100_000), z.number().finite(), z.boolean(), z.array(z.string().max(500)).max(100)]);
const questionAnswerMsg = z
  .object({ type: z.literal("question/answer"), questionId: id, values: z.record(z.string().min(1).max(200), questionValue) })
  .strict()
  .refine((m) => Object.keys(m.values).length <= 50, "too many fields");
const questionDeclineMsg = z.object({ type: z.literal("question/decline"), questionId: id }).strict();
const configMsg = z.object({ type: z.literal("config/set"), configId: id, value: z.union([z.string().max(500), z.boolean()]) }).strict();

/**
 * Why `value` cannot be sent for the session's option `configId` (undefined: it can). The message
 * schema allows a string or a boolean; only the option's own type tells which one the agent takes.
 */
export function configValueMismatch(
  options: readonly SessionConfigOption[],
  configId: string,
  value: string | boolean,
): string | undefined {
  const o = options.find((x) => x.id === configId);
  if (!o) return `the agent offers no config option "${configId}"`;
  const want = o.type === "boolean" ? "boolean" : o.type === "select" ? "string" : undefined;
  if (want === undefined) return `the config option "${configId}" is of a type Manifold does not set`;
  return typeof value === want
    ? undefined
    : `the config option "${configId}" takes a ${want === "boolean" ? "true/false" : "choice"} value`;
}
const modeMsg = z.object({ type: z.literal("mode/set"), modeId: id }).strict();
const openLocationMsg = z
  .object({ type: z.literal("location/open"), path: z.string().min(1).max(4096), line: z.number().int().min(1).optional() })
  .strict();
const openDiffMsg = z.object({ type: z.literal("diff/open"), toolCallId: id, contentIndex: z.number().int().min(0).max(10_000) }).strict();
const mentionMsg = z.object({ type: z.literal("composer/mention") }).strict();
const selectionMsg = z.object({ type: z.literal("composer/attachSelection") }).strict();
const detachMsg = z.object({ type: z.literal("composer/detach"), attachmentId: id }).strict();
// An image pasted or dropped into the composer (base64, checked again by the host), and the image picker.
const imageMsg = z
  .object({
    type: z.literal("composer/image"),
    name: z.string().min(1).max(500),
    mimeType: z.string().max(100),
    // 5 MiB decoded is under 7 MiB of base64; anything longer is refused here, before the host reads it.
    data: z.string().max(7 * 1024 * 1024),
  })
  .strict();
const pickImagesMsg = z.object({ type: z.literal("composer/pickImages") }).strict();
const actionMsg = z
  .object({
    type: z.literal("session/action"),
    action: z.enum(["new", "switch", "restartAgent", "showLog", "setApiKey", "selectAgent"]),
  })
  .strict();

const relPath = z.string().min(1).max(4096);
const pathsOrAll = z.union([z.literal("all"), z.array(relPath).min(1).max(10_000)]);
const changesRefreshMsg = z.object({ type: z.literal("changes/refresh") }).strict();
const changesOpenMsg = z.object({ type: z.literal("changes/open"), path: relPath }).strict();
const changesKeepMsg = z.object({ type: z.literal("changes/keep"), paths: pathsOrAll }).strict();
const changesUndoMsg = z.object({ type: z.literal("changes/undo"), paths: pathsOrAll }).strict();
/** Restore the checkpoint taken before user message `promptIndex` (0-based), or a checkpoint by id (undo a restore). */
const restoreAskMsg = z
  .object({ type: z.literal("restore/ask"), promptIndex: z.number().int().min(0).max(1_000_000).optional(), checkpointId: id.optional() })
  .strict();
/** Undo what the banner names (a restore or an undo): only the files it changed, confirmed first. */
const restoreUndoMsg = z.object({ type: z.literal("restore/undo"), checkpointId: id }).strict();
const editResendMsg = z
  .object({ type: z.literal("prompt/edit"), promptIndex: z.number().int().min(0).max(1_000_000), text: z.string().min(1).max(1_000_000) })
  .strict();
const restoreConfirmMsg = z.object({ type: z.literal("restore/confirm"), planId: id, keepUserEdits: z.boolean() }).strict();
const restoreCancelMsg = z.object({ type: z.literal("restore/cancel"), planId: id }).strict();
// Run one of the agent's sign-in methods (the card's button; values are asked by the host).
const signInMsg = z.object({ type: z.literal("auth/signIn"), methodId: id }).strict();
// The webview holds the latest entries; it asks for older ones as the user scrolls up.
const transcriptPageMsg = z
  .object({ type: z.literal("transcript/page"), beforeId: id, count: z.number().int().min(1).max(MAX_PAGE_ENTRIES) })
  .strict();

export const webviewToHostSchema = z.discriminatedUnion("type", [
  changesRefreshMsg,
  changesOpenMsg,
  changesKeepMsg,
  changesUndoMsg,
  restoreAskMsg,
  restoreUndoMsg,
  editResendMsg,
  restoreConfirmMsg,
  restoreCancelMsg,
  readyMsg,
  promptMsg,
  queueAddMsg,
  queueEditMsg,
  queueRemoveMsg,
  queueMoveMsg,
  queueSteerMsg,
  queueSendNextMsg,
  steerMsg,
  cancelMsg,
  answerMsg,
  dismissMsg,
  questionAnswerMsg,
  questionDeclineMsg,
  configMsg,
  modeMsg,
  openLocationMsg,
  openDiffMsg,
  mentionMsg,
  selectionMsg,
  detachMsg,
  actionMsg,
  imageMsg,
  pickImagesMsg,
  signInMsg,
  transcriptPageMsg,
]);

export type WebviewToHost = z.infer<typeof webviewToHostSchema>;
export type SessionAction = z.infer<typeof actionMsg>["action"];

/**
 * "Reject with a note…": the answer naming the agent's `reject_once` option with the trimmed, bounded note;
 * none when the agent offered no such option (the card then shows no note field).
 */
export function rejectWithNote(
  requestId: string,
  options: readonly { optionId: string; kind: string }[],
  note: string,
): Extract<WebviewToHost, { type: "permission/answer" }> | undefined {
  const reject = options.find((o) => o.kind === "reject_once");
  if (!reject) return undefined;
  return { type: "permission/answer", requestId, optionId: reject.optionId, note: note.trim().slice(0, PERMISSION_NOTE_MAX) };
}

/** Parses an untrusted message from the webview; `undefined` when it is not a valid message. */
export function parseWebviewMessage(raw: unknown): WebviewToHost | undefined {
  const r = webviewToHostSchema.safeParse(raw);
  return r.success ? r.data : undefined;
}
