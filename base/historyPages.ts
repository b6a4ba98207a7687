// A long session's history in pages, latest first: the wire both processes speak. A client that
// sees the capability asks `session/load` for the latest turns only; the answer says where they
// start, and older turns come a page at a time, on request, as `_manifold/session/history` answers
// (never as `session/update`s: nothing of a page can be mistaken for a live turn). A cursor is a user
// prompt's index, stable while the history before it stands (an edit or a restore only cuts later
// turns). Clients without the capability get the whole replay, as ACP has it.
import * as z from "zod/v4";

/** `initialize` → `agentCapabilities._meta[HISTORY_PAGES_META]: true`: the agent pages its history. */
export const HISTORY_PAGES_META = "manifold.dev/historyPages";
/** `session/load` `_meta`: `{events: N}` — replay the latest whole turns holding at least N logged events. */
export const REPLAY_TAIL_META = "manifold.dev/replayTail";
/** The `session/load` answer's `_meta`: `{beforePrompt: P}` — the replay began at user prompt P; 0..P-1 are older. */
export const HISTORY_META = "manifold.dev/history";
/**
 * The last update of a tail replay: a `session_info_update` (no title) whose `_meta[REPLAYED_META]` is
 * `{beforePrompt: P}` as the answer will say, or `{}` when the whole history was replayed. The client
 * may show the replay at once: the answer comes once the agent holds the whole session, which for a
 * long one takes longer than its tail.
 */
export const REPLAYED_META = "manifold.dev/replayed";
/** Older turns: whole turns before `beforePrompt`, holding at least `events` logged events. */
export const HISTORY_METHOD = "_manifold/session/history";

/** The most events a client may ask for at once (the agent clamps to it). */
export const MAX_PAGE_EVENTS = 20_000;

export const ReplayTail = z.object({ events: z.number().int().min(1) });
export const HistoryMeta = z.object({ beforePrompt: z.number().int().min(1) });
export const ReplayedMeta = z.object({ beforePrompt: z.number().int().min(1).optional() });
export const HistoryParams = z.object({
  sessionId: z.string().min(1).max(500),
  beforePrompt: z.number().int().min(1),
  events: z.number().int().min(1),
});
export type HistoryParams = z.infer<typeof HistoryParams>;
/** The answer: the turns' updates in order, and the prompt they begin at (0: the history's start). */
export const HistoryPage = z.object({ updates: z.array(z.unknown()), fromPrompt: z.number().int().min(0) });
export type HistoryPage = z.infer<typeof HistoryPage>;
