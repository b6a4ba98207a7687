// `/clear` and `/compact`: the commands the agent runs itself (runtime/commands.ts lists them). No
// tools run and no steer is taken in; the log records where the model's context starts over
// (`context/reset`), which history.ts honours for every later request.
import type { LogEntry, SessionEvent, TurnEndReason } from "../session/events";
import { COMPACT_INSTRUCTION } from "./slashCommands";
import { buildMessages } from "./history";

/** What a local command needs from its turn. */
export interface CommandTurn {
  /** The log before this turn started. */
  readonly before: readonly LogEntry[];
  append(event: SessionEvent): void;
  /** One model step without tools on `before` plus `instruction`, its text streamed into the transcript; null when the turn was stopped. */
  summarise(instruction: string): Promise<string | null>;
}

export const CLEARED_TEXT = "Context cleared: the model no longer sees the earlier turns of this session (they stay in the transcript).";

export async function runLocalCommand(name: "clear" | "compact", turn: CommandTurn): Promise<TurnEndReason> {
  if (name === "clear") {
    turn.append({ type: "context/reset", command: "clear" });
    turn.append({ type: "notice", text: CLEARED_TEXT });
    return "end_turn";
  }
  if (buildMessages(turn.before).length === 0) {
    turn.append({ type: "notice", text: "Nothing to compact yet: the conversation is empty." });
    return "end_turn";
  }
  const summary = await turn.summarise(COMPACT_INSTRUCTION);
  if (summary === null) return "aborted";
  if (summary.trim() === "") {
    turn.append({ type: "notice", text: "The model returned no summary; nothing was compacted." });
    return "end_turn";
  }
  turn.append({ type: "context/reset", command: "compact", summary: summary.trim() });
  return "end_turn";
}
