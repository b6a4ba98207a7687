// THE webview ↔ extension-host contract. Both sides import this file.
// - HostToWebview: what the host posts (trusted, typed at compile time).
// - WebviewToHost: what the webview posts (./webviewMessages.ts); the host treats it as `unknown` and
//   parses it with `parseWebviewMessage` (zod) before use — a compromised webview must not be able to
//   pass arbitrary shapes to the host. The schemas live there, not here, so that the webview's bundle,
//   which needs only their type, carries no copy of them or of zod's classic API.
// Handshake: the webview posts `ready` once its script runs; the host answers with `snapshot`
// (the transcript state with its latest entries: extension/chat/panelFeed.ts) and only then streams
// `events`; older entries come as `transcript/page` when the webview asks. A webview that is hidden and shown
// again (its DOM is dropped) sends `ready` again and gets a fresh snapshot.
import type { SessionConfigOption } from "@agentclientprotocol/sdk";
import type { TranscriptEvent, TranscriptState } from "./transcript";
import type { TranscriptPage, TranscriptWindow } from "./transcriptWindow";

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

/** The longest note a rejection carries to the agent: a sentence or a few, not a second prompt. */
export const PERMISSION_NOTE_MAX = 2000;

/** The answer to a permission request, as the webview posts it (one of WebviewToHost's messages). */
export interface PermissionAnswer {
  type: "permission/answer";
  requestId: string;
  optionId: string;
  note?: string;
}

/**
 * "Reject with a note…": the answer naming the agent's `reject_once` option with the trimmed, bounded note;
 * none when the agent offered no such option (the card then shows no note field).
 */
export function rejectWithNote(
  requestId: string,
  options: readonly { optionId: string; kind: string }[],
  note: string,
): PermissionAnswer | undefined {
  const reject = options.find((o) => o.kind === "reject_once");
  if (!reject) return undefined;
  return { type: "permission/answer", requestId, optionId: reject.optionId, note: note.trim().slice(0, PERMISSION_NOTE_MAX) };
}

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
