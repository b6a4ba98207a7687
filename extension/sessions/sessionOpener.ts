// How an ACP session id becomes a folder's: a new session (with the configured defaults), the
// persisted one again (resume, else load with its replay; an agent taking exact ids gets a minted
// id, bound before it is asked for, and a bound id it does not know is created under it), or a fork before a prompt, each carrying
// the folder's MCP servers, whose rows reach the panel once the session is bound; and restarting one
// of those servers. FolderSession decides when to open (attach, new, switch, delete, edit-and-resend)
// and owns what a bound session serves; this module is the ACP side of opening, kept apart so each
// reads on its own. It sees the folder only through `SessionOpenerHost`. A session whose history the
// host still holds (a panel closed and opened again) is resumed without a replay; any other is loaded,
// and what of its replay arrives after the load answered is kept out of the live turns (ReplayGate).
import type { McpServer, SessionConfigOption, SessionModeState, SessionUpdate } from "@agentclientprotocol/sdk";
import { UnsupportedError, type AcpClient, type AgentFeatures } from "../agent/acpClient";
import { PROTECTED_PATHS_META, type SessionServers } from "../mcp/sessionServers";
import type { Delegation } from "../delegation/childRun";
import { delegateOffer } from "../agent/delegateProtocol";
import type { TranscriptEvent, TranscriptState, TranscriptUpdate } from "../common/transcript";
import type { McpRow } from "../common/mcpRows";
import { errorText } from "../common/text";
import { SESSION_ID_META } from "../../base/sessionIds";
import { HISTORY_META, HistoryMeta, REPLAY_TAIL_META, REPLAYED_META, ReplayedMeta } from "../../base/historyPages";
import type { OlderHistory } from "./hostTranscript";
import { isSessionNotFound, mintSessionId } from "./sessionIds";
import { withProfileMeta } from "./profileChoice";

/**
 * Logged events a tail-first load replays at least: more than a snapshot's entries (an entry is one to
 * a few events). Each older page brings twice that, so scrolling up fetches rarely.
 */
const REPLAY_TAIL_EVENTS = 500;
const HISTORY_PAGE_EVENTS = 1_000;

/** What opening needs of the folder's dependencies (part of `FolderSessionDeps`). */
export interface SessionOpenerDeps {
  /** Persisted binding folder → session id. */
  readonly bindings: { get(folder: string): string | undefined; set(folder: string, sessionId: string | undefined): Promise<void> | void };
  /** Config option values applied to every new session (e.g. `{mode: "read-only"}`), when offered. */
  defaults?(): Record<string, string>;
  /** The MCP servers for a new, loaded or resumed session of this folder (I-102), with the panel's rows. */
  mcpServers?(features: AgentFeatures): Promise<SessionServers>;
  log?(message: string): void;
  /** Which other agents a session may hand tasks to, and the runs (absent: none is offered). */
  delegation?: Delegation;
}

/** What opening reads of the folder session (FolderSession's own public members). */
export interface SessionOpenerHost {
  readonly folder: string;
  /** The transcript as it stands: the session it shows, its config options and MCP rows, a running turn. */
  readonly state: TranscriptState;
  /** The whole transcript, archived entries included. */
  readonly transcript: { readonly length: number; readonly historyOf: string | undefined; setOlder(older: OlderHistory | undefined): void };
  /** An agent update in the transcript's form (diff texts kept aside). */
  viewUpdate(update: SessionUpdate): TranscriptUpdate;
  /** The client the folder is attached to now (an open on an older one has lost to a newer attach). */
  readonly client: AcpClient | undefined;
  readonly sessionId: string | undefined;
  emit(...events: [TranscriptEvent, ...TranscriptEvent[]]): void;
}

/** The folder's one bound session (FolderSession keeps it: its pending requests, files and terminals). */
export interface SessionSlot {
  /** Serves `sessionId` on `client` from now on (whatever was bound before is left). */
  bind(client: AcpClient, sessionId: string): void;
  /** Stops serving the bound session id. */
  unbind(): void;
  /** Aborted when the bound session is left (never aborted while nothing is bound). */
  readonly abandoned: AbortSignal | undefined;
}

/** The update that ends a tail replay (base/historyPages.ts: REPLAYED_META). */
export function isReplayedMarker(update: SessionUpdate): boolean {
  return update.sessionUpdate === "session_info_update" && update._meta?.[REPLAYED_META] !== undefined;
}

