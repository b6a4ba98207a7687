// Spawns the built `dist/agent-server.js` over stdio with a temp data dir and connects the SDK
// client. Every `session/update` is collected per session id; frames are recorded in order.
import * as acp from "@agentclientprotocol/sdk";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Writable } from "node:stream";

export const AGENT_BUNDLE = resolve(__dirname, "../../dist/agent-server.js");

export type PermissionResponder = (
  req: acp.RequestPermissionRequest,
) => acp.RequestPermissionResponse | Promise<acp.RequestPermissionResponse>;

export interface AgentProcess {
  child: ChildProcess;
  conn: acp.ClientConnection;
  agent: acp.ClientContext;
  dataDir: string;
  /** Updates per session id, in arrival order. */
  updates: Map<string, acp.SessionUpdate[]>;
  /** Every inbound frame kind in order: `update:<sessionId>` or `permission:<sessionId>`. */
  permissionRequests: acp.RequestPermissionRequest[];
  stderr: () => string;
  /** Every raw line the agent wrote to stdout (parsed JSON), in order. */
  frames: unknown[];
  updatesOf(sessionId: string): acp.SessionUpdate[];
  /** Concatenated agent_message_chunk text of a session. */
  textOf(sessionId: string): string;
  onPermission(responder: PermissionResponder): void;
  initialize(): Promise<acp.InitializeResponse>;
  newSession(cwd: string): Promise<acp.NewSessionResponse>;
  prompt(sessionId: string, text: string): Promise<acp.PromptResponse>;
  /** Kills with SIGKILL (or the given signal) and waits for exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Closes stdin and waits for exit. */
  close(): Promise<number | null>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Removes the data dir (unless kept for a restart). */
  cleanup(): void;
}

export interface SpawnOptions {
  env?: Record<string, string | undefined>;
  dataDir?: string;
  /** Node options before the bundle (e.g. `--expose-gc`). */
  nodeArgs?: string[];
  /** Arguments after the bundle's `--data-dir DIR` (e.g. `--config FILE`). */
  args?: string[];
  /** Writes raw lines to stdin are possible through `child.stdin`. */
  /** The agent-server to start (default: the built dist/agent-server.js). */
  bundle?: string;
}

/** The content of each finished tool call of a session, as JSON (what its commands printed). */
export function toolOutputList(agent: AgentProcess, sessionId: string): string[] {
  return agent
    .updatesOf(sessionId)
    .flatMap((u) =>
      u.sessionUpdate === "tool_call_update" && (u.status === "completed" || u.status === "failed")
        ? [JSON.stringify(u.content ?? [])]
        : [],
    );
}

/** The same, joined: one text to match against. */
export function toolOutputs(agent: AgentProcess, sessionId: string): string {
  return toolOutputList(agent, sessionId).join("");
}

export function modelEnv(baseUrl: string): Record<string, string> {
  return {
    MANIFOLD_MODEL_PROVIDER: "openai-compatible",
    MANIFOLD_MODEL_BASE_URL: baseUrl,
    MANIFOLD_MODEL: "fake-model",
    OPENAI_API_KEY: "sk-test-not-a-real-key",
    MANIFOLD_MODEL_RETRY_BASE_MS: "1",
  };
}

export function spawnAgent(opts: SpawnOptions = {}): AgentProcess {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), "manifold-agent-test-"));
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ...opts.env };
  const child = spawn(
    process.execPath,
    [...(opts.nodeArgs ?? []), opts.bundle ?? AGENT_BUNDLE, "--data-dir", dataDir, ...(opts.args ?? [])],
    {
      stdio: ["pipe", "pipe", "pipe"],
      env,
    },
  );
  let stderr = "";
  child.stderr!.setEncoding("utf8");
  child.stderr!.on("data", (d: string) => {
    stderr += d;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) =>
    child.once("exit", (code, signal) => res({ code, signal })),
  );
  const frames: unknown[] = [];
  let partial = "";
  // The SDK client reads the lines recorded here. A reply to a raw frame a test wrote itself (its id
  // is a string; the SDK numbers its own requests) is recorded but not passed on: the SDK would log
  // "response to unknown request" for each, and a flood test's 5,000 such lines cost more than the flood.
  let toSdk!: ReadableStreamDefaultController<Uint8Array>;
  const sdkInput = new ReadableStream<Uint8Array>({ start: (c) => void (toSdk = c) });
  const encoder = new TextEncoder();
  child.stdout!.on("data", (chunk: Buffer) => {
    partial += chunk.toString("utf8");
    let nl: number;
    while ((nl = partial.indexOf("\n")) !== -1) {
      const line = partial.slice(0, nl);
      partial = partial.slice(nl + 1);
      let frame: unknown;
      try {
        frame = JSON.parse(line);
      } catch {
        frame = { unparsable: line };
      }
      frames.push(frame);
      if (!isReplyToRawFrame(frame)) toSdk.enqueue(encoder.encode(line + "\n"));
    }
  });
  child.stdout!.once("end", () => toSdk.close());
  const updates = new Map<string, acp.SessionUpdate[]>();
  const permissionRequests: acp.RequestPermissionRequest[] = [];
  let responder: PermissionResponder = () => ({ outcome: { outcome: "cancelled" } });
  const clientApp = acp
    .client({ name: "manifold-test-client" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      let list = updates.get(params.sessionId);
      if (!list) updates.set(params.sessionId, (list = []));
      list.push(params.update);
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      permissionRequests.push(params);
      return responder(params);
    });
  const stream = acp.ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, sdkInput);
  const conn = clientApp.connect(stream);
  const agent = conn.agent;
  const updatesOf = (id: string): acp.SessionUpdate[] => updates.get(id) ?? [];
  return {
    child,
    conn,
    agent,
    dataDir,
    updates,
    permissionRequests,
    stderr: () => stderr,
    frames,
    updatesOf,
    textOf: (id) =>
      updatesOf(id)
        .flatMap((u) => (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? [u.content.text] : []))
        .join(""),
    onPermission(r) {
      responder = r;
    },
    initialize: () => agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} }),
    newSession: (cwd) => agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] }),
    prompt: (sessionId, text) => agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] }),
    async kill(signal = "SIGKILL") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
    async close() {
      child.stdin!.end();
      return (await exited).code;
    },
    exited,
    cleanup() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A temp directory (a workspace folder) removed by the returned cleanup. */
export function tempDir(prefix = "manifold-ws-"): { path: string; cleanup: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/** A reply (no method) whose id the SDK cannot have issued: it numbers its requests. */
function isReplyToRawFrame(frame: unknown): boolean {
  if (typeof frame !== "object" || frame === null || "method" in frame || !("id" in frame)) return false;
  return typeof (frame as { id: unknown }).id !== "number";
}
