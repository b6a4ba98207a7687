// What `activate()` returns: a small read-only view used by the extension-host tests (and by other
// extensions that want to know which session serves which folder). Never exposes keys.
import type { Event } from "../base/event";

/** Which ACP session serves which workspace folder. */
export interface FolderBinding {
  /** Absolute path of the workspace folder. */
  folder: string;
  sessionId: string;
  /** The cwd the session was created with (the folder's absolute path). */
  cwd: string;
}

/** Read-only view of one open chat panel (host-side model), for tests. Never contains keys. */
export interface PanelSnapshot {
  /** Absolute path of the workspace folder. */
  folder: string;
  /** The panel's title: "Manifold: <folder name>". */
  title: string;
  visible: boolean;
  sessionId?: string;
  /** untrusted | idle | starting | ready | restarting | error | stopped */
  agentStatus: string;
  running: boolean;
  /**
   * The transcript's live entries in order (all of a short one; of a long one the latest few hundred, the
   * older ones being kept compressed by the host); `text` is the message text, tool title, permission title,
   * notice, or for a compaction its trigger and token counts.
   */
  entries: {
    kind: "user" | "agent" | "thought" | "tool" | "compaction" | "permission" | "question" | "notice";
    text: string;
    status?: string;
    /** A nested call's parent (a subagent's call under its Task card). */
    parent?: string;
    /** Calls nested under this one. */
    nested?: number;
  }[];
  pendingApprovals: number;
}

/**
 * What changed: the agent's status; the set or visibility of the chat panels; one folder's session
 * (its binding, transcript, running state or pending requests); one folder's checkpoints.
 */
export type ManifoldChange =
  | { readonly kind: "agent"; readonly status: string }
  | { readonly kind: "panels" }
  | { readonly kind: "session"; readonly folder: string }
  | { readonly kind: "checkpoints"; readonly folder: string };

export interface ManifoldApi {
  /** PID of the agent process serving this window, if it is running. */
  agentPid(): number | undefined;
  /** Current folder ↔ session bindings. */
  bindings(): FolderBinding[];
  /** Resolves when every open folder panel is bound to a live session. */
  whenReady(): Promise<void>;
  /** Snapshots of the open chat panels. */
  panels(): PanelSnapshot[];
  /** Fires when what `bindings()`, `panels()` or the agent's status report may have changed. */
  readonly onDidChange: Event<ManifoldChange>;
}

/** Command ids (category "Manifold"); their titles are in package.json. */
export const COMMANDS = {
  openChat: "manifold.openChat",
  newSession: "manifold.newSession",
  switchSession: "manifold.switchSession",
  closeSession: "manifold.closeSession",
  deleteSession: "manifold.deleteSession",
  cancelTurn: "manifold.cancelTurn",
  showPendingApprovals: "manifold.showPendingApprovals",
  selectAgent: "manifold.selectAgent",
  setApiKey: "manifold.setApiKey",
  restartAgent: "manifold.restartAgent",
  showLog: "manifold.showLog",
  restartMcpServer: "manifold.restartMcpServer",
  showChanges: "manifold.showChanges",
  restoreCheckpoint: "manifold.restoreCheckpoint",
  signOut: "manifold.signOut",
  clearAgentSecret: "manifold.clearAgentSecret",
  updateAgent: "manifold.updateAgent",
  removeAgent: "manifold.removeAgent",
  newWorktreeSession: "manifold.newWorktreeSession",
  reviewWorktree: "manifold.reviewWorktree",
  applyWorktree: "manifold.applyWorktree",
  mergeWorktree: "manifold.mergeWorktree",
  discardWorktree: "manifold.discardWorktree",
} as const;
