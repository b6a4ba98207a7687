// What the panel's polite status region says: a turn's end, an error, a request for the user. Streamed
// text is never announced (the transcript is a log without aria-live); these moments are.
import type { TranscriptEvent } from "./transcript";

type TurnEnd = Extract<TranscriptEvent, { type: "turn/ended" }>;

const TURN_END: Record<TurnEnd["stopReason"], string> = {
  end_turn: "Agent finished",
  cancelled: "Turn cancelled",
  max_tokens: "Agent stopped: the reply reached its length limit",
  max_turn_requests: "Agent stopped: the turn reached its step limit",
  refusal: "The agent refused to continue",
  interrupted: "The turn was interrupted",
  error: "The turn failed",
};

/** The announcement one live event calls for, if any. */
export function announcementFor(ev: TranscriptEvent): string | undefined {
  switch (ev.type) {
    case "turn/ended": {
      const said = TURN_END[ev.stopReason];
      return ev.message && (ev.stopReason === "error" || ev.stopReason === "interrupted") ? `${said}: ${ev.message}` : said;
    }
    case "permission/requested":
      return `Permission requested: ${ev.title}`;
    case "question/requested":
      return `The agent asks: ${ev.message}`;
    case "notice":
      return ev.severity === "error" ? `Error: ${ev.text}` : undefined;
    default:
      return undefined;
  }
}

/** One batch's announcements in one sentence (a screen reader reads the region's last text). */
export function announcementOf(events: readonly TranscriptEvent[]): string | undefined {
  const said = events.map(announcementFor).filter((t): t is string => t !== undefined);
  return said.length > 0 ? said.join(". ") : undefined;
}
