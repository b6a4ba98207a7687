// Session lifecycle requests: new (also under a client-minted exact id: exactSession.ts), load, resume,
// list, delete, set_config_option / set_mode.
import {
  RequestError,
  type ListSessionsResponse,
  type LoadSessionResponse,
  type NewSessionResponse,
  type SessionConfigOption,
  type SessionInfo,
  type SessionModeState,
} from "@agentclientprotocol/sdk";
import { realpath } from "node:fs/promises";
import { canonicalCwd, CwdError } from "../runtime/cwd";
import { AbortedError } from "../runtime/abortable";
import { AlreadyLiveError } from "../runtime/liveAgents";
import { validateConfigValue } from "../runtime/settings";
import { CorruptSessionError, SessionExistsError, SessionNotFoundError, UnsupportedVersionError } from "../session/errors";
import type { SessionHeader } from "../session/events";
import type { Bridge } from "./bridge";
import { configOptions, effectiveSettings, modeState } from "./config";
import type { SessionRecord } from "./record";
import { commandsUpdate } from "./availableCommands";
import { replayOf, replayTailEvents } from "./historyPages";
import { entriesSource, TailKeeper } from "./replaySource";
import { McpConfigError, parseMcpServers, type McpServerSpec } from "../mcp";
import { protectedPathsOf } from "./protectedPaths";
import { delegateAgentsOf } from "./remoteDelegate";
import { exactRequestOf, openExact } from "./exactSession";
import { errorMessage, logError } from "../../base/errors";
import { applyProfileSettings, handleProfileSwitch, profileListMeta, profileOptions, requestedProfile } from "./profileOption";
import { sessionProfileOf } from "../runtime/profiles";

const PAGE_SIZE = 50;

/** I-64: what we do not support is refused, never ignored. */
export function rejectUnsupported(params: { additionalDirectories?: string[] | null }): void {
  if (params.additionalDirectories && params.additionalDirectories.length > 0) {
    throw RequestError.invalidParams(
      undefined,
      "additionalDirectories is not supported by this agent (it is not advertised); use one session per folder",
    );
  }
}

/** The session's MCP servers, validated before anything is built (unsupported transports are refused). */
function mcpSpecsOrThrow(bridge: Bridge, raw: unknown): McpServerSpec[] {
  let specs: McpServerSpec[];
  try {
    specs = parseMcpServers(raw);
  } catch (err) {
    if (err instanceof McpConfigError) throw RequestError.invalidParams(undefined, err.message);
    throw err;
  }
  if (specs.length > 0 && !bridge.deps.mcp)
    throw RequestError.invalidParams(undefined, "MCP servers are not available in this agent; send mcpServers: []");
  return specs;
}

/** Starts (or replaces) the session's own MCP servers; they stop when its agent is disposed. */
async function useMcpServers(bridge: Bridge, rec: SessionRecord, specs: readonly McpServerSpec[]): Promise<void> {
  await bridge.deps.mcp?.replace(rec.sessionId, specs, { root: rec.agent.root, tmpDir: rec.agent.tmpDir });
}

async function cwdOrThrow(cwd: unknown): Promise<string> {
  try {
    return await canonicalCwd(cwd);
  } catch (err) {
    if (err instanceof CwdError) throw RequestError.invalidParams(undefined, err.message);
    throw err;
  }
}

export function mapLifecycleError(err: unknown, sessionId: string): unknown {
  if (err instanceof RequestError) return err;
  if (err instanceof SessionNotFoundError) return RequestError.sessionNotFound(sessionId);
  if (err instanceof AlreadyLiveError || err instanceof SessionExistsError) return RequestError.invalidParams(undefined, err.message);
  if (err instanceof McpConfigError) return RequestError.invalidParams(undefined, err.message);
  if (err instanceof CorruptSessionError || err instanceof UnsupportedVersionError)
    return RequestError.internalError(undefined, err.message);
  if (err instanceof CwdError) return RequestError.invalidParams(undefined, err.message);
  if (err instanceof AbortedError) return RequestError.internalError(undefined, "the agent is shutting down");
  return err;
}

/**
 * Builds the live agent of a persisted session; one that resolves after teardown began is disposed
 * and refused (I-20). Used by load/resume and by a fork's new log.
 */
