// Where the sandbox lets file tools write without an escalation:
// the root and the session temp area, except in read-only. Outside them a write needs an approval.
import type { SandboxContext } from "../../sandbox/types";

export function writeRoots(sb: Pick<SandboxContext, "mode" | "root" | "tmpDir">): string[] {
  return sb.mode === "read-only" ? [] : [sb.root, sb.tmpDir];
}
