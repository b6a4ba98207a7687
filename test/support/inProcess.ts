// In-process harness: LiveAgents + bridge with a real file store in a temp dir (optionally gated),
// the scripted model and fake tools, connected to an SDK client over the SDK's memory streams.
import * as acp from "@agentclientprotocol/sdk";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAcpRoutes } from "../../agent-server/acp/app";
import { createFront } from "../../agent-server/acp/front";
import type { Bridge } from "../../agent-server/acp/bridge";
import type { AgentServices } from "../../agent-server/runtime/agent";
import { LiveAgents } from "../../agent-server/runtime/liveAgents";
import { createAgentServices } from "../../agent-server/runtime/services";
import type { SessionHeader } from "../../agent-server/session/events";
import type { SessionLog } from "../../agent-server/session/log";
import type { WriteFn } from "../../agent-server/session/fileSink";
import { FileSessionStore, type CreateOptions } from "../../agent-server/session/store";
import type { TaskAccess, ToolRunner } from "../../agent-server/tools/types";
import { createFakeTools, createScriptedModels, type Gate, type ScriptedModel } from "./scriptedModel";
import type { AgentProfile } from "../../base/agentProfiles";

/** The file store with optional gates and call counters (to prove what did or did not touch disk). */
export class GatedStore extends FileSessionStore {
  createGate: Gate | null = null;
  openGate: Gate | null = null;
  calls = { create: 0, open: 0, readHeader: 0 };
  override async create(header: SessionHeader, opts?: CreateOptions): Promise<SessionLog> {
    this.calls.create++;
    if (this.createGate) await this.createGate.promise;
    return super.create(header, opts);
  }
  override async open(id: string): Promise<SessionLog> {
    this.calls.open++;
    if (this.openGate) await this.openGate.promise;
    return super.open(id);
  }
  override async readHeader(id: string): Promise<SessionHeader> {
    this.calls.readHeader++;
    return super.readHeader(id);
  }
}

const noTasks: TaskAccess = {
  start: () => Promise.reject(new Error("no tasks in this harness")),
  output: () => Promise.reject(new Error("no tasks")),
  kill: () => Promise.reject(new Error("no tasks")),
  list: () => [],
};

export interface ClientSide {
  bridge: Bridge;
  conn: acp.ClientConnection;
  agent: acp.ClientContext;
  /** Updates per session, in arrival order. */
  updates: Map<string, acp.SessionUpdate[]>;
  /** Arrival order of everything the client saw: `update:<sid>:<kind>`, `permission:<sid>`, or labels pushed by tests. */
  order: string[];
  permissionRequests: acp.RequestPermissionRequest[];
  onPermission(r: (req: acp.RequestPermissionRequest) => acp.RequestPermissionResponse | Promise<acp.RequestPermissionResponse>): void;
  /** Every `elicitation/create` this client received, in arrival order (also `elicitation:<sid>` in `order`). */
  elicitations: acp.CreateElicitationRequest[];
  onElicitation(r: (req: acp.CreateElicitationRequest) => acp.CreateElicitationResponse | Promise<acp.CreateElicitationResponse>): void;
  textOf(sessionId: string): string;
  newSession(cwd: string): Promise<string>;
  prompt(sessionId: string, text: string): Promise<acp.PromptResponse>;
  cancel(sessionId: string): Promise<void>;
}

export interface Harness {
  dataDir: string;
  ws: string[];
  store: GatedStore;
  live: LiveAgents;
  services: AgentServices;
  model: ScriptedModel;
  modelIds: string[];
  tools: ToolRunner;
  connect(opts?: ConnectOptions): Promise<ClientSide>;
  cleanup(): Promise<void>;
}

export interface ConnectOptions {
  /** Sent in `initialize` (default `{}`). */
  clientCapabilities?: acp.ClientCapabilities;
  /** More client handlers (extension methods a test serves). */
  extend?: (app: acp.ClientApp) => acp.ClientApp;
}

export interface HarnessOptions {
  tools?: ToolRunner;
  modelIds?: string[];
  workspaces?: number;
  maxSteps?: number;
  /** Background tasks every agent sees (default: none). */
  tasks?: TaskAccess;
  /** How the store writes log lines (simulate a full disk). */
  writeFn?: WriteFn;
  /** Configured agent profiles (session/new `_meta["manifold.dev/profile"]`). */
  profiles?: AgentProfile[];
}

