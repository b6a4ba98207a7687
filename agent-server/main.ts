// Entry: stdout carries ACP only (console → stderr first), build the graph, serve ACP on stdio,
// exit when the connection closes; SIGTERM/SIGINT share the one memoized teardown.
import "./stdoutGuard";
import * as fs from "node:fs";
import * as path from "node:path";
import { Readable, Writable } from "node:stream";
import { createAgentApp } from "./acp/app";
import { guardedNdJsonStream } from "./acp/frameGuard";
import { createModelClient, resolveModels } from "./model";
import type { ModelConfig } from "./model/types";
import type { AgentServices } from "./runtime/agent";
import { createDelegateTool } from "./runtime/delegate";
import { AgentRegistry } from "./runtime/registry";
import { createAgentServices } from "./runtime/services";
import { detectSandbox } from "../sandbox";
import { resolveDataDir } from "./session/fileName";
import { FileSessionStore } from "./session/store";
import { createTaskRegistry, createToolRunner, type TaskRegistry, type ToolDefinition } from "./tools";
import { McpSessions, mcpLimitsFrom } from "./mcp";

function fail(message: string): never {
  console.error(`[agent-server] ${message}`);
  process.exit(2);
}

let dataDir: string;
try {
  // Absolute and real from here on: the command sandbox masks the data dir by path, and a relative
  // or symlinked path would mask nothing (issue #12, class 4).
  const given = path.resolve(resolveDataDir(process.argv.slice(2), process.env));
  fs.mkdirSync(given, { recursive: true, mode: 0o700 });
  dataDir = fs.realpathSync(given);
} catch (err) {
  fail(err instanceof Error ? err.message : String(err));
}

const store = new FileSessionStore(dataDir);
const models: ModelConfig[] = [];
let services: AgentServices | null = null;
let tasks: TaskRegistry | null = null;

const lateServices: AgentServices = {
  get defaultModelId() {
    return need().defaultModelId;
  },
  get maxSteps() {
    return need().maxSteps;
  },
  get tools() {
    return need().tools;
  },
  tasksFor: (id, sb) => need().tasksFor(id, sb),
  systemPrompt: (cwd) => need().systemPrompt(cwd),
  modelFor: async (id) => {
    await ready;
    return need().modelFor(id);
  },
};
function need(): AgentServices {
  if (!services) throw new Error("the agent is still starting");
  return services;
}

// Each session's MCP servers: started by the bridge, stopped with the session's agent.
const mcp = new McpSessions(process.env, mcpLimitsFrom(process.env));

const registry = new AgentRegistry(
  store,
  lateServices,
  async (sessionId) => {
    await Promise.all([tasks?.disposeOwner(sessionId), mcp.stop(sessionId)]);
    services?.tools.forgetSession(sessionId);
  },
  async (sessionId) => {
    await tasks?.forgetOwner(sessionId);
  },
);
// Models and the sandbox are resolved while the client is already talking to us; requests that
// need them wait for `ready` (initialize does not). The work starts a turn of the event loop later
// (setImmediate), so an `initialize` already waiting on stdin is answered before the sandbox probe
// spawns its child and the models are resolved (cold start, DESIGN.md §7).
let sandboxBackend: string | undefined;
const ready = (async () => {
  await new Promise<void>((resolve) => setImmediate(resolve));
  const [resolved, sandbox] = await Promise.all([resolveModels(process.env), detectSandbox(process.env, { hide: [dataDir] })]);
  models.push(...resolved.models);
  sandboxBackend = sandbox.backend;
  const tools = createToolRunner({ sandbox, hidden: [dataDir], extraTools: [createDelegateTool(registry, registry.subagents) as ToolDefinition<never>], sessionTools: mcp });
  tasks = createTaskRegistry(sandbox);
  const taskRegistry = tasks;
  // Completion notices go to the exact live instance that started the task (I-60).
  taskRegistry.onExit((owner, exit) => {
    registry.get(owner)?.noticeTaskExit(exit.taskId, `Background task ${exit.taskId} finished with exit code ${exit.exitCode ?? "none (killed)"}. Read its output with bash_output.`);
  });
  services = createAgentServices({
    models,
    defaultModelId: resolved.defaultId,
    createModelClient,
    tools,
    tasksFor: (sessionId, sandboxOf) => taskRegistry.forOwner(sessionId, sandboxOf),
  });
  const label = models.find((m) => m.id === resolved.defaultId)?.label ?? resolved.defaultId;
  console.error(`[agent-server] data dir ${dataDir}; default model ${label}`);
})();
// A bad model configuration keeps the process serving: every session request answers with the reason.
ready.catch((err: unknown) => console.error(`[agent-server] start-up failed: ${err instanceof Error ? err.message : String(err)}`));

const { app, bridge } = createAgentApp({ registry, models, ready, sandboxBackend: () => sandboxBackend, mcp });
// Every stdin line is judged (depth, size, encoding) before the SDK parses it (I-108).
const stream = guardedNdJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>);
const connection = app.connect(stream);

let exiting = false;
async function shutdown(why: string, code: number): Promise<void> {
  if (exiting) {
    await bridge.teardown().catch(() => undefined);
    return;
  }
  exiting = true;
  console.error(`[agent-server] shutting down (${why})`);
  try {
    await bridge.teardown();
  } catch (err) {
    console.error(`[agent-server] ${err instanceof Error ? err.message : String(err)}`);
    code = code || 1;
  }
  await Promise.all([tasks?.disposeAll().catch(() => undefined), mcp.stopAll()]);
  process.exit(code);
}

void connection.closed.then(() => shutdown("connection closed", 0));
process.on("SIGTERM", () => void shutdown("SIGTERM", 0));
process.on("SIGINT", () => void shutdown("SIGINT", 0));
