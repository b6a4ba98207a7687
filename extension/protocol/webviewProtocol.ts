// THE webview ↔ extension-host contract. Both sides import this file.
// - HostToWebview: what the host posts (trusted, typed at compile time).
// - WebviewToHost: what the webview posts; the host treats it as `unknown` and parses it with
//   `parseWebviewMessage` (zod) before use — a compromised webview must not be able to pass
//   arbitrary shapes to the host.
// Handshake: the webview posts `ready` once its script runs; the host answers with `snapshot`
// (the full transcript state) and only then streams `events`. A webview that is hidden and shown
// again (its DOM is dropped) sends `ready` again and gets a fresh snapshot.
import { z } from "zod";
import type { TranscriptEvent, TranscriptState } from "./transcript";

export { assertNever } from "./transcript";

/** An item attached to the composer (an @-mentioned file or the editor selection). */
export interface Attachment {
  /** Opaque id minted by the host; the host resolves it when the prompt is sent. */
  id: string;
  label: string;
  kind: "file" | "selection";
}

export type HostToWebview =
  | { type: "snapshot"; state: TranscriptState }
  | { type: "events"; events: TranscriptEvent[] }
  | { type: "composer/attach"; attachments: Attachment[] }
  | { type: "composer/focus" };

const id = z.string().min(1).max(200);

const readyMsg = z.object({ type: z.literal("ready") }).strict();
const promptMsg = z
  .object({
    type: z.literal("prompt/send"),
    text: z.string().max(1_000_000),
    attachmentIds: z.array(id).max(100),
  })
  .strict();
const cancelMsg = z.object({ type: z.literal("turn/cancel") }).strict();
const answerMsg = z.object({ type: z.literal("permission/answer"), requestId: id, optionId: id }).strict();
const dismissMsg = z.object({ type: z.literal("permission/dismiss"), requestId: id }).strict();
// A question card's values: typed as the webview holds them; the host validates them against the form.
const questionValue = z.union([z.string().max(100_000), z.number().finite(), z.boolean(), z.array(z.string().max(500)).max(100)]);
const questionAnswerMsg = z
  .object({ type: z.literal("question/answer"), questionId: id, values: z.record(z.string().min(1).max(200), questionValue) })
  .strict()
  .refine((m) => Object.keys(m.values).length <= 50, "too many fields");
const questionDeclineMsg = z.object({ type: z.literal("question/decline"), questionId: id }).strict();
const configMsg = z
  .object({ type: z.literal("config/set"), configId: id, value: z.union([z.string().max(500), z.boolean()]) })
  .strict();
const modeMsg = z.object({ type: z.literal("mode/set"), modeId: id }).strict();
const openLocationMsg = z
  .object({ type: z.literal("location/open"), path: z.string().min(1).max(4096), line: z.number().int().min(1).optional() })
  .strict();
const openDiffMsg = z
  .object({ type: z.literal("diff/open"), toolCallId: id, contentIndex: z.number().int().min(0).max(10_000) })
  .strict();
const mentionMsg = z.object({ type: z.literal("composer/mention") }).strict();
const selectionMsg = z.object({ type: z.literal("composer/attachSelection") }).strict();
const detachMsg = z.object({ type: z.literal("composer/detach"), attachmentId: id }).strict();
const actionMsg = z
  .object({
    type: z.literal("session/action"),
    action: z.enum(["new", "switch", "restartAgent", "showLog", "setApiKey", "selectAgent"]),
  })
  .strict();

export const webviewToHostSchema = z.discriminatedUnion("type", [
  readyMsg,
  promptMsg,
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
]);

export type WebviewToHost = z.infer<typeof webviewToHostSchema>;
export type SessionAction = z.infer<typeof actionMsg>["action"];

/** Parses an untrusted message from the webview; `undefined` when it is not a valid message. */
export function parseWebviewMessage(raw: unknown): WebviewToHost | undefined {
  const r = webviewToHostSchema.safeParse(raw);
  return r.success ? r.data : undefined;
}

/** `data-testid` values the UI tests rely on. Keep stable; extend, don't rename. */
export const TEST_IDS = {
  app: "manifold-app",
  header: "header",
  title: "session-title",
  status: "agent-status",
  demoBanner: "demo-banner",
  restartedBanner: "agent-banner",
  emptyState: "empty-state",
  loading: "loading",
  transcript: "transcript",
  userMessage: "msg-user",
  agentMessage: "msg-agent",
  thought: "msg-thought",
  notice: "notice",
  toolCard: "tool-card",
  toolLocation: "tool-location",
  toolDiff: "tool-diff",
  toolTerminal: "tool-terminal",
  permissionCard: "permission-card",
  permissionOption: "permission-option",
  permissionDismiss: "permission-dismiss",
  questionCard: "question-card",
  questionField: "question-field",
  questionError: "question-error",
  questionSubmit: "question-submit",
  questionDecline: "question-decline",
  plan: "plan",
  usage: "usage",
  composer: "composer",
  composerInput: "composer-input",
  send: "send",
  cancel: "cancel",
  mention: "mention",
  attachSelection: "attach-selection",
  attachment: "attachment",
  configPicker: "config-picker",
  slashCommands: "slash-commands",
  newSession: "new-session",
  switchSession: "switch-session",
} as const;
