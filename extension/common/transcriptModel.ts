// The transcript's model: its entries, its state and the events that change it. The reducer is
// transcript.ts, which re-exports these types (import them from there).
import type { McpRow, McpServerStatus } from "./mcpRows";
import type {
  AvailableCommand,
  PermissionOption,
  PlanEntry,
  SessionConfigOption,
  SessionModeState,
  SessionUpdate,
  ToolCallContent,
  ToolCallLocation,
  ToolCallStatus,
  ToolKind,
} from "@agentclientprotocol/sdk";
import type { QuestionForm, QuestionUrl } from "./questionForm";
import type { TurnStop } from "./turnEnd";
import type { QueuedMessage } from "./promptQueue";
import type { ImageData } from "./images";
import type { AuthMethodView, AuthPrompt } from "./auth";
import type { AgentConfinement } from "./protection";

export type AgentStatus = "untrusted" | "idle" | "starting" | "ready" | "restarting" | "error" | "stopped";

export interface UserEntry {
  kind: "user";
  id: string;
  text: string;
  /** Names of attached resources (files, selections), shown as chips. */
  attachments: string[];
  /** Sent into a running turn (the agent's marked `user_message_chunk`), not as a prompt of its own. */
  steered?: true;
  /** Images the message carried (sent, or replayed by `session/load`), shown as thumbnails. */
  images?: ImageData[];
}
export interface AgentTextEntry {
  kind: "agent" | "thought";
  id: string;
  messageId?: string;
  text: string;
}
/**
 * What the panel shows of an edit. The texts stay with the host (extension/sessions/diffTexts.ts):
 * "Open diff" asks for them by the tool call's id and the content's index.
 */
export interface DiffSummary {
  type: "diff";
  path: string;
  newFile: boolean;
  linesBefore: number;
  linesAfter: number;
}
export type ToolContentView = Exclude<ToolCallContent, { type: "diff" }> | DiffSummary;
type ToolUpdateView<T> = Omit<T, "content" | "rawInput" | "rawOutput"> & {
  content?: ToolContentView[] | null;
  /** A `switch_mode` call's `rawInput.plan` (the plan to approve), the one raw input field the panel shows. */
  plan?: string;
};
/**
 * A session update as the transcript takes it: tool content with edits summarised and without the raw
 * tool input and output (which repeat the texts). The host makes it from the agent's update.
 */
export type TranscriptUpdate =
  | Exclude<SessionUpdate, { sessionUpdate: "tool_call" | "tool_call_update" }>
  | ToolUpdateView<Extract<SessionUpdate, { sessionUpdate: "tool_call" }>>
  | ToolUpdateView<Extract<SessionUpdate, { sessionUpdate: "tool_call_update" }>>;

/** Tool status as shown; `cancelled` is client-side only (v1 has no such wire status). */
export type ToolDisplayStatus = ToolCallStatus | "cancelled";
export interface ToolEntry {
  kind: "tool";
  id: string;
  toolCallId: string;
  title: string;
  toolKind: ToolKind;
  status: ToolDisplayStatus;
  content: ToolContentView[];
  locations: ToolCallLocation[];
  /** The tool call this one runs under (a subagent's call under its Task card): shown nested there. */
  parentToolCallId?: string;
  /** Its last text content is a delegated child's streamed text (more of it joins that block). */
  childText?: boolean;
  /** How many calls run under this one (shown collapsed as a count). */
  nested?: number;
  /** A `switch_mode` call's plan (markdown, untrusted): shown for approval on its permission card. */
  plan?: string;
}
/**
 * A context compaction: the agent's synthetic "Compact conversation" tool call (`_meta.contextCompaction`)
 * or a `compaction_update`, shown as one marked entry. `toolCallId` is the key its updates find it by.
 */
export interface CompactionEntry {
  kind: "compaction";
  id: string;
  toolCallId: string;
  status: "in_progress" | "completed" | "failed" | "cancelled";
  trigger?: "manual" | "auto";
  preTokens?: number;
  postTokens?: number;
  durationMs?: number;
  error?: string;
}
/** How a permission request was settled: the broker's answer, kept as the card's history. */
export type PermissionOutcome = { state: "selected"; optionId: string; optionName: string } | { state: "cancelled" };
export type PermissionState = { state: "pending" } | PermissionOutcome;
export interface PermissionEntry {
  kind: "permission";
  id: string;
  requestId: string;
  toolCallId: string;
  title: string;
  options: PermissionOption[];
  /** The plan of the `switch_mode` call this request is for: shown as a plan to approve. */
  plan?: string;
  /** Set when the broker settles the request. Whether it is pending is the broker's word: `TranscriptState.pendingPermissions`. */
  outcome?: PermissionOutcome;
}
export interface NoticeEntry {
  kind: "notice";
  id: string;
  severity: "info" | "warning" | "error";
  text: string;
  /** The one notice of how a turn ended (from the stop reason or the agent's marked text). */
  turnEnd?: true;
  /** A divider: what is above it belongs to another agent (the window switched agents). */
  divider?: true;
}
export type QuestionState = { state: "pending" } | { state: "answered"; summary: string } | { state: "declined" } | { state: "cancelled" };
export interface QuestionEntry {
  kind: "question";
  id: string;
  questionId: string;
  toolCallId?: string;
  /** The agent's message: untrusted, rendered as text. */
  message: string;
  form: QuestionForm;
  /** A URL question: the page the agent asks the user to open. */
  url?: QuestionUrl;
  outcome: QuestionState;
}
export type TranscriptEntry = UserEntry | AgentTextEntry | ToolEntry | CompactionEntry | PermissionEntry | QuestionEntry | NoticeEntry;