export function createHarness(opts: HarnessOptions = {}): Harness {
  const dataDir = mkdtempSync(join(tmpdir(), "manifold-h-data-"));
  const ws = Array.from({ length: opts.workspaces ?? 2 }, () => mkdtempSync(join(tmpdir(), "manifold-h-ws-")));
  const store = new GatedStore(dataDir, join(dataDir, "..", `${dataDir.split("/").pop()}-tmp`), opts.writeFn);
  const modelIds = opts.modelIds ?? ["test:one", "test:two"];
  const { configs, model, clientFor } = createScriptedModels(modelIds);
  const tools: ToolRunner = opts.tools ?? createFakeTools({});
  const services = createAgentServices({
    models: configs,
    defaultModelId: modelIds[0]!,
    createModelClient: clientFor,
    tools,
    tasksFor: () => opts.tasks ?? noTasks,
    ...(opts.maxSteps !== undefined ? { maxSteps: opts.maxSteps } : {}),
  });
  const live = new LiveAgents(store, services);
  const clients: ClientSide[] = [];
  return {
    dataDir,
    ws,
    store,
    live,
    services,
    model,
    modelIds,
    tools,
    async connect(connectOpts: ConnectOptions = {}) {
      // The front and the routes in one process, loaded together.
      const { routes, bridge } = createAcpRoutes({ live, models: configs, ...(opts.profiles ? { profiles: opts.profiles } : {}) });
      const { app } = createFront({ routes: () => Promise.resolve(routes), mcp: false });
      const updates = new Map<string, acp.SessionUpdate[]>();
      const order: string[] = [];
      const permissionRequests: acp.RequestPermissionRequest[] = [];
      const elicitations: acp.CreateElicitationRequest[] = [];
      let elicitationResponder: (
        req: acp.CreateElicitationRequest,
      ) => acp.CreateElicitationResponse | Promise<acp.CreateElicitationResponse> = () => ({ action: "decline" });
      let responder: (
        req: acp.RequestPermissionRequest,
      ) => acp.RequestPermissionResponse | Promise<acp.RequestPermissionResponse> = () => ({ outcome: { outcome: "cancelled" } });
      const clientApp = acp
        .client({ name: "harness" })
        .onNotification(acp.methods.client.session.update, ({ params }) => {
          let list = updates.get(params.sessionId);
          if (!list) updates.set(params.sessionId, (list = []));
          list.push(params.update);
          order.push(`update:${params.sessionId}:${params.update.sessionUpdate}`);
        })
        .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
          permissionRequests.push(params);
          order.push(`permission:${params.sessionId}`);
          return responder(params);
        })
        .onRequest(acp.methods.client.elicitation.create, ({ params }) => {
          elicitations.push(params);
          order.push(`elicitation:${"sessionId" in params ? String(params.sessionId) : ""}`);
          return elicitationResponder(params);
        });
      const conn = (connectOpts.extend ? connectOpts.extend(clientApp) : clientApp).connect(app);
      const agent = conn.agent;
      await agent.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: connectOpts.clientCapabilities ?? {} });
      const side: ClientSide = {
        bridge,
        conn,
        agent,
        updates,
        order,
        permissionRequests,
        onPermission(r) {
          responder = r;
        },
        elicitations,
        onElicitation(r) {
          elicitationResponder = r;
        },
        textOf: (id) =>
          (updates.get(id) ?? [])
            .flatMap((u) => (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" && !u._meta ? [u.content.text] : []))
            .join(""),
        newSession: async (cwd) => {
          const { sessionId } = await agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
          // The agent announces its slash commands just after answering: wait for it, so what a test counts next is only its own.
          await until(
            () => (updates.get(sessionId) ?? []).some((u) => u.sessionUpdate === "available_commands_update"),
            "available_commands_update",
          );
          return sessionId;
        },
        prompt: (sessionId, text) => agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] }),
        cancel: (sessionId) => agent.notify(acp.methods.agent.session.cancel, { sessionId }),
      };
      clients.push(side);
      return side;
    },
    async cleanup() {
      for (const c of clients) {
        c.conn.close();
        await c.bridge.teardown().catch(() => undefined);
      }
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(store.tmpBase, { recursive: true, force: true });
      for (const w of ws) rmSync(w, { recursive: true, force: true });
    },
  };
}

/** Waits until `predicate` holds, re-checking after every macrotask (no fixed sleeps). */
export async function until(predicate: () => boolean, what = "condition", maxTurns = 200_000): Promise<void> {
  for (let i = 0; i < maxTurns; i++) {
    if (predicate()) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`timed out waiting for ${what}`);
}
