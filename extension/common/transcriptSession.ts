// Transcript events about the session and its agent, not the conversation: reset, status, auth,
// binding, loading, config options and MCP servers.
import { applyStatus } from "./mcpRows";
import type { NoticeEntry, TranscriptEvent, TranscriptState } from "./transcriptModel";
import { assertNever, mintId } from "./transcriptEntries";

const SESSION_EVENT_TYPES = {
  reset: true,
  status: true,
  agent: true,
  "auth/required": true,
  "auth/busy": true,
  "auth/cleared": true,
  "agent/switched": true,
  "session/bound": true,
  loading: true,
  "config/options": true,
  "mcp/servers": true,
  "mcp/status": true,
} as const;

/** The events this file folds (each listed type is one `reduceSession` handles). */
export type SessionEvent = Extract<TranscriptEvent, { type: keyof typeof SESSION_EVENT_TYPES }>;

export function isSessionEvent(ev: TranscriptEvent): ev is SessionEvent {
  return Object.hasOwn(SESSION_EVENT_TYPES, ev.type);
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

export function reduceSession(s: TranscriptState, ev: SessionEvent): TranscriptState {
  switch (ev.type) {
    case "reset":
      return {
        ...emptyTranscript(ev.folderName, ev.agentName),
        agentStatus: s.agentStatus,
        pendingPermissions: s.pendingPermissions,
        queue: s.queue,
        ...(s.statusMessage !== undefined ? { statusMessage: s.statusMessage } : {}),
        ...(s.builtin !== undefined ? { builtin: s.builtin } : {}),
        ...(s.confinement ? { confinement: s.confinement } : {}),
      };
    case "status": {
      const { statusMessage: _m, ...rest } = s;
      return ev.message !== undefined
        ? { ...rest, agentStatus: ev.status, statusMessage: ev.message }
        : { ...rest, agentStatus: ev.status };
    }
    case "agent": {
      const { confinement: _c, ...rest } = s;
      return {
        ...rest,
        agentName: ev.agentName,
        ...(ev.builtin !== undefined ? { builtin: ev.builtin } : {}),
        ...(ev.confinement ? { confinement: ev.confinement } : {}),
      };
    }
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
            ...(s.confinement ? { confinement: s.confinement } : {}),
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
    case "config/options":
      return { ...s, configOptions: ev.configOptions };
    case "mcp/servers":
      return { ...s, mcpServers: ev.servers };
    case "mcp/status":
      return { ...s, mcpServers: applyStatus(s.mcpServers, ev.servers) };
    default:
      return assertNever(ev);
  }
}
