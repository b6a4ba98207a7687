// The orchestrator every tool call goes through: validate → describe → policy → ask → run → truncate.
// Grants ("Allow for this session") are kept here, one set per session id; `forgetSession` drops them.
import * as fs from "node:fs";
import { z } from "zod";
import { decide, type PolicyCall, type PolicyDecision } from "../policy/decide";
import { commandGrantKey } from "../policy/commands";
import { createGrantStore, fileGrantKey, mcpGrantKey, type GrantStore } from "../policy/grants";
import { guardPath, PathGuardError, type GuardedPath } from "../../sandbox/pathGuard";
import { createFence, FenceError } from "./fence";
import type { CommandSandbox } from "../../sandbox/types";
import { MAX_OUTPUT_CHARS, MAX_OUTPUT_LINES, truncateHead } from "./truncate";
import type { CallPermit, SessionToolSource, ToolCapabilities, ToolContext, ToolDefinition, ToolResult, ToolRunner } from "./types";
import { writableRoots } from "./writeRoots";

export interface RunnerOptions {
  sandbox: CommandSandbox;
  tools: ReadonlyArray<ToolDefinition<never>>;
  grants?: GrantStore;
  /** Directories refused to every file tool in every mode (the server's data dir). */
  hidden?: readonly string[];
  /** Per-session tools (MCP), found by the caller's session id only. */
  sessionTools?: SessionToolSource;
}

const fail = (output: string): ToolResult => ({ output, isError: true });

function zodMessage(name: string, err: z.ZodError): string {
  const issues = err.issues.map((i) => `- ${i.path.length ? i.path.join(".") : "(arguments)"}: ${i.message}`).join("\n");
  return `Invalid arguments for ${name}:\n${issues}\nFix the arguments and call ${name} again.`;
}