export async function resumePersisted(bridge: Bridge, id: string): Promise<Awaited<ReturnType<Bridge["live"]["resume"]>>> {
  let agent;
  try {
    agent = await bridge.withCreationSignal((signal) => bridge.live.resume({ resumeSessionId: id, signal }));
  } catch (err) {
    throw mapLifecycleError(err, id);
  }
  if (bridge.closed) {
    await bridge.live.dispose(agent).catch(logError(console.error, `[acp] disposing ${id} after close`));
    throw RequestError.internalError(undefined, "the agent is shutting down");
  }
  return agent;
}

export function sessionState(bridge: Bridge, rec: SessionRecord): { configOptions: SessionConfigOption[]; modes: SessionModeState } {
  const s = effectiveSettings(rec.agent.settings, rec.pendingConfig);
  return {
    configOptions: [
      ...configOptions(s, bridge.deps.models, bridge.deps.sandboxBackend?.()),
      ...profileOptions(bridge.deps.profiles ?? [], rec.agent.session.header.profile),
    ],
    modes: modeState(s),
  };
}

export async function newSession(
  bridge: Bridge,
  params: { cwd: string; additionalDirectories?: string[] | null; mcpServers: unknown[]; _meta?: Record<string, unknown> | null },
): Promise<NewSessionResponse> {
  bridge.requireOpen();
  const exact = exactRequestOf(params._meta); // I-9: before any I/O or registration
  rejectUnsupported(params);
  const specs = mcpSpecsOrThrow(bridge, params.mcpServers);
  const protectedPaths = protectedPathsOf(params);
  const delegates = delegateAgentsOf(params);
  const profile = requestedProfile(bridge.deps.profiles ?? [], bridge.deps.models, params._meta);
  const fitOut = async (rec: SessionRecord): Promise<void> => {
    if (protectedPaths) rec.agent.setProtectedPaths(protectedPaths);
    rec.delegateAgents = delegates;
    await useMcpServers(bridge, rec, specs);
  };
  if (exact)
    return openExact(bridge, exact, {
      cwd: () => cwdOrThrow(params.cwd),
      checkPersistedCwd: (id, header, cwd) => checkPersistedCwd(id, header, cwd, params.cwd),
      mapError: mapLifecycleError,
      create: (cwd, id) => createLive(bridge, cwd, id, profile),
      restore: (id) => resumePersisted(bridge, id),
      fitOut,
      state: (rec) => sessionState(bridge, rec),
    });
  // The creation makes the cwd canonical (I-63) and refuses a bad one as invalid params (mapLifecycleError).
  const agent = await createLive(bridge, params.cwd, undefined, profile);
  const rec = bridge.adopt(agent);
  await fitOut(rec);
  return { sessionId: agent.sessionId, ...sessionState(bridge, rec) };
}

/**
 * A new live agent for `cwd`: under `sessionId` when given (a client-minted exact id), else a minted
 * UUID v4 (I-6), or `<label>-session-<uuid>` when started from a profile (I-7), whose settings it starts with.
 */
async function createLive(
  bridge: Bridge,
  cwd: string,
  sessionId?: string,
  profile?: ReturnType<typeof requestedProfile>,
): Promise<Awaited<ReturnType<Bridge["live"]["create"]>>> {
  let agent;
  try {
    agent = await bridge.withCreationSignal((signal) =>
      bridge.live.create({
        cwd,
        signal,
        ...(sessionId !== undefined ? { sessionId } : {}),
        ...(profile ? { profile: sessionProfileOf(profile) } : {}),
      }),
    );
  } catch (err) {
    throw mapLifecycleError(err, sessionId ?? "");
  }
  if (bridge.closed) {
    await bridge.live.dispose(agent).catch(logError(console.error, `[acp] disposing ${agent.sessionId} after close`)); // I-82: never published after close
    throw RequestError.internalError(undefined, "the agent is shutting down");
  }
  applyProfileSettings(agent, profile);
  return agent;
}

/** I-19: a persisted session opens only in the folder it belongs to, checked before any agent is built. */
async function checkPersistedCwd(id: string, header: SessionHeader, cwd: string, asked: string): Promise<void> {
  let persisted: string;
  try {
    persisted = await canonicalCwd(header.cwd);
  } catch (err) {
    throw RequestError.invalidParams(undefined, `session ${JSON.stringify(id)} has no usable cwd: ${errorMessage(err)}`);
  }
  if (persisted !== cwd)
    throw RequestError.invalidParams(undefined, `session ${JSON.stringify(id)} belongs to ${header.cwd}, not ${asked}`);
}

function withAnswerMeta<T extends object>(answer: T, meta: Record<string, unknown> | undefined): T & { _meta?: Record<string, unknown> } {
  return meta ? { ...answer, _meta: meta } : answer;
}

