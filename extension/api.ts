// What `activate()` returns: a small read-only view used by the extension-host tests (and by other
// extensions that want to know which session serves which folder). Never exposes keys.
export interface SessionBinding {
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
  /** Transcript entries in order; `text` is the message text, tool title, permission title or notice. */
  entries: { kind: "user" | "agent" | "thought" | "tool" | "permission" | "question" | "notice"; text: string; status?: string }[];
  pendingApprovals: number;
}

export interface ManifoldApi {
  /** PID of the agent process serving this window, if it is running. */
  agentPid(): number | undefined;
  /** Current folder ↔ session bindings. */
  bindings(): SessionBinding[];
  /** Resolves when every open folder panel is bound to a live session. */
  whenReady(): Promise<void>;
  /** Snapshots of the open chat panels. */
  panels(): PanelSnapshot[];
}

/** Command ids (category "Manifold"); titles in package.json follow DESIGN.md §4. */
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
} as const;
