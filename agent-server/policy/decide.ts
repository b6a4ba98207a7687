// The pure permission policy: (tool call, sandbox mode, approval policy, session grants, backend)
// → allow | ask | deny, each with its consequences (run unsandboxed? which writes?), so the runner
// applies the decision instead of working it out again. It knows nothing of ACP, UI, files or
// processes. What a call can do (sandbox) is apart from when the user is asked (approval); both are
// the calling session's values at the call:
//
//   sandbox              file tools                        commands
//   read-only            read anywhere, write nowhere      confined: root read-only, the temp area (/tmp) writable, no network
//   workspace-write      write in the root and temp area   confined: root writable except .git hooks and config, no network
//   danger-full-access   unconfined                        unconfined (still the env allowlist and the session's TMPDIR)
//
//   approval     what the sandbox allows                     what it blocks: a write outside, any write in read-only,
//                                                            an `unsandboxed` command, any command with no backend
//   untrusted    writes ask; commands ask unless read-only   ask
//   on-request   run                                         ask
//   never        run                                         refused, with a message to the model
//
// Reads always run; an MCP call is treated like a command outside the sandbox; a delegation to another
// agent asks (per agent, grantable for the session) unless `never`, and from read-only asks once; git metadata and
// protected config always ask short of danger-full-access. "Allow for this session" stores a grant
// key (`<tool>:<canonical path>`, `bash:prefix:<command [subcommand]>`, `bash:exact:<text>` for
// anything compound); it is not offered for an escalation out of read-only, an unsandboxed command,
// or when no backend works, so those approvals cover one call.
import { isReadOnlyCommand } from "./shellCommands";
import type { ApprovalPolicy, CallEffect, Decision, SandboxMode } from "./types";

export type PolicyCall =
  /** Touches nothing the sandbox guards (the caller's own background tasks, a question, a subagent). */
  | { tool: string; kind: "none" }
  | { tool: string; kind: "read" }
  /**
   * `insideRoot`: every target lies in the session root or its temp area (canonical paths).
   * `protected`: why a target is never written silently (git metadata), from the path guard.
   */
  | {
      tool: string;
      kind: "write";
      paths: readonly string[];
      insideRoot: boolean;
      protected?: string | null;
      /** Why a target is config the editor or Manifold honours (sandbox/configPaths.ts), with the reason in its text. */
      config?: string | null;
    }
  /** `escalate`: the model asked to run this command outside the sandbox (network, outside writes). */
  | { tool: string; kind: "command"; command: string; escalate?: boolean }
  /** An MCP tool call: an opaque side effect the sandbox cannot confine. */
  | { tool: string; kind: "mcp" }
  /** A task handed to another agent: it works in the folder (inside the window's fence), so the user decides per agent. */
  | { tool: string; kind: "delegate" };

export interface PolicyInput {
  call: PolicyCall;
  sandbox: SandboxMode;
  approval: ApprovalPolicy;
  /** The grant keys this session stored with "Allow for this session". */
  grants: ReadonlySet<string>;
  /** The key this call would match / store. */
  grantKey: string;
  /** A command sandbox backend works on this machine. */
  backendAvailable: boolean;
}

/** `sessionGrantable` readable on every outcome (undefined unless an ask). */
export type PolicyDecision = Decision & { sessionGrantable?: boolean };

/** allow | ask | deny before its consequences are attached. */
type Verdict =
  { kind: "allow" } | { kind: "ask"; reason: string; escalate: boolean; sessionGrantable: boolean } | { kind: "deny"; reason: string };

const allow: Verdict = { kind: "allow" };
const ask = (reason: string, escalate: boolean, sessionGrantable: boolean): Verdict => ({
  kind: "ask",
  reason,
  escalate,
  sessionGrantable,
});
const deny = (reason: string): Verdict => ({ kind: "deny", reason });

export function decide(input: PolicyInput): PolicyDecision {
  const verdict = judge(input);
  if (verdict.kind === "allow") return { kind: "allow", ...effectOf(input, false) };
  if (verdict.kind === "ask") return { ...verdict, approved: effectOf(input, verdict.escalate) };
  return verdict;
}

/** What the call does if it runs: file tools and MCP never run under the command sandbox, so only commands and full access bypass it. */
function effectOf({ call, sandbox }: PolicyInput, escalated: boolean): CallEffect {
  const full = sandbox === "danger-full-access";
  const unsandboxed = call.kind === "command" ? full || escalated : call.kind === "write" && full;
  return { unsandboxed, writes: call.kind === "write" ? call.paths : [] };
}

