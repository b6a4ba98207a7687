// What the webview posts to the host: untrusted (a compromised webview must not be able to pass
// arbitrary shapes to the host), `unknown` until `parseWebviewMessage` (zod) accepts it. Host side
// only: the webview imports just the types, so its bundle carries none of these schemas.
import { z } from "zod";
import { PERMISSION_NOTE_MAX } from "./webviewProtocol";
import { MAX_PAGE_ENTRIES } from "./transcriptWindow";

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

/** Parses an untrusted message from the webview; `undefined` when it is not a valid message. */
export function parseWebviewMessage(raw: unknown): WebviewToHost | undefined {
  const r = webviewToHostSchema.safeParse(raw);
  return r.success ? r.data : undefined;
}
