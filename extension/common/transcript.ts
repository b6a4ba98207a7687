// The per-session transcript's reducer (its model: transcriptModel.ts, re-exported here).
// The extension host folds every event into its copy (so a panel that is shown again, or restored after
// a reload, gets a snapshot) and forwards the same events to the webview, which folds them with this
// same function. One reducer on both sides keeps the two copies equal by construction.
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { applyStatus } from "./mcpRows";
import type {
  AgentTextEntry,
  NoticeEntry,
  PermissionEntry,
  PermissionState,
  QuestionEntry,
  ToolEntry,
  TranscriptEntry,
  TranscriptEvent,
  TranscriptState,
  TranscriptUpdate,
  UserEntry,
} from "./transcriptModel";
import { markedTurnEnd, stopNotice, type TurnEndNotice } from "./turnEnd";
import { imageSrc, type ImageData } from "./images";
import { carryToolIndex, findTool } from "./toolIndex";

export type * from "./transcriptModel";

export function assertNever(x: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(x)}`);
}

export function emptyTranscript(folderName: string, agentName: string): TranscriptState {
  return {
    folderName,
    agentName,
    agentStatus: "idle",
    running: false,
    loading: false,
    entries: [],
    plan: [],
    commands: [],
    configOptions: [],
    terminals: {},
    promptCapabilities: { embeddedContext: false, image: false },
    sessionFeatures: { list: false, steer: false },
    queue: [],
    mcpServers: [],
    pendingPermissions: [],
    nextId: 1,
  };
}

/** Text shown for a content block inside a message (non-text blocks become a short label). */
export function blockText(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
      return "[image]";
    case "audio":
      return "[audio]";
    case "resource_link":
      return `[${block.name}](${block.uri})`;
    case "resource":
      return `[${block.resource.uri}]`;
    default:
      return assertNever(block);
  }
}

/** The entries with the last one replaced (one copy: the transcript can hold thousands, issue #19). */
function withLast(entries: readonly TranscriptEntry[], last: TranscriptEntry): TranscriptEntry[] {
  const out = entries.slice();
  out[out.length - 1] = last;
  return out;
}

function mintId(s: TranscriptState): [string, number] {
  return [`e${s.nextId}`, s.nextId + 1];
}

function appendChunk(s: TranscriptState, kind: "agent" | "thought", text: string, messageId: string | undefined): TranscriptState {
  const last = s.entries[s.entries.length - 1];
  if (last && last.kind === kind && (messageId === undefined || last.messageId === undefined || last.messageId === messageId)) {
    const id = last.messageId ?? messageId;
    const merged: AgentTextEntry = { ...last, text: last.text + text, ...(id !== undefined ? { messageId: id } : {}) };
    return { ...s, entries: withLast(s.entries, merged) };
  }
  const [id, nextId] = mintId(s);
  const entry: AgentTextEntry = { kind, id, text, ...(messageId !== undefined ? { messageId } : {}) };
  return { ...s, nextId, entries: s.entries.concat([entry]) };
}

/** An image block the panel can show (an admitted type): kept as an image, not as the "[image]" label. */
function shownImage(block: ContentBlock): ImageData | undefined {
  if (block.type !== "image") return undefined;
  const img = { mimeType: block.mimeType, data: block.data };
  return imageSrc(img) ? img : undefined;
}

function appendUserChunk(s: TranscriptState, block: ContentBlock, meta: unknown): TranscriptState {
  const steer = steerMark(meta);
  const last = s.entries[s.entries.length - 1];
  const image = shownImage(block);
  const isAttachment = block.type === "resource_link" || block.type === "resource";
  const name =
    block.type === "resource_link" ? block.name : block.type === "resource" ? (block.resource.uri.split("/").pop() ?? "resource") : "";
  // A steer is its own message: it never joins the prompt (or another steer) before it.
  if (last && last.kind === "user" && !steer && !last.steered) {
    const merged: UserEntry = image
      ? { ...last, images: [...(last.images ?? []), image] }
      : isAttachment
        ? { ...last, attachments: [...last.attachments, name] }
        : { ...last, text: last.text + blockText(block) };
    return { ...s, entries: withLast(s.entries, merged) };
  }
  const [id, nextId] = mintId(s);
  const entry: UserEntry = {
    kind: "user",
    id,
    text: isAttachment || image ? "" : blockText(block),
    attachments: isAttachment ? [name] : [],
    ...(steer ? { steered: true as const } : {}),
    ...(image ? { images: [image] } : {}),
  };
  return { ...s, nextId, entries: s.entries.concat([entry]) };
}

function upsertTool(s: TranscriptState, toolCallId: string, patch: (old: ToolEntry | undefined) => Omit<ToolEntry, "id">): TranscriptState {
  const idx = findTool(s.entries, toolCallId);
  if (idx >= 0) {
    const old = s.entries[idx] as ToolEntry;
    const entries = s.entries.slice();
    entries[idx] = { ...patch(old), id: old.id };
    return { ...s, entries };
  }
  const [id, nextId] = mintId(s);
  return { ...s, nextId, entries: s.entries.concat([{ ...patch(undefined), id }]) };
}

function applyAcp(s: TranscriptState, u: TranscriptUpdate): TranscriptState {
  switch (u.sessionUpdate) {
    case "user_message_chunk":
      return appendUserChunk(s, u.content, u._meta);
    case "agent_message_chunk": {
      const marked = markedTurnEnd(u._meta, blockText(u.content));
      if (marked) return withTurnEnd(s, marked, "marker");
      if (isSteerNotAppliedNotice(u._meta))
        return withNotice(
          s,
          "warning",
          blockText(u.content)
            .trim()
            .replace(/^⚠️\s*/u, ""),
        );
      return appendChunk(s, "agent", blockText(u.content), u.messageId ?? undefined);
    }
    case "agent_thought_chunk":
      return appendChunk(s, "thought", blockText(u.content), u.messageId ?? undefined);
    case "tool_call":
      return upsertTool(s, u.toolCallId, () => ({
        kind: "tool",
        toolCallId: u.toolCallId,
        title: u.title,
        toolKind: u.kind ?? "other",
        status: u.status ?? "pending",
        content: u.content ?? [],
        locations: u.locations ?? [],
      }));
    case "tool_call_update":
      return upsertTool(s, u.toolCallId, (old) => ({
        kind: "tool",
        toolCallId: u.toolCallId,
        title: u.title ?? old?.title ?? "Tool call",
        toolKind: u.kind ?? old?.toolKind ?? "other",
        // A late update never revives a call the client already marked cancelled.
        status:
          old?.status === "cancelled" && u.status !== "completed" && u.status !== "failed"
            ? "cancelled"
            : (u.status ?? old?.status ?? "pending"),
        content: u.content ?? old?.content ?? [],
        locations: u.locations ?? old?.locations ?? [],
      }));
    case "plan":
      return { ...s, plan: u.entries };
    case "available_commands_update":
      return { ...s, commands: u.availableCommands };
    case "current_mode_update":
      return s.modes ? { ...s, modes: { ...s.modes, currentModeId: u.currentModeId } } : s;
    case "config_option_update":
      return { ...s, configOptions: u.configOptions };
    case "session_info_update": {
      if (u.title === undefined) return s;
      const { title: _old, ...rest } = s;
      return u.title === null ? rest : { ...s, title: u.title };
    }
    case "usage_update":
      return {
        ...s,
        usage: { used: u.used, size: u.size, ...(u.cost ? { cost: { amount: u.cost.amount, currency: u.cost.currency } } : {}) },
      };
    case "notice": {
      const [id, nextId] = mintId(s);
      const severity = u.severity === "warning" || u.severity === "error" ? u.severity : "info";
      const text = u.description ? `${u.title}: ${u.description}` : u.title;
      return { ...s, nextId, entries: s.entries.concat([{ kind: "notice", id, severity, text }]) };
    }
    case "compaction_update":
    case "compaction_summary_chunk":
      return s;
    default:
      return assertNever(u);
  }
}

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

function withNotice(s: TranscriptState, severity: NoticeEntry["severity"], text: string): TranscriptState {
  const [id, nextId] = mintId(s);
  return { ...s, nextId, entries: s.entries.concat([{ kind: "notice", id, severity, text }]) };
}

/**
 * Adds the turn's one end notice, or merges into it when the turn already has one (it is then the
 * last entry: nothing follows a turn's end). The agent's marked text wins over the stop reason's
 * generic sentence, whichever arrives first.
 */
function withTurnEnd(s: TranscriptState, notice: TurnEndNotice, from: "marker" | "stopReason"): TranscriptState {
  const last = s.entries[s.entries.length - 1];
  if (last?.kind === "notice" && last.turnEnd) {
    if (from === "stopReason") return s;
    return { ...s, entries: withLast(s.entries, { ...last, ...notice }) };
  }
  const [id, nextId] = mintId(s);
  return { ...s, nextId, entries: s.entries.concat([{ kind: "notice", id, ...notice, turnEnd: true }]) };
}

export function reduceTranscript(s: TranscriptState, ev: TranscriptEvent): TranscriptState {
  const next = reduce(s, ev);
  if (next.entries !== s.entries) carryToolIndex(s.entries, next.entries);
  return next;
}

function reduce(s: TranscriptState, ev: TranscriptEvent): TranscriptState {
  switch (ev.type) {
    case "acp":
      return applyAcp(s, ev.update);
    case "reset":
      return {
        ...emptyTranscript(ev.folderName, ev.agentName),
        agentStatus: s.agentStatus,
        pendingPermissions: s.pendingPermissions,
        queue: s.queue,
        ...(s.statusMessage !== undefined ? { statusMessage: s.statusMessage } : {}),
        ...(s.builtin !== undefined ? { builtin: s.builtin } : {}),
      };
    case "status": {
      const { statusMessage: _m, ...rest } = s;
      return ev.message !== undefined
        ? { ...rest, agentStatus: ev.status, statusMessage: ev.message }
        : { ...rest, agentStatus: ev.status };
    }
    case "agent":
      return { ...s, agentName: ev.agentName, ...(ev.builtin !== undefined ? { builtin: ev.builtin } : {}) };
    case "auth/required":
      return { ...s, auth: { methods: ev.methods, message: ev.message } };
    case "auth/busy": {
      if (!s.auth) return s;
      const { busy: _b, ...auth } = s.auth;
      return { ...s, auth: ev.busy !== undefined ? { ...auth, busy: ev.busy } : auth };
    }
    case "auth/cleared": {
      const { auth: _a, ...rest } = s;
      return rest;
    }
    case "agent/switched": {
      const [id, nextId] = mintId(s);
      const divider: NoticeEntry = { kind: "notice", id, severity: "info", text: `Agent switched to ${ev.agentName}`, divider: true };
      return { ...s, nextId, entries: [...s.entries, divider] };
    }
    case "session/bound": {
      const base: TranscriptState = ev.clearHistory
        ? {
            ...emptyTranscript(s.folderName, s.agentName),
            agentStatus: s.agentStatus,
            pendingPermissions: s.pendingPermissions,
            queue: s.queue,
            nextId: s.nextId,
            ...(s.builtin !== undefined ? { builtin: s.builtin } : {}),
            ...(s.auth ? { auth: s.auth } : {}),
          }
        : s;
      const { sessionId: _sid, modes: _modes, auth: _auth, ...rest } = base;
      return {
        ...(ev.sessionId === undefined && base.auth ? { auth: base.auth } : {}),
        ...rest,
        ...(ev.sessionId !== undefined ? { sessionId: ev.sessionId } : {}),
        ...(ev.modes ? { modes: ev.modes } : {}),
        configOptions: ev.configOptions ?? base.configOptions,
        promptCapabilities: ev.promptCapabilities ?? base.promptCapabilities,
        sessionFeatures: ev.sessionFeatures ?? base.sessionFeatures,
      };
    }
    case "loading":
      return { ...s, loading: ev.loading };
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
    case "permission/requested": {
      const [id, nextId] = mintId(s);
      const entry: PermissionEntry = {
        kind: "permission",
        id,
        requestId: ev.requestId,
        toolCallId: ev.toolCallId,
        title: ev.title,
        options: ev.options,
      };
      return { ...s, nextId, entries: s.entries.concat([entry]) };
    }
    case "permission/resolved":
      return {
        ...s,
        entries: s.entries.map((e) => (e.kind === "permission" && e.requestId === ev.requestId ? { ...e, outcome: ev.outcome } : e)),
      };
    case "permissions/pending":
      return { ...s, pendingPermissions: ev.requestIds };
    case "queue/changed":
      return { ...s, queue: ev.items };
    case "question/requested": {
      const [id, nextId] = mintId(s);
      const entry: QuestionEntry = {
        kind: "question",
        id,
        questionId: ev.questionId,
        ...(ev.toolCallId !== undefined ? { toolCallId: ev.toolCallId } : {}),
        message: ev.message,
        form: ev.form,
        outcome: { state: "pending" },
      };
      return { ...s, nextId, entries: s.entries.concat([entry]) };
    }
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
    case "config/options":
      return { ...s, configOptions: ev.configOptions };
    case "mcp/servers":
      return { ...s, mcpServers: ev.servers };
    case "mcp/status":
      return { ...s, mcpServers: applyStatus(s.mcpServers, ev.servers) };
    case "notice":
      return withNotice(s, ev.severity, ev.text);
    default:
      return assertNever(ev);
  }
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

/** The `_meta` an agent puts on a `user_message_chunk` that is a steer (agent-server/acp/updates.ts). */
function steerMark(meta: unknown): boolean {
  if (typeof meta !== "object" || meta === null) return false;
  const m = (meta as Record<string, unknown>)["manifold/steer"];
  return typeof m === "object" && m !== null;
}

/** The agent's notice that a steer arrived too late for the model to act on it. */
function isSteerNotAppliedNotice(meta: unknown): boolean {
  if (typeof meta !== "object" || meta === null) return false;
  const n = (meta as Record<string, unknown>)["manifold/notice"];
  return typeof n === "object" && n !== null && (n as Record<string, unknown>).kind === "steerNotApplied";
}
