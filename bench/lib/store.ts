// Where the agent-server's JSONL store keeps a session's log: `<dataDir>/<escaped id>.jsonl`
// (agent-server/session/fileName.ts, used directly so the two cannot drift).
import { join } from "node:path";
import { logFileName } from "../../agent-server/session/fileName";

export function sessionLogPath(dataDir: string, id: string): string {
  return join(dataDir, logFileName(id));
}
