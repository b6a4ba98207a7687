// Per-session settings that decide what a tool call may do (sandbox) and when the user is asked
// (approval). Values are the ACP session config option values users see.

import { APPROVAL_POLICIES, SANDBOX_MODES, type ApprovalPolicy, type SandboxMode } from "../../sandbox/types";

export { APPROVAL_POLICIES, SANDBOX_MODES, type ApprovalPolicy, type SandboxMode };

export const MODE_PRESETS = {
  "read-only": { sandbox: "read-only", approval: "on-request" },
  agent: { sandbox: "workspace-write", approval: "on-request" },
  "full-access": { sandbox: "danger-full-access", approval: "never" },
} as const satisfies Record<string, { sandbox: SandboxMode; approval: ApprovalPolicy }>;
export type ModePreset = keyof typeof MODE_PRESETS;
export const DEFAULT_MODE: ModePreset = "agent";

/** What a call that runs may do: the consequences the runner applies as they are, never working them out again. */
export interface CallEffect {
  /** Run outside the sandbox: danger-full-access, or an approved escalation of a command. */
  unsandboxed: boolean;
  /** The canonical targets the call may write (write calls only; inside the write roots or approved outside them). */
  writes: readonly string[];
}

/** The outcome of the pure permission policy for one tool call. */
export type Decision =
  | ({ kind: "allow" } & CallEffect)
  | {
      kind: "ask";
      reason: string;
      /** Approving widens this one call beyond what the sandbox allows. */
      escalate: boolean;
      /** Whether "Allow for this session" may be offered (not for escalations out of read-only or with no backend). */
      sessionGrantable: boolean;
      /** The effect once the user approves. */
      approved: CallEffect;
    }
  | { kind: "deny"; reason: string };

/**
 * What the user answered to a permission request. Anything but an allow is a refusal. A rejection with
 * the user's note is its own shape, so the model reads why and can change course.
 */
export type PermissionAnswer = "allow_once" | "allow_session" | "reject" | "cancelled" | RejectedWithNote;
export interface RejectedWithNote {
  readonly kind: "reject";
  readonly note: string;
}
