// The orchestrator every tool call goes through: validate → target → decide → ask → execute → record.
// Grants ("Allow for this session") are kept here, one set per session id; `forgetSession` drops them.
import * as fs from "node:fs";
import type * as z from "zod/v4";
import { decide, type PolicyCall, type PolicyDecision } from "../policy/decide";
import type { CallEffect } from "../policy/types";
import { writeRoots } from "../policy/writeRoots";
import { commandGrantKey } from "../policy/shellCommands";
import { createGrantStore, delegateGrantKey, fileGrantKey, mcpGrantKey, type GrantStore } from "../policy/grants";
import { configProtection } from "../../sandbox/configPaths";
import { guardPath, PathGuardError, type GuardedPath } from "../../sandbox/pathGuard";
import { createCatalog, type ToolCatalog } from "./catalog";
import { notOffered } from "./delegate";
import type { ConfigHold } from "./configHold";
import { createFence, FenceError, type FileFence } from "./fence";
import type { CommandSandbox, SandboxContext } from "../../sandbox/types";
import { MAX_OUTPUT_CHARS, MAX_OUTPUT_LINES, truncateHead } from "./truncate";
import type { BoundCall, CallPermit, SessionToolSource, Tool, ToolContext, ToolResult, ToolRunner } from "./types";
import { errorMessage } from "../../base/errors";

export interface RunnerOptions {
  sandbox: CommandSandbox;
  tools: readonly Tool[];
  grants?: GrantStore;
  /** Directories refused to every file tool in every mode (the server's data dir). */
  hidden?: readonly string[];
  /** Per-session tools (MCP), found by the caller's session id only. */
  sessionTools?: SessionToolSource;
  /** The catch-and-hold of protected config (I-112): checked before every call of a session it watches. */
  hold?: ConfigHold;
}

const fail = (output: string): ToolResult => ({ output, isError: true });
const NOT_RUN = "The call was cancelled before it ran.";

interface ValidCall {
  name: string;
  call: BoundCall;
}

/** What the call touches, for the policy: the policy's view, the grant key, and the checked write targets by raw input path. */
interface Target {
  call: PolicyCall;
  grantKey: string;
  writes: ReadonlyMap<string, GuardedPath>;
  fence: FileFence;
}

function targetOf({ name, call }: ValidCall, ctx: ToolContext, fence: FileFence): Target | ToolResult {
  const sb = ctx.sandbox;
  const access = call.access();
  try {
    switch (access.kind) {
      case "none":
        return { call: { tool: name, kind: "none" }, grantKey: name, writes: new Map(), fence };
      case "read":
        return { call: { tool: name, kind: "read" }, grantKey: name, writes: new Map(), fence };
      case "write":
        return writeTarget(name, access.paths, sb, fence);
      case "command":
        return {
          call: { tool: name, kind: "command", command: access.command, escalate: access.escalate },
          grantKey: commandGrantKey(access.command),
          writes: new Map(),
          fence,
        };
      case "mcp":
        return { call: { tool: name, kind: "mcp" }, grantKey: mcpGrantKey(access.server, access.tool), writes: new Map(), fence };
      case "delegate":
        // Refused before any ask: the user is never asked about an agent the client did not offer.
        if (!ctx.delegateAgents?.some((t) => t.id === access.agent)) return fail(notOffered(access.agent, ctx.delegateAgents ?? []));
        return { call: { tool: name, kind: "delegate" }, grantKey: delegateGrantKey(access.agent), writes: new Map(), fence };
    }
  } catch (err) {
    if (err instanceof PathGuardError) return fail(`Invalid path: ${err.message}`);
    if (err instanceof FenceError) return fail(err.message);
    return fail(`Could not check the path: ${errorMessage(err)}`);
  }
}

/** Canonical targets, whether each lies in the sandbox's write roots, and the fence (throws PathGuardError / FenceError). */
function writeTarget(name: string, paths: readonly string[], sb: SandboxContext, fence: FileFence): Target {
  const roots = writeRoots(sb);
  // The temp area must exist to be recognised as a write root (the guard canonicalises each root).
  if (roots.includes(sb.tmpDir)) fs.mkdirSync(sb.tmpDir, { recursive: true, mode: 0o700 });
  const writes = new Map<string, GuardedPath>();
  let insideRoot = true;
  let protectedWhy: string | null = null;
  let config: string | null = null;
  for (const p of paths) {
    const g = guardPath(p, sb.root, roots);
    if (fence.refuses(g.real)) throw new FenceError(p);
    writes.set(p, g);
    if (g.within === null) insideRoot = false;
    protectedWhy ??= g.protected;
    config ??= configProtection(g.real, g.spelled, sb.root, sb.protectedPaths ?? []);
  }
  const reals = [...writes.values()].map((g) => g.real);
  return {
    call: { tool: name, kind: "write", paths: reals, insideRoot, protected: protectedWhy, config },
    grantKey: fileGrantKey(name, reals),
    writes,
    fence,
  };
}

/** What the model reads: tools page their own output at MAX_OUTPUT_LINES; this cap leaves room for their notes. */
function record(result: ToolResult): ToolResult {
  return { ...result, output: truncateHead(result.output, MAX_OUTPUT_CHARS, MAX_OUTPUT_LINES + 50) };
}

function zodMessage(name: string, err: z.ZodError): string {
  const issues = err.issues.map((i) => `- ${i.path.length ? i.path.join(".") : "(arguments)"}: ${i.message}`).join("\n");
  return `Invalid arguments for ${name}:\n${issues}\nFix the arguments and call ${name} again.`;
}

