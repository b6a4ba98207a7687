// `available_commands_update`: the built-in agent's slash commands (runtime/commands.ts), sent after
// `session/new`, `session/load` and `session/resume` have answered — a client routes updates by
// session id and may drop those for an id it has not been given yet (I-91).
import { COMMANDS } from "../runtime/commands";
import type { Bridge } from "./bridge";

export function announceCommands(bridge: Bridge, sessionId: string): void {
  setImmediate(() => {
    const rec = bridge.records.get(sessionId);
    if (rec) bridge.send(rec, { sessionUpdate: "available_commands_update", availableCommands: COMMANDS.map((c) => ({ ...c })) });
  });
}