function judge(input: PolicyInput): Verdict {
  const { call, sandbox, approval, grants, grantKey, backendAvailable } = input;
  const granted = grants.has(grantKey);

  if (call.kind === "read" || call.kind === "none") return allow;

  if (call.kind === "mcp" || call.kind === "delegate") return judgeOutside(call.kind, sandbox, approval, granted);

  if (call.kind === "write") {
    // Git executes code from its config and hooks (core.fsmonitor on every `git status` the editor
    // runs), outside any sandbox: such a write always asks, one call at a time, whatever the grants.
    // danger-full-access is exempt: there bash writes the same files unconfined without asking.
    if (call.protected && sandbox !== "danger-full-access") {
      const where = call.insideRoot || sandbox === "read-only" ? "" : ", outside the workspace";
      if (approval === "never")
        return deny(
          `Write refused: the target is ${call.protected}${where}, which git executes code from, and the approval policy is \`never\`.`,
        );
      return ask(
        `the target is ${call.protected}${where}: git runs code from it (hooks, core.fsmonitor), outside any sandbox`,
        sandbox === "read-only" || !call.insideRoot,
        false,
      );
    }
    // Config the editor or Manifold honours outside any sandbox (I-112): the same rule as git metadata.
    if (call.config && sandbox !== "danger-full-access") {
      const where = call.insideRoot || sandbox === "read-only" ? "" : ", outside the workspace";
      if (approval === "never") return deny(`Write refused: the target is ${call.config}${where}, and the approval policy is \`never\`.`);
      return ask(`the target is ${call.config}${where}`, sandbox === "read-only" || !call.insideRoot, false);
    }
    const sandboxAllows = sandbox === "danger-full-access" || (sandbox === "workspace-write" && call.insideRoot);
    if (sandboxAllows) {
      if (approval !== "untrusted" || granted) return allow;
      return ask("approval policy `untrusted` asks before every write", false, true);
    }
    const why = sandbox === "read-only" ? "the session is read-only" : "the target is outside the workspace";
    if (approval === "never") return deny(`Write refused: ${why} and the approval policy is \`never\`.`);
    // In read-only an approved write widens that one call only (I-74); outside-root writes in
    // workspace-write may be granted for the session by exact tool + canonical path.
    if (sandbox === "workspace-write" && granted) return allow;
    return ask(`${why}`, true, sandbox !== "read-only");
  }

  // Commands.
  if (sandbox === "danger-full-access") {
    if (approval !== "untrusted" || granted || isReadOnlyCommand(call.command)) return allow;
    return ask("approval policy `untrusted` asks before commands that are not read-only", false, true);
  }
  if (!backendAvailable) {
    if (approval === "never") {
      return deny(
        "Command refused: no sandbox backend works on this machine, so commands cannot run confined, and the approval policy is `never`.",
      );
    }
    return ask("no sandbox backend works on this machine: the command would run unconfined", true, false);
  }
  if (call.escalate) {
    if (approval === "never")
      return deny("Command refused: running outside the sandbox needs approval and the approval policy is `never`.");
    return ask("the command asks to run outside the sandbox", true, false);
  }
  if (approval === "untrusted" && !granted && !isReadOnlyCommand(call.command)) {
    return ask("approval policy `untrusted` asks before commands that are not read-only", false, true);
  }
  return allow;
}

/** Calls whose effects the sandbox cannot confine: an MCP tool, or another agent working in the folder. */
function judgeOutside(kind: "mcp" | "delegate", sandbox: SandboxMode, approval: ApprovalPolicy, granted: boolean): Verdict {
  if (kind === "mcp") {
    // Like a command outside the sandbox; a server's annotations (readOnlyHint …) never count (I-100).
    if (sandbox === "read-only") {
      if (approval === "never")
        return deny(
          "MCP call refused: the session is read-only, an MCP tool's effects cannot be confined, and the approval policy is `never`.",
        );
      return ask("the session is read-only and an MCP tool's effects cannot be confined", false, false);
    }
    if (approval === "never" || granted) return allow;
    return ask("MCP tools run outside the sandbox: their effects cannot be confined", false, true);
  }
  // The other agent may write in the folder: from read-only that is an escalation of one call.
  if (sandbox === "read-only") {
    if (approval === "never")
      return deny("Delegation refused: the session is read-only, another agent may write, and the approval policy is `never`.");
    return ask("the session is read-only and another agent may write in the folder", false, false);
  }
  if (approval === "never" || granted) return allow;
  return ask("another agent will work in this folder", false, true);
}
