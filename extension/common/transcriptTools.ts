// Tool calls folded into the transcript: a card per call, updated in place; a subagent's call counted on
// its parent's card (the parent seen later gets the count of calls that came first); the synthetic
// compaction call and `compaction_update` as one compaction entry. Each update finds its entry through
// the shared index (toolIndex.ts) and touches at most two entries: no scan, whatever the transcript holds.
import type { CompactionEntry, ToolDisplayStatus, ToolEntry, TranscriptState, TranscriptUpdate } from "./transcriptModel";
import { findTool } from "./toolIndex";
import { mintId } from "./transcriptEntries";
import { compactionFacts, compactionKey, compactionStatus, isCompactionCall, parentToolCallId } from "./adapterConventions";

type ToolCallView = Extract<TranscriptUpdate, { sessionUpdate: "tool_call" }>;
type ToolCallUpdateView = Extract<TranscriptUpdate, { sessionUpdate: "tool_call_update" }>;
type CompactionUpdateView = Extract<TranscriptUpdate, { sessionUpdate: "compaction_update" }>;
type Keyed = ToolEntry | CompactionEntry;

/** The entry for `key` replaced by `make(old)`, or appended when there is none. */
function upsert(s: TranscriptState, key: string, make: (old: Keyed | undefined, id: string) => Keyed): TranscriptState {
  const idx = findTool(s.entries, key);
  if (idx >= 0) {
    const old = s.entries[idx] as Keyed;
    const entries = s.entries.slice();
    entries[idx] = make(old, old.id);
    return withNesting(s, { ...s, entries }, old, entries[idx] as Keyed);
  }
  const [id, nextId] = mintId(s);
  const made = make(undefined, id);
  return withNesting(s, { ...s, nextId, entries: s.entries.concat([made]) }, undefined, made);
}

/**
 * Counts a call that just got its parent on the parent's card; a parent not seen yet gets it when it
 * arrives (`nestedWaiting`). `s.entries` is the fresh array `upsert` made: changed in place.
 */
function withNesting(before: TranscriptState, s: TranscriptState, old: Keyed | undefined, made: Keyed): TranscriptState {
  let next = s;
  const waiting = made.kind === "tool" && !old ? before.nestedWaiting?.[made.toolCallId] : undefined;
  if (waiting !== undefined && made.kind === "tool") {
    const { [made.toolCallId]: _counted, ...rest } = before.nestedWaiting ?? {};
    next.entries[next.entries.length - 1] = { ...made, nested: waiting };
    next = { ...next, nestedWaiting: rest };
  }
  const parent = made.kind === "tool" ? made.parentToolCallId : undefined;
  if (parent === undefined || (old?.kind === "tool" && old.parentToolCallId === parent)) return next;
  // Looked up in the indexed entries it was made from: positions never move, and the new array has no index yet.
  const p = findTool(before.entries, parent);
  const card = next.entries[p];
  if (card?.kind !== "tool")
    return { ...next, nestedWaiting: { ...next.nestedWaiting, [parent]: (next.nestedWaiting?.[parent] ?? 0) + 1 } };
  next.entries[p] = { ...card, nested: (card.nested ?? 0) + 1 };
  return next;
}

function compactionFromTool(status: ToolDisplayStatus | null | undefined, error: string | undefined): CompactionEntry["status"] {
  if (error) return "failed";
  return compactionStatus(status === "pending" ? "in_progress" : status);
}

export function applyToolCall(s: TranscriptState, u: ToolCallView): TranscriptState {
  if (isCompactionCall(u)) {
    const facts = compactionFacts(u._meta) ?? {};
    return upsert(s, u.toolCallId, (_old, id) => ({
      kind: "compaction",
      id,
      toolCallId: u.toolCallId,
      ...facts,
      status: compactionFromTool(u.status, facts.error),
    }));
  }
  const parent = parentToolCallId(u._meta, u.toolCallId);
  return upsert(s, u.toolCallId, (old, id) => ({
    kind: "tool",
    id,
    toolCallId: u.toolCallId,
    title: u.title,
    toolKind: u.kind ?? "other",
    status: u.status ?? "pending",
    content: u.content ?? [],
    locations: u.locations ?? [],
    ...(parent !== undefined ? { parentToolCallId: parent } : {}),
    ...(old?.kind === "tool" && old.nested ? { nested: old.nested } : {}),
    ...(u.plan !== undefined ? { plan: u.plan } : {}),
  }));
}

export function applyToolCallUpdate(s: TranscriptState, u: ToolCallUpdateView): TranscriptState {
  return upsert(s, u.toolCallId, (old, id) => {
    const facts = compactionFacts(u._meta);
    if (old?.kind === "compaction" || facts) {
      const prev = old?.kind === "compaction" ? old : undefined;
      const merged = { ...prev, ...facts };
      return {
        kind: "compaction",
        id,
        toolCallId: u.toolCallId,
        ...merged,
        status: compactionFromTool(u.status ?? (prev ? prev.status : undefined), merged.error),
      };
    }
    const parent = old?.parentToolCallId ?? parentToolCallId(u._meta, u.toolCallId);
    const plan = u.plan ?? old?.plan;
    return {
      kind: "tool",
      id,
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
      ...(parent !== undefined ? { parentToolCallId: parent } : {}),
      ...(old?.nested ? { nested: old.nested } : {}),
      ...(plan !== undefined ? { plan } : {}),
    };
  });
}

/** ACP's `compaction_update` (patch semantics: an omitted error keeps the one shown, `null` clears it). */
export function applyCompactionUpdate(s: TranscriptState, u: CompactionUpdateView): TranscriptState {
  const key = compactionKey(u.compactionId);
  return upsert(s, key, (old, id) => {
    const prev = old?.kind === "compaction" ? old : undefined;
    const { error: _e, ...kept } = { ...prev, ...compactionFacts(u._meta) };
    const error = u.error === undefined ? prev?.error : (u.error ?? undefined);
    return {
      ...kept,
      kind: "compaction",
      id,
      toolCallId: key,
      status: compactionStatus(u.status),
      ...(error ? { error } : {}),
    };
  });
}

/**
 * A delegated child's text, thought or plan (its update names the delegate card): shown inside that
 * card, never as the session's own message or plan. A card not (or no longer) held drops it.
 */
export function applyNestedText(s: TranscriptState, parent: string, text: string): TranscriptState {
  const idx = findTool(s.entries, parent);
  const card = s.entries[idx];
  if (idx < 0 || card?.kind !== "tool") return s;
  const content = card.content.slice();
  const last = content[content.length - 1];
  if (last?.type === "content" && last.content.type === "text" && card.childText === true)
    content[content.length - 1] = { ...last, content: { ...last.content, text: last.content.text + text } };
  else content.push({ type: "content", content: { type: "text", text } });
  const entries = s.entries.slice();
  entries[idx] = { ...card, content, childText: true };
  return { ...s, entries };
}
