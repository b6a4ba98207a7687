// Merges a batch's consecutive text deltas into one event: at a model's pace a frame holds a
// few deltas per message, at full speed hundreds; the webview folds and renders each event it gets.
// Merging only pairs that fold to the same transcript: same kind, same message id, plain text, no _meta.
import type { TranscriptEvent, TranscriptUpdate } from "../common/transcript";

type ChunkUpdate = Extract<TranscriptUpdate, { sessionUpdate: "agent_message_chunk" | "agent_thought_chunk" }>;

/** The text of a delta that may be merged, or undefined (marked chunks, images, annotations). */
function plainDelta(ev: TranscriptEvent): { update: ChunkUpdate; text: string } | undefined {
  if (ev.type !== "acp") return undefined;
  const u = ev.update;
  if (u.sessionUpdate !== "agent_message_chunk" && u.sessionUpdate !== "agent_thought_chunk") return undefined;
  if (u._meta != null || u.content.type !== "text") return undefined;
  const c = u.content;
  if (c._meta != null || c.annotations != null) return undefined;
  return { update: u, text: c.text };
}

function sameMessage(a: ChunkUpdate, b: ChunkUpdate): boolean {
  return a.sessionUpdate === b.sessionUpdate && (a.messageId ?? undefined) === (b.messageId ?? undefined);
}

/** The batch with runs of mergeable deltas of one message joined; the fold of the result equals the fold of the input. */
export function coalesceEvents(events: readonly TranscriptEvent[]): TranscriptEvent[] {
  const out: TranscriptEvent[] = [];
  let run: { first: TranscriptEvent; update: ChunkUpdate; texts: string[] } | undefined;
  const close = () => {
    if (!run) return;
    // A lone delta goes on as it came.
    out.push(
      run.texts.length === 1 ? run.first : { type: "acp", update: { ...run.update, content: { type: "text", text: run.texts.join("") } } },
    );
    run = undefined;
  };
  for (const ev of events) {
    const d = plainDelta(ev);
    if (d && run && sameMessage(run.update, d.update)) {
      run.texts.push(d.text);
      continue;
    }
    close();
    if (d) run = { first: ev, update: d.update, texts: [d.text] };
    else out.push(ev);
  }
  close();
  return out;
}
