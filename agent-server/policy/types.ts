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

/** The outcome of the pure permission policy for one tool call. */
export type Decision =
  | { kind: "allow"; /** run outside the sandbox (approved escalation or full access) */ unconfined?: boolean }
  | { kind: "ask"; reason: string; /** if granted, run this one call unconfined */ escalate: boolean }
  | { kind: "deny"; reason: string };

/** What the user answered to a permission request. Anything but an allow is a refusal. */
export type PermissionAnswer = "allow_once" | "allow_session" | "reject" | "cancelled";
