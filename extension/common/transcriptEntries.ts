// The entry-level steps both halves of the transcript reducer take (transcript.ts for the host's own
// events, transcriptAcp.ts for the agent's updates): minting ids, replacing the last entry, appending a
// notice, the turn's one end notice. A module of their own so the two halves share them without
// importing each other.
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { NoticeEntry, TranscriptEntry, TranscriptState } from "./transcriptModel";
import type { TurnEndNotice } from "./turnEnd";

export function assertNever(x: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(x)}`);
}

/** Text shown for a content block inside a message (non-text blocks become a short label). */
export function blockText(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
      return "[image]";
    case "audio":
      return "[audio]";
    case "resource_link":
      return `[${block.name}](${block.uri})`;
    case "resource":
      return `[${block.resource.uri}]`;
    default:
      return assertNever(block);
  }
}

/** The entries with the last one replaced (one copy: the transcript can hold thousands). */
export function withLast(entries: readonly TranscriptEntry[], last: TranscriptEntry): TranscriptEntry[] {
  const out = entries.slice();
  out[out.length - 1] = last;
  return out;
}

export function mintId(s: TranscriptState): [string, number] {
  return [`e${s.nextId}`, s.nextId + 1];
}

export function withNotice(s: TranscriptState, severity: NoticeEntry["severity"], text: string): TranscriptState {
  const [id, nextId] = mintId(s);
  return { ...s, nextId, entries: s.entries.concat([{ kind: "notice", id, severity, text }]) };
}

/**
 * Adds the turn's one end notice, or merges into it when the turn already has one (it is then the
 * last entry: nothing follows a turn's end). The agent's marked text wins over the stop reason's
 * generic sentence, whichever arrives first.
 */
export function withTurnEnd(s: TranscriptState, notice: TurnEndNotice, from: "marker" | "stopReason"): TranscriptState {
  const last = s.entries[s.entries.length - 1];
  if (last?.kind === "notice" && last.turnEnd) {
    if (from === "stopReason") return s;
    return { ...s, entries: withLast(s.entries, { ...last, ...notice }) };
  }
  const [id, nextId] = mintId(s);
  return { ...s, nextId, entries: s.entries.concat([{ kind: "notice", id, ...notice, turnEnd: true }]) };
}