/** Finds the tool and validates the raw input against its parameters; else what the model reads. */
function validate(catalog: ToolCatalog, name: string, rawInput: unknown, ctx: ToolContext): ValidCall | ToolResult {
  const tool = catalog.lookup(name, ctx.sessionId);
  if (!tool)
    return fail(
      `Unknown tool "${name}". Available tools: ${catalog
        .specs({ askUser: ctx.askUser !== undefined, sessionId: ctx.sessionId })
        .map((s) => s.name)
        .join(", ")}.`,
    );
  const bound = tool.bind(rawInput);
  if (!bound.ok) return fail(zodMessage(name, bound.error));
  return { name, call: bound.call };
}

/** The decision's answer to the call: its effect when it may run, else what the model reads. Stores an "Allow for this session". */
async function settle(
  grants: GrantStore,
  decision: PolicyDecision,
  { call }: ValidCall,
  grantKey: string,
  ctx: ToolContext,
): Promise<CallEffect | ToolResult> {
  if (decision.kind === "deny") return fail(decision.reason);
  if (decision.kind === "allow") return ctx.signal.aborted ? fail(NOT_RUN) : decision;
  if (ctx.signal.aborted) return fail(NOT_RUN);
  const answer = await ctx.requestPermission({
    title: call.title({ cwd: ctx.sandbox.root }),
    reason: decision.reason,
    grantKey,
    allowSession: decision.sessionGrantable,
  });
  if (answer === "cancelled") return fail("The permission request was cancelled; the call did not run.");
  if (typeof answer === "object") {
    // The user's note is what the model most needs to change course; it is quoted, never obeyed as policy.
    return fail(
      `The user rejected this tool call with a note: ${answer.note}\nThe call did not run (${decision.reason}). Take the note into account before trying another approach.`,
    );
  }
  if (answer !== "allow_once" && answer !== "allow_session") {
    return fail(
      `The user declined this call (${decision.reason}); it did not run. Do not retry the same call; ask the user or try another approach.`,
    );
  }
  if (answer === "allow_session" && decision.sessionGrantable) grants.add(ctx.sessionId, grantKey);
  return ctx.signal.aborted ? fail(NOT_RUN) : decision.approved;
}

async function execute({ name, call }: ValidCall, target: Target, effect: CallEffect, ctx: ToolContext): Promise<ToolResult> {
  // Only the targets the decision lets this call write reach the tool.
  const writes = new Map([...target.writes].filter(([, g]) => effect.writes.includes(g.real)));
  const permit: CallPermit = { unconfined: effect.unsandboxed, writes, fence: target.fence };
  try {
    return await call.run(ctx, permit);
  } catch (err) {
    if (ctx.signal.aborted) return fail("The call was cancelled.");
    return fail(`${name} failed: ${errorMessage(err)}`);
  }
}

/** Title, kind and locations for the announcement, from raw model input (never throws). */
function describeCall(
  catalog: ToolCatalog,
  name: string,
  rawInput: unknown,
  cwd: string,
  sessionId?: string,
): ReturnType<ToolRunner["describe"]> {
  const tool = catalog.lookup(name, sessionId);
  if (!tool) return { title: name, kind: "other", locations: [] };
  const bound = tool.bind(rawInput);
  if (!bound.ok) return { title: name, kind: tool.kind, locations: [] };
  try {
    return { title: bound.call.title({ cwd }), kind: tool.kind, locations: bound.call.locations({ cwd }) };
  } catch {
    return { title: name, kind: tool.kind, locations: [] };
  }
}

export function createRunner(opts: RunnerOptions): ToolRunner {
  const catalog = createCatalog(opts.tools, opts.sessionTools);
  const grants = opts.grants ?? createGrantStore();
  const backendAvailable = opts.sandbox.backend !== "none";

  /** Config a background task changed is caught (and asked about) before the session's next call runs. */
  async function run(name: string, rawInput: unknown, ctx: ToolContext): Promise<ToolResult> {
    const held = (await opts.hold?.beforeCall(ctx)) ?? null;
    const result = await runChecked(name, rawInput, ctx);
    return held === null ? result : { ...result, output: `${held}\n\n${result.output}` };
  }

  /** One call: validate → target → decide → ask → execute → record. Each step answers the model itself when the call stops there. */
  async function runChecked(name: string, rawInput: unknown, ctx: ToolContext): Promise<ToolResult> {
    const valid = validate(catalog, name, rawInput, ctx);
    if ("output" in valid) return valid;
    const target = targetOf(valid, ctx, createFence(opts.hidden ?? [], ctx.sandbox));
    if ("output" in target) return target;
    const decision = decide({
      call: target.call,
      sandbox: ctx.sandbox.mode,
      approval: ctx.sandbox.approval,
      grants: grants.of(ctx.sessionId),
      grantKey: target.grantKey,
      backendAvailable,
    });
    const effect = await settle(grants, decision, valid, target.grantKey, ctx);
    if ("output" in effect) return effect;
    const result = record(await execute(valid, target, effect, ctx));
    // A file-tool write that ran (asked for, if protected) is the new baseline of a running watch.
    if (target.call.kind === "write") opts.hold?.refresh(ctx.sessionId);
    return result;
  }

  return {
    specs: (caps) => catalog.specs(caps),
    describe: (name, rawInput, cwd, sessionId) => describeCall(catalog, name, rawInput, cwd, sessionId),
    run,
    sessionReady: (id, signal) => opts.sessionTools?.ready(id, signal) ?? Promise.resolve(),
    sessionNotes: (id) => opts.sessionTools?.notes(id) ?? [],
    forgetSession: (id) => {
      grants.forget(id);
      opts.hold?.forget(id);
    },
    watchTasks: (tasks) => tasks.onExit((owner, exit) => opts.hold?.taskExited(owner, exit.taskId)),
  };
}
