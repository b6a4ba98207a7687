// The one notice that says how a turn ended. It comes from the prompt's `stopReason` (any agent) or
// from Manifold's agent marking the text it sends for a turn end (`_meta["manifold/turnEnd"]`, so a
// replayed session shows it too). Both fold into one notice: the marked text is never agent prose.
import type { StopReason } from "@agentclientprotocol/sdk";
import * as z from "zod/mini"; // the webview's reducer runs this too: the tree-shakable API

/** How a turn ended as the panel knows it: the agent's stop reason, or the host's own verdict. */
export type TurnStop = StopReason | "interrupted" | "error";

export interface TurnEndNotice {
  severity: "info" | "warning" | "error";
  text: string;
}

/** The notice for a `stopReason` (none for a normal end); `message` is the host's account, when it has one. */
export function stopNotice(reason: TurnStop, message?: string): TurnEndNotice | undefined {
  switch (reason) {
    case "end_turn":
      return undefined;
    case "cancelled":
      return { severity: "info", text: "Turn cancelled." };
    case "max_tokens":
      return { severity: "warning", text: "The model stopped: maximum tokens reached." };
    case "max_turn_requests":
      return { severity: "warning", text: "The turn stopped: too many model requests in one turn." };
    case "refusal":
      return { severity: "warning", text: "The model refused; this prompt will not be kept for the next turn." };
    case "interrupted":
      return { severity: "warning", text: message ?? "The turn was interrupted." };
    case "error":
      return { severity: "error", text: message ?? "The turn failed." };
    default: {
      const unknown: never = reason;
      return { severity: "warning", text: `The turn stopped (${String(unknown)}).` };
    }
  }
}

// `_meta` is the agent's data: unknown until this schema accepts it.
const TurnEndMeta = z.object({ "manifold/turnEnd": z.object({ reason: z.string() }) });

/**
 * The notice a message chunk stands for when the agent marked it as its turn-end text, else undefined.
 * The agent's own sentence is kept (it carries an error's detail), without its leading warning sign.
 */
export function markedTurnEnd(meta: unknown, text: string): TurnEndNotice | undefined {
  const parsed = TurnEndMeta.safeParse(meta);
  if (!parsed.success) return undefined;
  const reason = parsed.data["manifold/turnEnd"].reason;
  const said = text.trim().replace(/^⚠️\s*/u, "");
  const severity = reason === "error" ? "error" : reason === "aborted" || reason === "disposed" ? "info" : "warning";
  return { severity, text: said || `The turn stopped (${reason}).` };
}
