// A session's replay in pages, latest first (the wire: base/historyPages.ts). Turns are cut only where
// a user turn starts, so a tool call and its result, a message and its chunks, never straddle a page.
// What the panel shows as session state rather than as entries (the plan, the title, the context
// usage) is carried into the latest page from the turns left out, so the tail looks as the full
// replay ends. Pure, over the log's entries.
import { RequestError, type SessionUpdate } from "@agentclientprotocol/sdk";
import { HistoryParams, MAX_PAGE_EVENTS, ReplayTail, HISTORY_META, REPLAY_TAIL_META, type HistoryPage } from "../../base/historyPages";
import type { LogEntry } from "../session/events";
import { entryToUpdates, replayUpdates } from "./updates";

/** Indexes of the entries that start a user turn: prompt k starts at `starts[k]`. */
function promptStarts(entries: readonly LogEntry[]): number[] {
  const starts: number[] = [];
  entries.forEach((e, i) => {
    if (e.type === "turn/start" && e.source === "user") starts.push(i);
  });
  return starts;
}

/** The latest prompt `j < before` from which the turns up to `end` hold at least `events` entries; 0 when none does. */
function firstPrompt(starts: readonly number[], before: number, end: number, events: number): number {
  for (let j = before - 1; j > 0; j--) if (end - (starts[j] as number) >= events) return j;
  return 0;
}

/** The last plan, title and usage before `end`: state the full replay would have set. */
function carriedState(entries: readonly LogEntry[], end: number): SessionUpdate[] {
  const last = new Map<string, LogEntry>();
  for (let i = end - 1; i >= 0 && last.size < 3; i--) {
    const e = entries[i] as LogEntry;
    if ((e.type === "plan" || e.type === "session/title" || e.type === "usage") && !last.has(e.type)) last.set(e.type, e);
  }
  return [...last.values()].reverse().flatMap(entryToUpdates);
}

/**
 * What `session/load` replays: everything, unless the client asked for the tail
 * (`_meta[REPLAY_TAIL_META]`) and the history is longer; then the latest whole turns and the answer's
 * `_meta` saying where they begin.
 */
export function replayOf(
  entries: readonly LogEntry[],
  meta: Record<string, unknown> | null | undefined,
): { updates: SessionUpdate[]; answerMeta?: Record<string, unknown> } {
  const tail = ReplayTail.safeParse(meta?.[REPLAY_TAIL_META]);
  if (!tail.success) return { updates: replayUpdates(entries) };
  const starts = promptStarts(entries);
  const from = firstPrompt(starts, starts.length, entries.length, Math.min(tail.data.events, MAX_PAGE_EVENTS));
  if (from === 0) return { updates: replayUpdates(entries) };
  const cut = starts[from] as number;
  return {
    updates: [...carriedState(entries, cut), ...replayUpdates(entries.slice(cut))],
    answerMeta: { [HISTORY_META]: { beforePrompt: from } },
  };
}

/** Parses `_manifold/session/history` params; a bad shape is an invalid-params error. */
export function parseHistoryParams(raw: unknown): HistoryParams {
  const r = HistoryParams.safeParse(raw);
  if (!r.success) throw RequestError.invalidParams(undefined, `invalid history params: ${r.error.issues[0]?.message ?? "bad shape"}`);
  return r.data;
}

/** The whole turns before prompt `beforePrompt` holding at least `events` entries (clamped), in replay form. */
export function historyPage(entries: readonly LogEntry[], beforePrompt: number, events: number): HistoryPage {
  const starts = promptStarts(entries);
  if (beforePrompt > starts.length)
    throw RequestError.invalidParams(undefined, `the session has ${starts.length} prompts; no history before prompt ${beforePrompt}`);
  const end = beforePrompt < starts.length ? (starts[beforePrompt] as number) : entries.length;
  const from = firstPrompt(starts, beforePrompt, end, Math.min(events, MAX_PAGE_EVENTS));
  const begin = from === 0 ? 0 : (starts[from] as number);
  return { updates: replayUpdates(entries.slice(begin, end)), fromPrompt: from };
}
