// `session/fork` (unstable in ACP): a new session whose history is a copy of another's, optionally cut
// before a user prompt (`_meta["manifold.dev/keepPrompts"]` = how many user prompts to keep). That
// cut is how "edit and resend" makes the model forget the abandoned turns: they are not in the new
// log, so they are never sent again. The source session is left as it was.
import { randomUUID } from "node:crypto";
import { RequestError, type SessionConfigOption, type SessionModeState } from "@agentclientprotocol/sdk";
import * as z from "zod/v4";
import { canonicalCwd } from "../runtime/cwd";
import { LOG_FORMAT_VERSION, type LogEntry, type SessionEvent } from "../session/events";
import type { Bridge } from "./bridge";
import { mapLifecycleError, rejectUnsupported, resumePersisted, sessionState } from "./handlers";
import { protectedPathsOf } from "./protectedPaths";

import { KEEP_PROMPTS_META } from "./wire";

export { FORK_METHOD, KEEP_PROMPTS_META } from "./wire";

/** The request as the unstable schema has it (the stable SDK entry has no types for it). */
export const ForkParams = z.object({
  sessionId: z.string().min(1).max(500),
  cwd: z.string().min(1),
  additionalDirectories: z.array(z.string()).nullish(),
  mcpServers: z.array(z.unknown()).nullish(),
  _meta: z.record(z.string(), z.unknown()).nullish(),
});
export type ForkParams = z.infer<typeof ForkParams>;

export interface ForkSessionResponse {
  sessionId: string;
  configOptions: SessionConfigOption[];
  modes: SessionModeState;
}

/** Parses `session/fork` params; a bad shape is an invalid-params error. */
export function parseForkParams(raw: unknown): ForkParams {
  const r = ForkParams.safeParse(raw);
  if (!r.success) throw RequestError.invalidParams(undefined, `invalid session/fork params: ${r.error.issues[0]?.message ?? "bad shape"}`);
  return r.data;
}

/** The events of `entries` before the `keep`+1-th user turn (all of them when `keep` is undefined). */
export function historyPrefix(entries: readonly LogEntry[], keep: number | undefined): SessionEvent[] {
  let users = 0;
  const out: SessionEvent[] = [];
  for (const e of entries) {
    if (e.type === "turn/start" && e.source === "user" && keep !== undefined && ++users > keep) break;
    const { seq: _seq, at: _at, ...event } = e;
    out.push(event as SessionEvent);
  }
  return out;
}

export async function forkSession(bridge: Bridge, params: ForkParams): Promise<ForkSessionResponse> {
  bridge.requireOpen();
  rejectUnsupported(params);
  const protectedPaths = protectedPathsOf(params);
  const keepRaw = params._meta?.[KEEP_PROMPTS_META];
  const keep = keepRaw === undefined ? undefined : z.number().int().min(0).safeParse(keepRaw);
  if (keep && !keep.success) throw RequestError.invalidParams(undefined, `${KEEP_PROMPTS_META} must be a non-negative integer`);
  let cwd: string;
  try {
    cwd = await canonicalCwd(params.cwd);
  } catch (err) {
    throw mapLifecycleError(err, params.sessionId);
  }
  const live = bridge.records.get(params.sessionId);
  if (live?.agent.inTurn) throw RequestError.invalidParams(undefined, "cannot fork a session while a turn is running; cancel it first");
  let entries: readonly LogEntry[];
  let sourceCwd: string;
  try {
    if (live) {
      entries = live.agent.session.entries;
      sourceCwd = live.agent.session.header.cwd;
    } else {
      const log = await bridge.live.store.open(params.sessionId);
      entries = log.entries;
      sourceCwd = log.header.cwd;
      await log.close();
    }
  } catch (err) {
    throw mapLifecycleError(err, params.sessionId);
  }
  if ((await canonicalCwd(sourceCwd).catch(() => sourceCwd)) !== cwd) {
    throw RequestError.invalidParams(undefined, `session ${JSON.stringify(params.sessionId)} belongs to ${sourceCwd}, not ${params.cwd}`);
  }
  const id = randomUUID();
  const log = await bridge.live.store.create({
    type: "header",
    version: LOG_FORMAT_VERSION,
    id,
    cwd,
    createdAt: new Date().toISOString(),
  });
  try {
    for (const ev of historyPrefix(entries, keep?.data)) log.append(ev);
  } finally {
    await log.close();
  }
  const agent = await resumePersisted(bridge, id);
  if (protectedPaths) agent.setProtectedPaths(protectedPaths);
  const rec = bridge.adopt(agent);
  return { sessionId: id, ...sessionState(bridge, rec) };
}
