import type { SandboxContext } from "../../sandbox/types";

/** Where file tools may write without an escalation: the root and the session temp area (workspace-write only). */
export function writableRoots(sb: SandboxContext): string[] {
  return sb.mode === "read-only" ? [] : [sb.root, sb.tmpDir];
}