/**
 * Keeps a `session/load` replay out of live turns. While a load runs, the message ids it replays are
 * noted; once it answered, an update carrying one of them is a late piece of history: the agent sent
 * that message already, so it is dropped rather than shown again inside the next live turn. Only an
 * agent whose replay carries message ids is gated; without them nothing tells a late replay from a
 * live message, and updates pass as before.
 */
export class ReplayGate {
  #ids = new Set<string>();
  #replaying = false;

  /** A load of another session starts: its replay is noted afresh. */
  begin(): void {
    this.#ids = new Set();
    this.#replaying = true;
  }
  /** The load answered (or failed): what arrives from now on is live. */
  end(): void {
    this.#replaying = false;
  }
  /** A new, resumed or forked session: nothing of an earlier replay applies. */
  clear(): void {
    this.#ids = new Set();
    this.#replaying = false;
  }
  /** Whether `update` is shown: false for a late piece of a replayed message. */
  admit(update: SessionUpdate): boolean {
    const id = "messageId" in update ? (update.messageId ?? undefined) : undefined;
    if (id === undefined) return true;
    if (this.#replaying) {
      this.#ids.add(id);
      return true;
    }
    return !this.#ids.has(id);
  }
}

export class SessionOpener {
  /** Which updates of the bound session belong to its replay (`session/load`) and are not shown live. */
  readonly replay = new ReplayGate();
  /** The MCP rows of the session being (re)opened, shown once it is bound. */
  #mcpRows: McpRow[] = [];
  /** The tail-first load under way, and whether its replay was shown before the answer (`replayed`). */
  #tailLoad: { sessionId: string; shown: boolean } | undefined;
  #protectedPaths: readonly string[] = [];

  constructor(
    private readonly host: SessionOpenerHost,
    private readonly slot: SessionSlot,
    private readonly deps: SessionOpenerDeps,
  ) {}

  /**
   * `session/new` for the folder, persisted as its binding, then the configured defaults applied. An
   * agent that takes exact ids gets one minted here (`<profile>-session-<uuid>` for a profile's), and
   * the binding is written before the request: a window that dies in between finds its session again
   * under that id (I-120).
   */
  async create(client: AcpClient, keepHistory = false, profileId?: string): Promise<void> {
    if (client.features.exactSessionIds) {
      const sessionId = mintSessionId(profileId);
      await this.deps.bindings.set(this.host.folder, sessionId);
      await this.#newSession(client, keepHistory, profileId, sessionId);
    } else {
      await this.#newSession(client, keepHistory, profileId);
      await this.deps.bindings.set(this.host.folder, this.host.sessionId);
    }
    await this.#applyDefaults(client);
  }