/**
 * A tail-first load's replay, sent before the session is built: a scan of the log (open's checks,
 * nothing kept but what the tail needs) gives the latest turns, so the client paints them while the
 * whole log is read into the agent; every update still precedes the answer (I-25). Undefined (the
 * replay comes from the built agent) for a full replay, a session live elsewhere, or a log that open
 * would recover (I-87: its recovery events are part of what is replayed).
 */
async function replayAhead(bridge: Bridge, id: string, meta: Record<string, unknown> | null | undefined): Promise<Replay | undefined> {
  const events = replayTailEvents(meta);
  if (events === undefined || bridge.live.get(id)) return undefined;
  const kept = new TailKeeper(events);
  let scanned;
  try {
    scanned = await bridge.live.store.scan(id, (entry) => kept.add(entry));
  } catch (err) {
    throw mapLifecycleError(err, id);
  }
  if (scanned.recovers) return undefined;
  const replayed = replayOf(kept, meta);
  let sent: Promise<void> = Promise.resolve();
  for (const u of replayed.updates) sent = bridge.sendAhead(id, u);
  await sent;
  return replayed;
}

type Replay = ReturnType<typeof replayOf>;

/** load (replay) and resume (no replay) share the reservation and the checks (I-16..20). */
export async function attachSession(
  bridge: Bridge,
  params: {
    sessionId: string;
    cwd: string;
    additionalDirectories?: string[] | null;
    mcpServers?: unknown[] | null;
    _meta?: Record<string, unknown> | null;
  },
  replay: boolean,
): Promise<LoadSessionResponse> {
  bridge.requireOpen();
  rejectUnsupported(params);
  const specs = mcpSpecsOrThrow(bridge, params.mcpServers);
  const protectedPaths = protectedPathsOf(params);
  const delegates = delegateAgentsOf(params);
  const id = params.sessionId;
  if (bridge.loading.has(id)) throw RequestError.invalidParams(undefined, `session ${JSON.stringify(id)} is already loading`);
  const live = bridge.records.get(id);
  if (live) {
    if (protectedPaths) live.agent.setProtectedPaths(protectedPaths);
    live.delegateAgents = delegates;
    return reattach(bridge, live, params, specs, replay);
  }
  bridge.loading.add(id); // synchronous reservation (I-16)
  try {
    const cwd = await cwdOrThrow(params.cwd);
    // I-19: the persisted cwd is validated before any agent is built.
    let header;
    try {
      header = await bridge.live.store.readHeader(id);
    } catch (err) {
      throw mapLifecycleError(err, id);
    }
    await checkPersistedCwd(id, header, cwd, params.cwd);
    const ahead = replay ? await replayAhead(bridge, id, params._meta) : undefined;
    const agent = await resumePersisted(bridge, id);
    if (protectedPaths) agent.setProtectedPaths(protectedPaths);
    const rec = bridge.adopt(agent);
    rec.delegateAgents = delegates;
    const replayed = ahead ?? (replay ? replayOf(entriesSource(agent.session.entries), params._meta) : undefined);
    if (!ahead) for (const u of replayed?.updates ?? []) bridge.send(rec, u); // I-25: before the response
    bridge.send(rec, commandsUpdate());
    await rec.lastSend;
    await useMcpServers(bridge, rec, specs);
    return withAnswerMeta(sessionState(bridge, rec), replayed?.answerMeta);
  } finally {
    bridge.loading.delete(id); // I-18
  }
}

/**
 * load/resume of a session already open on this connection. An idle one re-syncs the client: load
 * replays its history (the same agent, nothing rebuilt) and the servers passed replace its set;
 * resume restores nothing and keeps the set unless servers are passed. A session with a prompt
 * running is refused: its history is still being written.
 */
