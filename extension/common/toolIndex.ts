// Where each tool card sits in a transcript's entries: the reducer looks a card up on every
// tool update, and a scan of the whole transcript per new tool call made a load of n events O(n²).
// Entries never move once added (the reducer appends, replaces in place, or cuts or clears the end), so a
// child array can share its parent's index and only register what was appended. An index may name
// positions past a shorter array's end (a sibling's additions): lookups check the entry they find.
import type { CompactionEntry, ToolEntry, TranscriptEntry } from "./transcriptModel";

/** Entries a tool call's id finds: tool cards and the compaction entry a synthetic call became. */
function keyed(e: TranscriptEntry | undefined): e is ToolEntry | CompactionEntry {
  return e?.kind === "tool" || e?.kind === "compaction";
}

const indexes = new WeakMap<readonly TranscriptEntry[], Map<string, number>>();

function indexOf(entries: readonly TranscriptEntry[]): Map<string, number> {
  let m = indexes.get(entries);
  if (!m) {
    m = new Map();
    entries.forEach((e, i) => {
      if (keyed(e)) m?.set(e.toolCallId, i);
    });
    indexes.set(entries, m);
  }
  return m;
}

/** Position of the tool card (or compaction entry) for `toolCallId`, or -1. */
export function findTool(entries: readonly TranscriptEntry[], toolCallId: string): number {
  const i = indexOf(entries).get(toolCallId);
  if (i === undefined) return -1;
  const e = entries[i];
  if (keyed(e) && e.toolCallId === toolCallId) return i;
  // Not where the index says (a sibling's addition): look it up the slow way.
  return entries.findLastIndex((x) => keyed(x) && x.toolCallId === toolCallId);
}

/** `to` was made from `from` by the reducer: share the index when it only grew or changed in place. */
export function carryToolIndex(from: readonly TranscriptEntry[], to: readonly TranscriptEntry[]): void {
  const m = indexes.get(from);
  if (!m || to.length < from.length) return; // cut or cleared: built again on its first lookup
  for (let i = Math.max(0, from.length - 1); i < to.length; i++) {
    const e = to[i];
    if (keyed(e)) m.set(e.toolCallId, i);
  }
  indexes.set(to, m);
}
