// A session's replay in pages, latest first (the wire: base/historyPages.ts). Turns are cut only where
// a user turn starts, so a tool call and its result, a message and its chunks, never straddle a page.
// What the panel shows as session state rather than as entries (the plan, the title, the context
// usage) is carried into the latest page from the turns left out, so the tail looks as the full
// replay ends. Pure, over the log's entries.
import { RequestError, type SessionUpdate } from "@agentclientprotocol/sdk";
import {
  HistoryParams,
  MAX_PAGE_EVENTS,
  ReplayTail,
  HISTORY_META,
  REPLAY_TAIL_META,
  REPLAYED_META,
  type HistoryPage,
} from "../../base/historyPages";
import type { LogEntry } from "../session/events";
import { entryToUpdates, replayUpdates } from "./updates";
import { entriesSource, firstPrompt, type ReplaySource } from "./replaySource";

/** The tail a client asked `session/load` for (`_meta[REPLAY_TAIL_META]`, clamped), or undefined for the full replay. */
export function replayTailEvents(meta: Record<string, unknown> | null | undefined): number | undefined {
  const tail = ReplayTail.safeParse(meta?.[REPLAY_TAIL_META]);
  return tail.success ? Math.min(tail.data.events, MAX_PAGE_EVENTS) : undefined;
}

/**
 * What `session/load` replays: everything, unless the client asked for the tail
 * (`_meta[REPLAY_TAIL_META]`) and the history is longer; then the latest whole turns and the answer's
 * `_meta` saying where they begin. `source` is the log's entries, or what a TailKeeper kept of them.
 */
export function replayOf(
  source: ReplaySource,
  meta: Record<string, unknown> | null | undefined,
): { updates: SessionUpdate[]; answerMeta?: Record<string, unknown> } {
  const events = replayTailEvents(meta);
  if (events === undefined) return { updates: replayUpdates(source.from(0)) };
  const from = firstPrompt(source.starts, source.starts.length, source.length, events);
  if (from === 0) return { updates: [...replayUpdates(source.from(0)), replayedMarker({})] };
  const cut = source.starts[from] as number;
  return {
    updates: [
      ...source.stateBefore(cut).flatMap(entryToUpdates),
      ...replayUpdates(source.from(cut)),
      replayedMarker({ beforePrompt: from }),
    ],
    answerMeta: { [HISTORY_META]: { beforePrompt: from } },
  };
}

/** The update that ends a tail replay (base/historyPages.ts: REPLAYED_META). */
function replayedMarker(cursor: { beforePrompt?: number }): SessionUpdate {
  return { sessionUpdate: "session_info_update", _meta: { [REPLAYED_META]: cursor } };
}

/** Parses `_manifold/session/history` params; a bad shape is an invalid-params error. */
export function parseHistoryParams(raw: unknown): HistoryParams {
  const r = HistoryParams.safeParse(raw);
  if (!r.success) throw RequestError.invalidParams(undefined, `invalid history params: ${r.error.issues[0]?.message ?? "bad shape"}`);
  return r.data;
}

/** The whole turns before prompt `beforePrompt` holding at least `events` entries (clamped), in replay form. */
export function historyPage(entries: readonly LogEntry[], beforePrompt: number, events: number): HistoryPage {
  const { starts } = entriesSource(entries);
  if (beforePrompt > starts.length)
    throw RequestError.invalidParams(undefined, `the session has ${starts.length} prompts; no history before prompt ${beforePrompt}`);
  const end = beforePrompt < starts.length ? (starts[beforePrompt] as number) : entries.length;
  const from = firstPrompt(starts, beforePrompt, end, Math.min(events, MAX_PAGE_EVENTS));
  const begin = from === 0 ? 0 : (starts[from] as number);
  return { updates: replayUpdates(entries.slice(begin, end)), fromPrompt: from };
}