  /**
   * `session/new` for the folder, bound as soon as it is answered; under `exactId` it is
   * resume-or-create, and a history the agent holds for that id is replayed into the panel.
   */
  async #newSession(client: AcpClient, keepHistory: boolean, profileId?: string, exactId?: string): Promise<void> {
    const f = client.features;
    const { mcpServers, meta } = await this.#mcp(client);
    const withProfile = withProfileMeta(meta, profileId);
    this.replay.clear();
    await client.newSession(
      this.host.folder,
      (res) => {
        this.slot.bind(client, res.sessionId);
        this.host.emit(boundEvent(res.sessionId, { clearHistory: !keepHistory, answer: res, features: f }));
        this.#showMcp(client, res.sessionId);
      },
      mcpServers,
      exactId !== undefined ? { ...withProfile, [SESSION_ID_META]: exactId } : withProfile,
    );
  }

  async #applyDefaults(client: AcpClient): Promise<void> {
    const sessionId = this.host.sessionId;
    if (!sessionId) return;
    for (const [configId, value] of Object.entries(this.deps.defaults?.() ?? {})) {
      const opt = this.host.state.configOptions.find((o) => o.id === configId);
      if (!opt || opt.type !== "select" || opt.currentValue === value) continue;
      const values = opt.options.flatMap((o) => ("group" in o ? o.options : [o])).map((o) => o.value);
      if (!values.includes(value)) {
        this.deps.log?.(`default ${configId}=${value} is not offered by the agent; ignored`);
        continue;
      }
      try {
        this.host.emit({ type: "config/options", configOptions: await client.setConfigOption(sessionId, configId, value) });
      } catch (err) {
        this.deps.log?.(`could not apply default ${configId}=${value}: ${errorText(err)}`);
      }
    }
  }

  /** Binds `sessionId` again: resumed while the host holds its history (also after its panel was closed), else loaded (replayed) if possible. */
  async reopen(client: AcpClient, sessionId: string, restart: boolean, keepHistory = false): Promise<void> {
    const f = client.features;
    const haveHistory = this.host.transcript.historyOf === sessionId && this.host.transcript.length > 0;
    // With its history here, resume (no replay). Without it, load (replays history) if possible.
    const useResume = f.resume && (haveHistory || !f.load);
    if (!useResume && !f.load) throw new UnsupportedError("this agent can neither resume nor load sessions");
    const { mcpServers, meta } = await this.#mcp(client);
    this.slot.bind(client, sessionId);
    try {
      if (useResume) {
        this.replay.clear();
        const res = await client.resumeSession(sessionId, this.host.folder, mcpServers, meta, this.slot.abandoned);
        this.host.emit(boundEvent(sessionId, { clearHistory: false, answer: res, features: f }));
        this.#showMcp(client, sessionId);
        if (!haveHistory)
          this.host.emit({ type: "notice", severity: "info", text: "Session resumed; this agent does not replay earlier messages." });
      } else {
        this.host.emit(boundEvent(sessionId, { clearHistory: !keepHistory, features: f }), { type: "loading", loading: true });
        this.replay.begin();
        const tailLoad = f.historyPages ? { sessionId, shown: false } : undefined;
        this.#tailLoad = tailLoad;
        try {
          // Left before it answers (closed, switched, disposed): the load is given up with `$/cancel_request`.
          const tail = f.historyPages ? { [REPLAY_TAIL_META]: { events: REPLAY_TAIL_EVENTS } } : {};
          const res = await client.loadSession(sessionId, this.host.folder, mcpServers, { ...meta, ...tail }, this.slot.abandoned);
          if (!tailLoad?.shown) this.host.transcript.setOlder(this.#olderOf(sessionId, res._meta));
          this.host.emit(boundEvent(sessionId, { clearHistory: false, answer: res }));
          this.#showMcp(client, sessionId);
        } finally {
          if (this.#tailLoad === tailLoad) this.#tailLoad = undefined;
          this.replay.end();
          if (!tailLoad?.shown) this.host.emit({ type: "loading", loading: false });
        }
      }
      if (restart)
        this.host.emit({
          type: "notice",
          severity: "warning",
          text: "The agent was restarted; this panel is attached to its session again.",
        });
    } catch (err) {
      // Only undo our own registration: a newer attach (agent restarted meanwhile) may own it now.
      if (this.host.client === client) this.slot.unbind();
      // A bound id the agent never created (the window died before its request): created under it now (I-120).
      if (f.exactSessionIds && isSessionNotFound(err) && this.host.client === client) {
        await this.#newSession(client, keepHistory, undefined, sessionId);
        await this.#applyDefaults(client);
        return;
      }
      throw err;
    }
  }

  /**
   * The end of a tail-first load's replay (REPLAYED_META): the panel shows it now, knowing where the
   * older turns begin, rather than at the answer, which waits until the agent holds the whole session.
   * Anything else (another session's, no load under way, shown already) changes nothing.
   */
  replayed(update: SessionUpdate): void {
    const load = this.#tailLoad;
    if (!load || load.sessionId !== this.host.sessionId || load.shown) return;
    const cursor = ReplayedMeta.safeParse(update._meta?.[REPLAYED_META]);
    if (!cursor.success) return;
    load.shown = true;
    const { beforePrompt } = cursor.data;
    this.host.transcript.setOlder(
      beforePrompt === undefined ? undefined : this.#olderOf(load.sessionId, { [HISTORY_META]: { beforePrompt } }),
    );
    this.host.emit({ type: "loading", loading: false });
  }

  /** The turns a tail-first load left at the agent (its answer's `_meta`), fetched from whichever session the folder shows then. */
  #olderOf(sessionId: string, answerMeta: unknown): OlderHistory | undefined {
    const m = typeof answerMeta === "object" && answerMeta !== null ? (answerMeta as Record<string, unknown>)[HISTORY_META] : undefined;
    const parsed = HistoryMeta.safeParse(m);
    if (!parsed.success) return undefined;
    return {
      beforePrompt: parsed.data.beforePrompt,
      fetch: async (beforePrompt) => {
        // A fork keeps the turns before its cut, so the session shown now is the one to ask.
        const current = this.host.client;
        const id = this.host.sessionId ?? sessionId;
        if (!current) throw new Error("no agent is attached");
        const page = await current.historyPage(id, beforePrompt, HISTORY_PAGE_EVENTS);
        return { updates: page.updates.map((u) => this.host.viewUpdate(u)), fromPrompt: page.fromPrompt };
      },
    };
  }

  /** Binds the agent's fork before prompt `keepPrompts` (the folder left its session first). */
  async openFork(client: AcpClient, forked: string, keepPrompts: number): Promise<void> {
    const { mcpServers, meta } = await this.#mcp(client);
    this.slot.bind(client, forked);
    this.replay.clear();
    // Resuming the (live) fork hands it this folder's MCP servers, like any reopened session.
    const res = await client.resumeSession(forked, this.host.folder, mcpServers, meta);
    this.host.emit(boundEvent(forked, { clearHistory: false, answer: res, features: client.features }), {
      type: "transcript/truncate",
      keepPrompts,
    });
    this.#showMcp(client, forked);
    await this.deps.bindings.set(this.host.folder, forked);
  }

  /**
   * Restarts one MCP server: with the agent's restart method when it has one and the server was
   * passed; otherwise the session is resumed (or loaded) again with its servers computed afresh.
   */
  async restartMcpServer(name: string): Promise<void> {
    const client = this.host.client;
    const sessionId = this.host.sessionId;
    if (!client || !sessionId) throw new Error("no session is attached to this folder");
    const row = this.host.state.mcpServers.find((r) => r.name === name);
    const wasPassed = row !== undefined && ["starting", "ready", "failed", "passed"].includes(row.state);
    if (wasPassed && client.features.mcpRestart) {
      await client.restartMcpServer(sessionId, name);
      return;
    }
    if (this.host.state.running) throw new Error("wait for the running turn to end");
    await this.reopen(client, sessionId, false);
  }

  /** The files the session's MCP servers read or run from the folder, as last sent (I-112). */
  get protectedPaths(): readonly string[] {
    return this.#protectedPaths;
  }

  /**
   * The servers to send, and the session `_meta` naming the files they read or run from the folder
   * (the agent protects them as config, I-112); their rows reach the panel first.
   */
  async #mcp(client: AcpClient): Promise<{ mcpServers: McpServer[]; meta: Record<string, unknown> | undefined }> {
    const f = client.features;
    const got = (await this.deps.mcpServers?.(f)) ?? { servers: [], rows: [], protectedPaths: [] };
    // An agent that reports states shows "starting" until it does; others show "passed".
    const rows = f.mcpStatus ? got.rows.map((r) => (r.state === "passed" ? { ...r, state: "starting" as const } : r)) : got.rows;
    this.#mcpRows = rows;
    this.#protectedPaths = got.protectedPaths;
    const meta = {
      ...(got.protectedPaths.length > 0 ? { [PROTECTED_PATHS_META]: got.protectedPaths } : {}),
      ...(f.delegate ? delegateOffer(this.deps.delegation?.offered() ?? []) : {}),
    };
    return { mcpServers: got.servers, meta: Object.keys(meta).length > 0 ? meta : undefined };
  }

  #showMcp(client: AcpClient, sessionId: string): void {
    this.host.emit({ type: "mcp/servers", servers: this.#mcpRows });
    const status = client.mcpStatusOf(sessionId);
    if (status) this.host.emit({ type: "mcp/status", servers: status });
  }
}

/**
 * The `session/bound` event: the session's config options and modes from the agent's `answer` (to
 * new, resume or load), and what the agent can do (`features`), when given.
 */
function boundEvent(
  sessionId: string,
  o: {
    clearHistory: boolean;
    answer?: { configOptions?: SessionConfigOption[] | null; modes?: SessionModeState | null };
    features?: AgentFeatures;
  },
): TranscriptEvent {
  const { answer, features: f } = o;
  return {
    type: "session/bound",
    sessionId,
    ...(answer?.configOptions ? { configOptions: answer.configOptions } : {}),
    ...(answer?.modes ? { modes: answer.modes } : {}),
    ...(f
      ? { promptCapabilities: { embeddedContext: f.embeddedContext, image: f.image }, sessionFeatures: { list: f.list, steer: f.steering } }
      : {}),
    clearHistory: o.clearHistory,
  };
}