export function createRunner(opts: RunnerOptions): ToolRunner {
  const tools = new Map<string, ToolDefinition<unknown>>();
  for (const t of opts.tools) tools.set(t.name, t as unknown as ToolDefinition<unknown>);
  const grants = opts.grants ?? createGrantStore();
  const backendAvailable = opts.sandbox.backend !== "none";

  const specOf = (t: ToolDefinition<unknown>): ReturnType<ToolRunner["specs"]>[number] => {
    if (t.inputSchema) return { name: t.name, description: t.description, inputSchema: t.inputSchema };
    const schema = z.toJSONSchema(t.parameters) as Record<string, unknown>;
    delete schema.$schema;
    return { name: t.name, description: t.description, inputSchema: schema };
  };
  const allSpecs = [...tools.values()].map((t) => ({ tool: t, spec: specOf(t) }));
  const noCaps: ToolCapabilities = { askUser: false };
  const sessionToolsOf = (sessionId: string | undefined): ReadonlyArray<ToolDefinition<unknown>> =>
    sessionId !== undefined && opts.sessionTools ? (opts.sessionTools.tools(sessionId) as ReadonlyArray<ToolDefinition<unknown>>) : [];
  const specs = (caps: ToolCapabilities = noCaps): ReturnType<ToolRunner["specs"]> => [
    ...allSpecs.filter((s) => s.tool.available?.(caps) ?? true).map((s) => s.spec),
    ...sessionToolsOf(caps.sessionId).map(specOf),
  ];
  /** Built-ins first; a session tool only for its own session (their `mcp__` names never shadow a built-in). */
  const lookup = (name: string, sessionId: string | undefined): ToolDefinition<unknown> | undefined => tools.get(name) ?? sessionToolsOf(sessionId).find((t) => t.name === name);

  async function run(name: string, rawInput: unknown, ctx: ToolContext): Promise<ToolResult> {
    const tool = lookup(name, ctx.sessionId);
    if (!tool) return fail(`Unknown tool "${name}". Available tools: ${specs({ askUser: ctx.askUser !== undefined, sessionId: ctx.sessionId }).map((s) => s.name).join(", ")}.`);
    const parsed = tool.parameters.safeParse(rawInput);
    if (!parsed.success) return fail(zodMessage(name, parsed.error));
    const args = parsed.data;
    const sb = ctx.sandbox;
    const access = tool.access(args);

    let call: PolicyCall | null = null;
    let grantKey = name;
    const writes = new Map<string, GuardedPath>();
    let insideRoot = true;
    let protectedWhy: string | null = null;
    const fence = createFence(opts.hidden ?? [], sb);
    try {
      switch (access.kind) {
        case "none":
          break;
        case "read":
          call = { tool: name, kind: "read" };
          break;
        case "write": {
          const roots = writableRoots(sb);
          if (roots.includes(sb.tmpDir)) fs.mkdirSync(sb.tmpDir, { recursive: true, mode: 0o700 });
          for (const p of access.paths) {
            const g = guardPath(p, sb.root, roots);
            if (fence.refuses(g.real)) throw new FenceError(p);
            writes.set(p, g);
            if (g.within === null) insideRoot = false;
            protectedWhy ??= g.protected;
          }
          const reals = [...writes.values()].map((g) => g.real);
          grantKey = fileGrantKey(name, reals);
          call = { tool: name, kind: "write", paths: reals, insideRoot, protected: protectedWhy };
          break;
        }
        case "command":
          grantKey = commandGrantKey(access.command);
          call = { tool: name, kind: "command", command: access.command, escalate: access.escalate };
          break;
        case "mcp":
          grantKey = mcpGrantKey(access.server, access.tool);
          call = { tool: name, kind: "mcp" };
          break;
      }
    } catch (err) {
      if (err instanceof PathGuardError) return fail(`Invalid path: ${err.message}`);
      if (err instanceof FenceError) return fail(err.message);
      return fail(`Could not check the path: ${err instanceof Error ? err.message : String(err)}`);
    }

    let decision: PolicyDecision = { kind: "allow" };
    if (call) decision = decide({ call, sandbox: sb.mode, approval: sb.approval, grants: grants.of(ctx.sessionId), grantKey, backendAvailable });
    if (decision.kind === "deny") return fail(decision.reason);
    let escalated = false;
    if (decision.kind === "ask") {
      if (ctx.signal.aborted) return fail("The call was cancelled before it ran.");
      const sessionGrantable = decision.sessionGrantable !== false;
      const answer = await ctx.requestPermission({
        title: tool.title(args, { cwd: sb.root }),
        reason: decision.reason,
        grantKey,
        allowSession: sessionGrantable,
      });
      if (answer !== "allow_once" && answer !== "allow_session") {
        return fail(
          answer === "cancelled"
            ? "The permission request was cancelled; the call did not run."
            : `The user declined this call (${decision.reason}); it did not run. Do not retry the same call; ask the user or try another approach.`,
        );
      }
      if (answer === "allow_session" && sessionGrantable) grants.add(ctx.sessionId, grantKey);
      escalated = decision.escalate;
    }
    if (ctx.signal.aborted) return fail("The call was cancelled before it ran.");

    const full = sb.mode === "danger-full-access";
    const permit: CallPermit = {
      unconfined: full || (access.kind === "command" && escalated),
      writes,
      fence,
    };
    let result: ToolResult;
    try {
      result = await tool.run(args, ctx, permit);
    } catch (err) {
      if (ctx.signal.aborted) return fail("The call was cancelled.");
      return fail(`${name} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    // Tools page their own output at MAX_OUTPUT_LINES; the runner's cap leaves room for their notes.
    return { ...result, output: truncateHead(result.output, MAX_OUTPUT_CHARS, MAX_OUTPUT_LINES + 50) };
  }

  return {
    specs,
    describe(name, rawInput, cwd, sessionId) {
      const tool = lookup(name, sessionId);
      if (!tool) return { title: name, kind: "other", locations: [] };
      const parsed = tool.parameters.safeParse(rawInput);
      if (!parsed.success) return { title: name, kind: tool.kind, locations: [] };
      try {
        return { title: tool.title(parsed.data, { cwd }), kind: tool.kind, locations: tool.locations?.(parsed.data, { cwd }) ?? [] };
      } catch {
        return { title: name, kind: tool.kind, locations: [] };
      }
    },
    run,
    sessionReady: (id, signal) => opts.sessionTools?.ready(id, signal) ?? Promise.resolve(),
    sessionNotes: (id) => opts.sessionTools?.notes(id) ?? [],
    forgetSession: (id) => grants.forget(id),
  };
}