async function reattach(
  bridge: Bridge,
  rec: SessionRecord,
  params: { cwd: string; mcpServers?: unknown[] | null; _meta?: Record<string, unknown> | null },
  specs: McpServerSpec[],
  replay: boolean,
): Promise<LoadSessionResponse> {
  const id = rec.sessionId;
  if (!replay) {
    if (params.mcpServers !== undefined && params.mcpServers !== null) await useMcpServers(bridge, rec, specs);
    bridge.send(rec, commandsUpdate());
    await rec.lastSend;
    return sessionState(bridge, rec);
  }
  if (rec.active || rec.agent.inTurn)
    throw RequestError.invalidParams(
      undefined,
      `session ${JSON.stringify(id)} has a prompt running; cancel it and wait for it to end before loading it again`,
    );
  bridge.loading.add(id); // synchronous, before the first await: a racing load of this id is refused as today (I-16)
  try {
    const cwd = await cwdOrThrow(params.cwd);
    if (cwd !== rec.agent.root)
      throw RequestError.invalidParams(undefined, `session ${JSON.stringify(id)} belongs to ${rec.agent.cwd}, not ${params.cwd}`);
    if (bridge.records.get(id) !== rec) throw RequestError.sessionNotFound(id); // closed meanwhile
    if (rec.active || rec.agent.inTurn)
      throw RequestError.invalidParams(
        undefined,
        `session ${JSON.stringify(id)} has a prompt running; cancel it and wait for it to end before loading it again`,
      );
    const replayed = replayOf(entriesSource(rec.agent.session.entries), params._meta);
    for (const u of replayed.updates) bridge.send(rec, u); // I-25: before the response
    bridge.send(rec, commandsUpdate());
    await rec.lastSend;
    await useMcpServers(bridge, rec, specs);
    return withAnswerMeta(sessionState(bridge, rec), replayed.answerMeta);
  } finally {
    bridge.loading.delete(id);
  }
}

export async function listSessions(bridge: Bridge, params: { cwd?: string | null; cursor?: string | null }): Promise<ListSessionsResponse> {
  let all = await bridge.live.store.list();
  if (params.cwd) {
    const wanted = new Set([params.cwd]);
    try {
      wanted.add(await realpath(params.cwd));
    } catch {
      // a missing folder simply matches its own spelling
    }
    all = all.filter((s) => wanted.has(s.cwd));
  }
  all = all.filter((s) => s.parent === undefined);
  all.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : a.sessionId.localeCompare(b.sessionId)));
  let start = 0;
  if (params.cursor) {
    const n = Number.parseInt(Buffer.from(params.cursor, "base64url").toString("utf8"), 10);
    if (!Number.isInteger(n) || n < 0) throw RequestError.invalidParams(undefined, "invalid cursor");
    start = n;
  }
  const page = all.slice(start, start + PAGE_SIZE);
  const sessions: SessionInfo[] = page.map((s) => ({
    sessionId: s.sessionId,
    cwd: s.cwd,
    updatedAt: s.updatedAt,
    ...(s.title !== undefined ? { title: s.title } : {}),
    ...profileListMeta(s.profile),
  }));
  const res: ListSessionsResponse = { sessions };
  if (start + PAGE_SIZE < all.length) res.nextCursor = Buffer.from(String(start + PAGE_SIZE), "utf8").toString("base64url");
  return res;
}

export async function deleteSession(bridge: Bridge, sessionId: string): Promise<void> {
  bridge.requireOpen();
  const rec = bridge.records.get(sessionId);
  if (rec) await bridge.closeSession(rec);
  try {
    await bridge.live.deleteSession(sessionId);
  } catch (err) {
    throw mapLifecycleError(err, sessionId);
  }
}

export function setConfig(bridge: Bridge, sessionId: string, configId: string, value: unknown): ReturnType<typeof sessionState> {
  bridge.requireOpen();
  const rec = bridge.requireRecord(sessionId);
  if (handleProfileSwitch(configId, value, rec.agent.session.header.profile)) return sessionState(bridge, rec);
  const problem = validateConfigValue(
    configId,
    value,
    bridge.deps.models.map((m) => m.id),
  );
  if (problem) throw RequestError.invalidParams(undefined, problem); // I-53: nothing changes
  const v = value as string;
  if (rec.agent.inTurn) {
    rec.agent.appendConfig(configId, v); // I-50: mid-turn switches land in the current turn
  } else {
    // I-51: last write wins; a switch back to the durable value records nothing.
    rec.pendingConfig.delete(configId);
    const durable = effectiveSettings(rec.agent.settings, rec.pendingConfig);
    const next = effectiveSettings(durable, new Map([[configId, v]]));
    const same = next.sandbox === durable.sandbox && next.approval === durable.approval && next.model === durable.model;
    if (!same) rec.pendingConfig.set(configId, v);
    const effective = effectiveSettings(rec.agent.settings, rec.pendingConfig);
    if (
      effective.sandbox === rec.agent.settings.sandbox &&
      effective.approval === rec.agent.settings.approval &&
      effective.model === rec.agent.settings.model
    ) {
      rec.pendingConfig.clear();
    }
  }
  return sessionState(bridge, rec);
}
