// What a session started from an agent profile keeps of it, and what that changes in a turn. The
// header records the profile's label, tool allow-list and instructions once, at creation, so a resumed
// session (or its subagents) runs as it started, whatever the config says later. The label is
// metadata and the prefix of the minted id (I-7), never a routing key (I-8). Pure.
import type { AgentProfile } from "../../base/agentProfiles";
import { PROFILE_APPROVALS, PROFILE_MODES, PROFILE_SANDBOXES } from "../../base/agentProfiles";
import type { ApprovalPolicy, ModePreset, SandboxMode } from "../policy/types";
import type { SessionProfile } from "../session/events";

// base/ cannot import the policy types: the lists it validates against must be exactly these.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const listsAgree: [
  Same<(typeof PROFILE_MODES)[number], ModePreset>,
  Same<(typeof PROFILE_SANDBOXES)[number], SandboxMode>,
  Same<(typeof PROFILE_APPROVALS)[number], ApprovalPolicy>,
] = [true, true, true];
void listsAgree;

/** What the header keeps of a profile. */
export function sessionProfileOf(p: AgentProfile): SessionProfile {
  const r: SessionProfile = { id: p.id };
  if (p.tools !== undefined) r.tools = [...p.tools];
  if (p.instructions !== undefined) r.instructions = p.instructions;
  return r;
}

/** The profile's settings as config switches, in the order they apply (mode, then sandbox and approval, then model). */
export function profileSwitches(p: AgentProfile): Array<[configId: string, value: string]> {
  const out: Array<[string, string]> = [];
  if (p.mode !== undefined) out.push(["mode", p.mode]);
  if (p.sandbox !== undefined) out.push(["sandbox", p.sandbox]);
  if (p.approval !== undefined) out.push(["approval", p.approval]);
  if (p.model !== undefined) out.push(["model", p.model]);
  return out;
}

/** Whether a session of this profile may be offered, and may run, the tool `name`. */
export function toolAllowed(profile: SessionProfile | undefined, name: string): boolean {
  return profile?.tools === undefined || profile.tools.includes(name);
}

/** The answer to a call of a tool the profile does not allow (the call is refused, never run). */
export function refusedToolOutput(profile: SessionProfile, name: string): string {
  return `The tool ${name} is not available in the "${profile.id}" profile of this session; use one of: ${(profile.tools ?? []).join(", ") || "(none)"}.`;
}
