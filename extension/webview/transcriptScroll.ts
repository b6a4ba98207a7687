// The transcript's scroll decisions, pure: whether the reader follows the latest entry,
// and when to ask for earlier ones.

/** Within this many px of the bottom, the transcript follows new entries. */
export const STICK_PX = 40;

export function followsLatest(el: { scrollHeight: number; scrollTop: number; clientHeight: number }): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
}

/** The entry to ask for earlier ones before: the first held, when more exist and it was not asked for yet. */
export function earlierRequest(firstId: string | undefined, more: number, asked: string | undefined): string | undefined {
  return more > 0 && firstId !== undefined && firstId !== asked ? firstId : undefined;
}
