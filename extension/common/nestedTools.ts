// Which entries a transcript shows at its top level and which under a parent card: a call whose parent
// card is among the held entries is shown only inside it (collapsed by default, as a count); one whose
// parent is not (not seen yet, or in an earlier page) stays at the top level. The calls under a card
// are gathered only when a card is opened: a collapsed subagent of 200 calls builds no card for them.
// Pure: the webview renders from it, the tests count what it builds.
import type { ToolEntry, TranscriptEntry } from "./transcriptModel";

export interface NestedView {
  /** The entries shown at the top level, in order. */
  top: TranscriptEntry[];
  /** The calls under a card, in order (gathered once, on the first call). */
  childrenOf(toolCallId: string): ToolEntry[];
}

export function nestedView(entries: readonly TranscriptEntry[]): NestedView {
  let parents: Set<string> | undefined;
  for (const e of entries) {
    if (e.kind === "tool" && e.nested) (parents ??= new Set()).add(e.toolCallId);
  }
  if (!parents) return { top: entries as TranscriptEntry[], childrenOf: () => [] };
  const held = parents;
  const top = entries.filter((e) => !(e.kind === "tool" && e.parentToolCallId !== undefined && held.has(e.parentToolCallId)));
  let children: Map<string, ToolEntry[]> | undefined;
  return {
    top,
    childrenOf(toolCallId) {
      if (!children) {
        const m = new Map<string, ToolEntry[]>();
        for (const e of entries) {
          if (e.kind !== "tool" || e.parentToolCallId === undefined || !held.has(e.parentToolCallId)) continue;
          const list = m.get(e.parentToolCallId);
          if (list) list.push(e);
          else m.set(e.parentToolCallId, [e]);
        }
        children = m;
      }
      return children.get(toolCallId) ?? [];
    },
  };
}

/** "1 tool call", "12 tool calls". */
export function nestedLabel(n: number): string {
  return n === 1 ? "1 tool call" : `${n} tool calls`;
}
