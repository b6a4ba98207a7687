// The transcript's scroll decisions, pure: whether the reader follows the latest entry,
// how many entries were put above the one they read, and when to ask for earlier ones.
import type { TranscriptEntry } from "../common/transcript";

/** Within this many px of the bottom, the transcript follows new entries. */
export const STICK_PX = 40;

export function followsLatest(el: { scrollHeight: number; scrollTop: number; clientHeight: number }): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
}

/** How many entries now stand before the one that was first (0: none were put above, or it is gone). */
export function entriesPutAbove(previousFirst: string | undefined, entries: readonly TranscriptEntry[]): number {
  if (previousFirst === undefined || entries[0]?.id === previousFirst) return 0;
  const k = entries.findIndex((e) => e.id === previousFirst);
  return k > 0 ? k : 0;
}

/** The entry to ask for earlier ones before: the first held, when more exist and it was not asked for yet. */
export function earlierRequest(firstId: string | undefined, more: number, asked: string | undefined): string | undefined {
  return more > 0 && firstId !== undefined && firstId !== asked ? firstId : undefined;
}
