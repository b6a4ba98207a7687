// `session/new` under a client-minted exact id (`_meta["manifold.dev/sessionId"]`): resume-or-create.
// Absent on disk → created under that id; present → restored (persisted cwd checked, history
// replayed before the answer, as `session/load` does); corrupt → an error, the file untouched; live
// on this connection → the same agent. `_meta["manifold.dev/resumeSessionId"]` restores only. A
// disposal of the same id still running is awaited before anything is decided (I-13). Asking twice,
// or again after the client lost its answer, yields one session (I-120).
import { RequestError, type NewSessionResponse } from "@agentclientprotocol/sdk";
import { exactIdProblem, RESUME_SESSION_ID_META, SESSION_ID_META, SESSION_ORIGIN_META, type SessionOrigin } from "../../base/sessionIds";
import { SessionNotFoundError } from "../session/errors";
import type { SessionHeader } from "../session/events";
import type { Agent } from "../runtime/agent";
import type { Bridge } from "./bridge";
import type { SessionRecord } from "./record";
import { replayUpdates } from "./updates";

export interface ExactRequest {
  /** `exact`: resume-or-create; `resume`: restore only. */
  kind: "exact" | "resume";
  id: string;
}

/**
 * The exact id a `session/new` asks for, if any. Both keys, or an invalid id, are refused here,
 * before any I/O or registration (I-9).
 */
export function exactRequestOf(meta: Record<string, unknown> | null | undefined): ExactRequest | undefined {
  if (!meta) return undefined;
  const exact = meta[SESSION_ID_META];
  const resume = meta[RESUME_SESSION_ID_META];
  if (exact !== undefined && resume !== undefined)
    throw RequestError.invalidParams(undefined, `${SESSION_ID_META} and ${RESUME_SESSION_ID_META} cannot be given together`);
  if (exact === undefined && resume === undefined) return undefined;
  const req: ExactRequest = exact !== undefined ? { kind: "exact", id: exact as string } : { kind: "resume", id: resume as string };
  const problem = exactIdProblem(exact ?? resume);
  if (problem) throw RequestError.invalidParams(undefined, problem);
  return req;
}

/** What newSession hands over: the checks it made, and how to build and fit out an agent. */
export interface ExactDeps {
  cwd: () => Promise<string>;
  /** The persisted cwd of `header`, checked against the request's (I-19); throws when it differs. */
  checkPersistedCwd: (id: string, header: SessionHeader, cwd: string) => Promise<void>;
  mapError: (err: unknown, id: string) => unknown;
  create: (cwd: string, id: string) => Promise<Agent>;
  restore: (id: string) => Promise<Agent>;
  /** Protected paths and MCP servers of the session. */
  fitOut: (rec: SessionRecord) => Promise<void>;
  state: (rec: SessionRecord) => Omit<NewSessionResponse, "sessionId">;
}

function answer(deps: ExactDeps, rec: SessionRecord, origin: SessionOrigin): NewSessionResponse {
  return { sessionId: rec.sessionId, ...deps.state(rec), _meta: { [SESSION_ORIGIN_META]: origin } };
}

export async function openExact(bridge: Bridge, req: ExactRequest, deps: ExactDeps): Promise<NewSessionResponse> {
  const { id } = req;
  if (bridge.loading.has(id)) throw RequestError.invalidParams(undefined, `session ${JSON.stringify(id)} is already loading`);
  bridge.loading.add(id); // synchronous reservation, as load's (I-16)
  try {
    const cwd = await deps.cwd();
    await bridge.live.drained(id); // I-13: a same-id disposal ends before anything is decided
    const live = bridge.records.get(id);
    // A record whose agent is no longer the live one is a session closing: it counts as not live.
    if (live && bridge.live.get(id) === live.agent) {
      if (cwd !== live.agent.root)
        throw RequestError.invalidParams(undefined, `session ${JSON.stringify(id)} belongs to ${live.agent.cwd}, not ${cwd}`);
      await deps.fitOut(live);
      return answer(deps, live, "live");
    }
    let header: SessionHeader | undefined;
    try {
      header = await bridge.live.store.readHeader(id);
    } catch (err) {
      // Only a truly absent history is created; a corrupt one is an error and stays as it is (I-12).
      if (!(err instanceof SessionNotFoundError) || req.kind === "resume") throw deps.mapError(err, id);
    }
    if (header) await deps.checkPersistedCwd(id, header, cwd);
    const agent = header ? await deps.restore(id) : await deps.create(cwd, id);
    const rec = bridge.adopt(agent);
    if (header) {
      for (const u of replayUpdates(agent.session.entries)) bridge.send(rec, u); // I-25: before the answer
      await rec.lastSend;
    }
    await deps.fitOut(rec);
    return answer(deps, rec, header ? "restored" : "created");
  } finally {
    bridge.loading.delete(id);
  }
}
