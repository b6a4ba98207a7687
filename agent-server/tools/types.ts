// The tool contract between the agent loop (runtime/) and the tools (tools/). One tool per file,
// declared with zod parameters and sealed into a `Tool` by `defineTool`. The loop announces each
// call (ACP `tool_call`) before running it, so a permission request always names an announced tool call.
import type { ToolCallContent, ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";
import * as z from "zod/v4";
import type { PermissionAnswer } from "../policy/types";
import type { PlanEntry } from "../session/events";
import type { SandboxContext } from "../../sandbox/types";
import type { ClientFs, DelegateTarget, PermissionAsk, RunRemote, RunSubagent, UserAnswer, UserQuestion } from "../runtime/capabilities";

/** Per-session (per-connection) abilities that decide which tools the model is offered. */
export interface ToolCapabilities {
  /** The client advertised `elicitation.form` and owns the session. */
  askUser: boolean;
  /** The asking session: its own tools (MCP) are offered to it and to no other session (I-99). */
  sessionId?: string;
}

/** Owner-bound access to background tasks: every call is checked against the caller's session id. */
export interface TaskAccess {
  start(command: string, opts: { cwd: string; unconfined: boolean; timeoutMs?: number }): Promise<{ taskId: string }>;
  output(taskId: string): Promise<{ output: string; running: boolean; exitCode: number | null }>;
  kill(taskId: string): Promise<{ output: string; exitCode: number | null }>;
  list(): Array<{ taskId: string; command: string; running: boolean }>;
}

/** What the tool may change on its own card while running (streamed as `tool_call_update`). */
export interface ToolCallPatch {
  title?: string;
  content?: ToolCallContent[];
  locations?: ToolCallLocation[];
  /** A new plan (`update_plan`): logged and shown as an ACP `plan` update, replacing the previous one. */
  plan?: PlanEntry[];
}

/** Everything a tool call gets from its session. Built per call; nothing is shared across sessions. */
export interface ToolContext {
  readonly sessionId: string;
  readonly toolCallId: string;
  readonly signal: AbortSignal;
  readonly sandbox: SandboxContext;
  /** Set when the ACP client advertised fs read/write. Paths must pass the agent's own guard first. */
  readonly clientFs?: Partial<ClientFs>;
  readonly tasks: TaskAccess;
  /** Ask the user (routed to the owning session only). Cancel, teardown and errors resolve to a refusal. */
  requestPermission(ask: PermissionAsk): Promise<PermissionAnswer>;
  /**
   * Ask the user a question (set only when the session's client supports form elicitation).
   * Rejects with an `AbortError` when the turn is cancelled or the session torn down (I-46).
   */
  askUser?(q: UserQuestion): Promise<UserAnswer>;
  /** Hand a task to an in-process subagent of this session (the `delegate` tool). */
  runSubagent: RunSubagent;
  /** Hand a task to another agent the client offered this session (set only when the client can run one). */
  runRemote?: RunRemote;
  /** The agents `runRemote` may name (what the client offered this session); set with it. */
  delegateAgents?: readonly DelegateTarget[];
  /** Stream progress into this call's card. */
  update(patch: ToolCallPatch): void;
}

export interface ToolResult {
  /** What the model reads. Errors are written for the model. */
  output: string;
  isError: boolean;
  /** What the user's card shows at the end (diffs, command output). */
  content?: ToolCallContent[];
  locations?: ToolCallLocation[];
  /** A new plan (`update_plan`): logged and shown as an ACP `plan` update, replacing the previous one. */
  plan?: PlanEntry[];
}

/** What a call touches, for the policy. Derived from validated arguments only (pure). */
export type ToolAccess =
  | { kind: "read" }
  /** Raw paths as the model gave them; the runner guards them. */
  | { kind: "write"; paths: string[] }
  | { kind: "command"; command: string; escalate?: boolean }
  /** Touches nothing the sandbox guards (e.g. the caller's own background tasks). */
  | { kind: "none" }
  /** An MCP tool call: an opaque side effect outside the sandbox, granted per server + tool. */
  | { kind: "mcp"; server: string; tool: string }
  /** A task handed to another agent the client runs in this folder, granted per agent. */
  | { kind: "delegate"; agent: string };

/** What the runner decided for this call, handed to the tool. */
export interface CallPermit {
  /** Run commands outside the sandbox (danger-full-access or an approved escalation). */
  readonly unconfined: boolean;
  /** Guarded write targets approved by the policy, keyed by the raw input path. */
  readonly writes: ReadonlyMap<string, import("../../sandbox/pathGuard").GuardedPath>;
  /** Areas refused to every file tool (data dir, other sessions' temp areas). */
  readonly fence: import("./fence").FileFence;
}

/** How a tool is written: with its own parameter type `P`. `defineTool` turns it into a `Tool`. */
export interface ToolDefinition<P> {
  readonly name: string;
  readonly description: string;
  readonly parameters: z.ZodType<P>;
  /** The JSON Schema the model sees, when it is not derived from `parameters` (MCP tools pass theirs through). */
  readonly inputSchema?: Record<string, unknown>;
  readonly kind: ToolKind;
  /** Card title from the (validated) arguments. */
  title(args: P, ctx: { cwd: string }): string;
  /** Files the call touches, for the card and follow-along. */
  locations?(args: P, ctx: { cwd: string }): ToolCallLocation[];
  /** What the call touches (policy input). */
  access(args: P): ToolAccess;
  /** Offered to the model only when this holds (default: always). */
  available?(caps: ToolCapabilities): boolean;
  run(args: P, ctx: ToolContext, permit: CallPermit): Promise<ToolResult>;
}

/** One call of a tool with its validated arguments bound: what the runner works with after validation. */
export interface BoundCall {
  title(ctx: { cwd: string }): string;
  locations(ctx: { cwd: string }): ToolCallLocation[];
  access(): ToolAccess;
  run(ctx: ToolContext, permit: CallPermit): Promise<ToolResult>;
}

/**
 * A tool as the runner stores it: one type for every tool, whatever its parameters. Its parameter
 * type stays inside; the only way to its methods is `bind`, which validates the raw input first.
 */
export interface Tool {
  readonly name: string;
  readonly description: string;
  readonly kind: ToolKind;
  /** The JSON Schema the model sees (the definition's own, else derived from its zod parameters). */
  inputSchema(): Record<string, unknown>;
  /** Offered to the model only when this holds. */
  available(caps: ToolCapabilities): boolean;
  /** Validates raw model input: the call with its arguments bound, or zod's error. */
  bind(rawInput: unknown): { ok: true; call: BoundCall } | { ok: false; error: z.ZodError };
}

/** Seals a tool written with its own parameter type into a `Tool` (no casts anywhere: the arguments never leave). */
export function defineTool<P>(def: ToolDefinition<P>): Tool {
  return {
    name: def.name,
    description: def.description,
    kind: def.kind,
    inputSchema() {
      if (def.inputSchema) return def.inputSchema;
      const derived: Record<string, unknown> = z.toJSONSchema(def.parameters);
      delete derived.$schema;
      return derived;
    },
    available: (caps) => def.available?.(caps) ?? true,
    bind(rawInput) {
      const parsed = def.parameters.safeParse(rawInput);
      if (!parsed.success) return { ok: false, error: parsed.error };
      const args = parsed.data;
      return {
        ok: true,
        call: {
          title: (ctx) => def.title(args, ctx),
          locations: (ctx) => def.locations?.(args, ctx) ?? [],
          access: () => def.access(args),
          run: (ctx, permit) => def.run(args, ctx, permit),
        },
      };
    },
  };
}

/**
 * Tools that exist for one session only (its MCP servers' tools). Looked up by the caller's
 * session id, so one session's tools are never offered to or callable by another (I-99).
 */
export interface SessionToolSource {
  /** Resolves (never rejects) once the session's tool set is known: started servers, re-lists in flight. */
  ready(sessionId: string, signal: AbortSignal): Promise<void>;
  tools(sessionId: string): readonly Tool[];
  /** Lines for the model about this session's tools (e.g. a server that is unavailable, and why). */
  notes(sessionId: string): string[];
}

/** What the loop calls: validation, policy, permission, execution and truncation in one place. */
export interface ToolRunner {
  /** Specs for the model (JSON Schema from zod), only the tools available with `caps` (default: none of the optional ones). */
  specs(caps?: ToolCapabilities): Array<{ name: string; description: string; inputSchema: Record<string, unknown> }>;
  /** Title, kind and locations for the announcement, from raw model input (never throws). */
  describe(
    name: string,
    rawInput: unknown,
    cwd: string,
    sessionId?: string,
  ): { title: string; kind: ToolKind; locations: ToolCallLocation[] };
  /** Waits (bounded, never rejects) until the session's own tools are known; before each model step. */
  sessionReady?(sessionId: string, signal: AbortSignal): Promise<void>;
  /** Notes for the model about the session's own tools (appended to the system prompt). */
  sessionNotes?(sessionId: string): string[];
  run(name: string, rawInput: unknown, ctx: ToolContext): Promise<ToolResult>;
  /** Drop the session's "Allow for this session" grants (call when the session is disposed/deleted). */
  forgetSession(sessionId: string): void;
  /** Follow background task exits (the task table's `onExit`), for the config catch-and-hold (I-112). */
  watchTasks?(tasks: { onExit(listener: (owner: string, exit: { taskId: string }) => void): () => void }): () => void;
}
