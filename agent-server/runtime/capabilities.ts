// What the runtime hands a tool call besides its arguments: the abilities that reach past the tool
// (the user, the client's editor, a subagent). Declared here, by the layer that provides them, so
// tools (which use them) and the ACP bridge (which serves the user-facing ones) share one definition.
// Every capability is bound to the calling session: it never reaches another session's user.

/** A request for the user's permission, shown in the owning session's panel only. */
export interface PermissionAsk {
  /** Short human title, e.g. "Run `npm install`" or "Write ../notes.txt (outside the workspace)". */
  title: string;
  /** Why we ask, e.g. "writes outside the workspace". */
  reason: string;
  /** Normalized key that "Allow for this session" stores (tool + path, or command prefix). */
  grantKey: string;
  /**
   * False when "Allow for this session" must not be offered (an escalation out of `read-only`,
   * or a command that can only run unconfined because no sandbox backend works): the client shows
   * Allow once / Reject only. If it is answered anyway, it counts as "allow once".
   */
  allowSession?: boolean;
}

/** A question for the user (sent as an ACP `elicitation/create` form to the owning session only). */
export interface UserQuestion {
  question: string;
  /** When given, the answer must be one of these (the form offers them as an enum). */
  choices?: string[];
}

/**
 * The user's reply. `declined` covers decline, cancel-by-the-user, malformed answers and transport
 * failures; `unavailable` means the question could not be routed (fails closed, nothing was sent).
 * Cancelling the caller's turn (or tearing the session down) is not an answer: `askUser` then
 * rejects with an error named `AbortError` (I-46).
 */
export type UserAnswer = { outcome: "answered"; answer: string } | { outcome: "declined" } | { outcome: "unavailable" };

/** Read/write through the ACP client (so the editor sees unsaved buffers and edits can be undone). */
export interface ClientFs {
  readTextFile(path: string, opts?: { line?: number; limit?: number }): Promise<string>;
  writeTextFile(path: string, content: string): Promise<void>;
}

/**
 * How an in-process subagent run ended. `refused`: no subagent was started (the caller is itself a
 * subagent, or its session is gone); `why` is written for the model.
 */
export type SubagentOutcome = { kind: "refused"; why: string } | { kind: "ended"; reason: string; error?: string; text: string };

/**
 * Runs `task` in a new subagent session of the caller (same cwd, sandbox, approval and model; its
 * permission asks go to the caller's session under the calling tool's card). `onText` receives the
 * subagent's answer so far as it streams. Cancelling the caller's turn cancels the subagent.
 */
/** An agent the client offers for delegation (`manifold.dev/delegateAgents`): its id, name, what it is. */
export interface DelegateTarget {
  id: string;
  name: string;
  description?: string;
}

/** Runs `task` in the client-offered agent `agentId` (the client runs it in the caller's folder); cancelled with the turn. */
export type RunRemote = (agentId: string, task: string) => Promise<SubagentOutcome>;

export type RunSubagent = (task: string, onText: (textSoFar: string) => void) => Promise<SubagentOutcome>;
