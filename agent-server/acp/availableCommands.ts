// `available_commands_update`: the built-in agent's slash commands (runtime/commands.ts). For
// `session/load` and `session/resume` it is part of the state sent before the response (the client
// named the id; nothing of that session may follow the load response, ACP-LOAD-002); for
// `session/new` it follows the response, because a client routes updates by session id and may
// drop those for an id it has not been given yet (I-91).
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { COMMANDS } from "../runtime/slashCommands";
import type { Bridge } from "./bridge";

export function commandsUpdate(): SessionUpdate {
  return { sessionUpdate: "available_commands_update", availableCommands: COMMANDS.map((c) => ({ ...c })) };
}

/**
 * After `session/new` has answered. The response leaves in the batch flushed at the end of this turn
 * of the event loop (batchedOutput); the update is built in the next turn, so the answer (and, in a
 * burst, every other answer of the turn) never waits for it.
 */
export function announceCommandsAfterNew(bridge: Bridge, sessionId: string): void {
  setImmediate(() =>
    setImmediate(() => {
      const rec = bridge.records.get(sessionId);
      if (rec) bridge.send(rec, commandsUpdate());
    }),
  );
}