export interface TerminalView {
  output: string;
  truncated: boolean;
  exitCode?: number | null;
  signal?: string | null;
}

export interface Usage {
  used: number;
  size: number;
  cost?: { amount: number; currency: string };
}

/** What the session's agent supports beyond prompts (unsupported actions are hidden in the panel). */
export interface SessionFeatures {
  list: boolean;
  /** `_session/steering`: a message can be sent into the running turn. */
  steer: boolean;
}

export interface TranscriptState {
  folderName: string;
  agentName: string;
  agentStatus: AgentStatus;
  statusMessage?: string;
  sessionId?: string;
  title?: string;
  /** True while a `session/prompt` is in flight. */
  running: boolean;
  /** True while history is being loaded (session/load replay). */
  loading: boolean;
  entries: TranscriptEntry[];
  plan: PlanEntry[];
  usage?: Usage;
  commands: AvailableCommand[];
  configOptions: SessionConfigOption[];
  modes?: SessionModeState;
  terminals: Record<string, TerminalView>;
  /** Whether the agent accepts embedded file contents / images in prompts. */
  promptCapabilities: { embeddedContext: boolean; image: boolean };
  /** Session management the agent supports (unsupported actions are hidden in the panel). */
  sessionFeatures: SessionFeatures;
  /**
   * Messages waiting for the running turn to end (the folder session's queue, replaced whenever it
   * changes). Not history: clearing the transcript keeps it.
   */
  queue: QueuedMessage[];
  /** The session's MCP servers: passed, not passed (and why), and their state when the agent reports it. */
  mcpServers: McpRow[];
  /**
   * The request ids the session's permission broker is waiting on: the broker's own list, replaced
   * whenever it changes. Not history: clearing the transcript keeps it.
   */
  pendingPermissions: string[];
  /** Nested calls seen before their parent, by parent id: counted on the parent when it arrives. */
  nestedWaiting?: Record<string, number>;
  /** Next id for entries made by this reducer (deterministic on both sides). */
  nextId: number;
  /** Whether the serving agent is Manifold's own (sandboxed) or a third-party one (runs as the user); unknown until attached. */
  builtin?: boolean;
  /** How a third-party agent's process runs (fenced, or as the user by the user's choice); absent for the built-in one. */
  confinement?: AgentConfinement;
  /** The agent answered `auth_required`: its sign-in methods, shown as a card until a session is bound. */
  auth?: AuthPrompt;
}

export type TranscriptEvent =
  | { type: "acp"; update: TranscriptUpdate }
  | { type: "reset"; folderName: string; agentName: string }
  | { type: "status"; status: AgentStatus; message?: string }
  /** The agent serving this folder is known (or changed): its name reaches the panel as an event like every other fact. */
  | { type: "agent"; agentName: string; builtin?: boolean; confinement?: AgentConfinement }
  | {
      type: "session/bound";
      sessionId: string | undefined;
      configOptions?: SessionConfigOption[];
      modes?: SessionModeState;
      promptCapabilities?: { embeddedContext: boolean; image: boolean };
      sessionFeatures?: SessionFeatures;
      clearHistory: boolean;
    }
  | { type: "loading"; loading: boolean }
  | { type: "user/prompt"; text: string; attachments: string[]; images?: ImageData[] }
  /** Edit and resend forked the conversation: everything from the `keepPrompts`+1-th user message on goes. */
  | { type: "transcript/truncate"; keepPrompts: number }
  | { type: "turn/started" }
  | { type: "turn/ended"; stopReason: TurnStop; message?: string }
  | { type: "permission/requested"; requestId: string; toolCallId: string; title: string; options: PermissionOption[] }
  | { type: "permission/resolved"; requestId: string; outcome: PermissionOutcome }
  | { type: "permissions/pending"; requestIds: string[] }
  | { type: "tools/cancelUnfinished" }
  | { type: "terminal/output"; terminalId: string; view: TerminalView }
  | { type: "config/options"; configOptions: SessionConfigOption[] }
  | { type: "mcp/servers"; servers: McpRow[] }
  | { type: "mcp/status"; servers: McpServerStatus[] }
  | { type: "question/requested"; questionId: string; toolCallId?: string; message: string; form: QuestionForm; url?: QuestionUrl }
  | { type: "question/resolved"; questionId: string; outcome: QuestionState }
  | { type: "notice"; severity: "info" | "warning" | "error"; text: string }
  /** The folder session's queue changed: its whole list. */
  | { type: "queue/changed"; items: QueuedMessage[] }
  /** Sign-in: the agent asks for it / a step runs (`busy`) / it is no longer asked. */
  | { type: "auth/required"; methods: AuthMethodView[]; message: string }
  | { type: "auth/busy"; busy: string | undefined }
  | { type: "auth/cleared" }
  /** The window switched agents: a divider, the transcript above it stays readable. */
  | { type: "agent/switched"; agentName: string };
