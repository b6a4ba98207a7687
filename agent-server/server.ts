// The agent-server's object graph, composed in dependency order, with one teardown. main.ts imports
// this module only once `initialize` has been answered (acp/front.ts answers it).
//
// Two halves, because the sandbox probe spawns a child and the models are resolved over the network:
//   now:   store, MCP sessions, live, ACP routes (nothing here needs the probe or the models);
//   later: models + sandbox → tools → tasks → services, started by `start()` (main calls it once
//          the first line, the `initialize` answer, has left stdout) or by the first lifecycle
//          request, whichever comes first. LiveAgents holds the services as that promise: a
//          creation waits for it, and the ACP handlers wait for `ready` before they create anything.
import type { AgentProfile } from "../base/agentProfiles";
import { detectSandbox } from "../sandbox";
import { outermost } from "../sandbox/hideDirs";
import { createAcpRoutes } from "./acp/app";
import type { Bridge } from "./acp/bridge";
import type { AcpRoutes } from "./acp/front";
import { McpSessions, mcpLimitsFrom } from "./mcp";
import { createModelClient, resolveModels } from "./model";
import type { ModelConfig } from "./model/types";
import type { AgentServices } from "./runtime/agent";
import { LiveAgents } from "./runtime/liveAgents";
import { createAgentServices } from "./runtime/services";
import { FileSessionStore } from "./session/store";
import { createTaskTable, createToolRunner, delegateTool, type TaskTable, type ToolRunner } from "./tools";
import { errorMessage, ignoreError, logError } from "../base/errors";

export interface ServerOptions {
  env: NodeJS.ProcessEnv;
  /** Absolute and real: the command sandbox masks it by path. */
  dataDir: string;
  /** More real dirs no session's tools or commands may see (MANIFOLD_HIDE_DIRS, I-116). */
  hide?: readonly string[];
  /** The configured agent profiles, already checked (configFile.ts). */
  profiles?: readonly AgentProfile[];
}

export interface Server {
  /** What the front (acp/front.ts) hands each method to. */
  routes: AcpRoutes;
  /** Models, sandbox and services are in place (rejects with the start-up failure). */
  ready: Promise<void>;
  /** Starts resolving models and probing the sandbox, if that has not started yet; idempotent. */
  start(): void;
  /** Memoized: every session disposed (I-80), then every background task and MCP server stopped. */
  teardown(): Promise<void>;
}

/** What exists once the models are resolved and the sandbox probed. */
interface Runtime {
  sandboxBackend: string;
  tools: ToolRunner;
  tasks: TaskTable;
  services: AgentServices;
}

export function createServer(opts: ServerOptions): Server {
  const store = new FileSessionStore(opts.dataDir);
  // Each session's MCP servers: started by the bridge, stopped with the session's agent.
  const mcp = new McpSessions(opts.env, mcpLimitsFrom(opts.env), { dataDir: opts.dataDir });
  const models: ModelConfig[] = [];
  let start!: () => void;
  const started = new Promise<void>((resolve) => (start = resolve));
  const runtime = started.then(() => startRuntime(opts, mcp, models));
  // Agents exist only after `runtime` resolved (creation awaits the services), so the per-owner
  // cleanups below always find it; a failed start-up has no agents to clean up after.
  const startedRuntime = runtime.catch(() => null);
  const services = runtime.then((r) => r.services);
  services.catch(ignoreError("the failure is reported once, through `ready`; a creation still sees it"));
  const live: LiveAgents = new LiveAgents(
    store,
    services,
    async (sessionId) => {
      const r = await startedRuntime;
      await Promise.all([r?.tasks.disposeOwner(sessionId), mcp.stop(sessionId)]);
      r?.tools.forgetSession(sessionId);
    },
    async (sessionId) => {
      await (await startedRuntime)?.tasks.forgetOwner(sessionId);
    },
  );
  // What start-up produced, once it has: the sandbox backend the config options describe, what teardown stops.
  let current: Runtime | null = null;
  const ready = runtime.then((r) => {
    current = r;
    // Completion notices go to the exact live instance that started the task (I-60).
    r.tasks.onExit((owner, exit) => {
      live
        .get(owner)
        ?.noticeTaskExit(
          exit.taskId,
          `Background task ${exit.taskId} finished with exit code ${exit.exitCode ?? "none (killed)"}. Read its output with bash_output.`,
        );
    });
  });
  // A bad model configuration keeps the process serving: every session request answers with the reason.
  ready.catch((err: unknown) => console.error(`[agent-server] start-up failed: ${errorMessage(err)}`));
  const { routes, bridge } = createAcpRoutes({
    live,
    models,
    ready: () => {
      start();
      return ready;
    },
    sandboxBackend: () => current?.sandboxBackend,
    mcp,
    profiles: opts.profiles ?? [],
  });
  return { routes, ready, start, teardown: memoize(() => teardown(bridge, () => current, mcp)) };
}

async function startRuntime(opts: ServerOptions, mcp: McpSessions, models: ModelConfig[]): Promise<Runtime> {
  const hidden = outermost([opts.dataDir, ...(opts.hide ?? [])]);
  const [resolved, sandbox] = await Promise.all([resolveModels(opts.env), detectSandbox(opts.env, { hide: hidden })]);
  models.push(...resolved.models);
  mcp.useSandbox(sandbox); // folder-defined MCP servers start inside it (I-114)
  const tools = createToolRunner({
    sandbox,
    hidden,
    extraTools: [delegateTool],
    sessionTools: mcp,
  });
  const tasks = createTaskTable(sandbox);
  tools.watchTasks?.(tasks); // the config catch-and-hold checks at each background task's exit (I-112)
  const services = createAgentServices({
    models,
    defaultModelId: resolved.defaultId,
    createModelClient,
    tools,
    tasksFor: (sessionId, sandboxOf) => tasks.forOwner(sessionId, sandboxOf),
  });
  const label = models.find((m) => m.id === resolved.defaultId)?.label ?? resolved.defaultId;
  console.error(`[agent-server] data dir ${opts.dataDir}; default model ${label}`);
  return { sandboxBackend: sandbox.backend, tools, tasks, services };
}

/** Sessions first (their turns end `disposed` on disk), then what outlives them; a bridge failure is reported after. */
async function teardown(bridge: Bridge, startedSoFar: () => Runtime | null, mcp: McpSessions): Promise<void> {
  let failure: unknown = null;
  await bridge.teardown().catch((err: unknown) => (failure = err));
  const r = startedSoFar();
  await Promise.all([r?.tasks.disposeAll().catch(logError(console.error, "[agent-server] ending the background tasks")), mcp.stopAll()]);
  if (failure !== null) throw failure;
}

function memoize(fn: () => Promise<void>): () => Promise<void> {
  let once: Promise<void> | undefined;
  return () => (once ??= fn());
}
