// Remote ACP subagent runs (`delegate {task, agent}` with a configured ACP agent command). The parent
// mints the lifecycle id that keys the run locally; the child server's own session id stays private
// to that one connection and never touches the parent's registry (I-14).
import * as acp from "@agentclientprotocol/sdk";
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { Readable, Writable } from "node:stream";

export interface RemoteRunResult {
  /** The parent-minted lifecycle id. */
  runId: string;
  text: string;
  stopReason: acp.StopReason;
}

export interface RemoteRunInfo {
  runId: string;
  parentSessionId: string;
  status: "running" | "done" | "failed";
}

/** Opens a client connection to a child ACP agent (spawned process, or an in-process app in tests). */
export type ChildConnector = (client: acp.ClientApp) => { connection: acp.ClientConnection; dispose(): void };

export function spawnChildAgent(command: string, args: readonly string[], env: NodeJS.ProcessEnv): ChildConnector {
  return (client) => {
    const child = spawn(command, [...args], { stdio: ["pipe", "pipe", "inherit"], env });
    const stream = acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>);
    const connection = client.connect(stream);
    return {
      connection,
      dispose: () => {
        connection.close();
        if (child.exitCode === null) child.kill("SIGTERM");
      },
    };
  };
}

export class RemoteSubagents {
  private readonly runs = new Map<string, RemoteRunInfo>();

  /** Runs visible to one parent session only. */
  list(parentSessionId: string): RemoteRunInfo[] {
    return [...this.runs.values()].filter((r) => r.parentSessionId === parentSessionId);
  }

  async run(opts: { parentSessionId: string; cwd: string; task: string; connect: ChildConnector; signal: AbortSignal }): Promise<RemoteRunResult> {
    const runId = `${opts.parentSessionId}/remote-${randomUUID()}`;
    const info: RemoteRunInfo = { runId, parentSessionId: opts.parentSessionId, status: "running" };
    this.runs.set(runId, info);
    let childSessionId: string | null = null; // private to this connection
    const parts: string[] = [];
    const client = acp
      .client({ name: "manifold-delegate" })
      .onNotification(acp.methods.client.session.update, ({ params }) => {
        if (params.sessionId !== childSessionId) return;
        const u = params.update;
        if (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text") parts.push(u.content.text);
      })
      // A remote child asks nothing of the user through us: refuse.
      .onRequest(acp.methods.client.session.requestPermission, () => ({ outcome: { outcome: "cancelled" } }));
    const { connection, dispose } = opts.connect(client);
    const onAbort = (): void => {
      if (childSessionId) void connection.agent.notify(acp.methods.agent.session.cancel, { sessionId: childSessionId }).catch(() => undefined);
    };
    opts.signal.addEventListener("abort", onAbort, { once: true });
    try {
      await connection.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
      const created = await connection.agent.request(acp.methods.agent.session.new, { cwd: opts.cwd, mcpServers: [] });
      childSessionId = created.sessionId;
      const res = await connection.agent.request(acp.methods.agent.session.prompt, { sessionId: childSessionId, prompt: [{ type: "text", text: opts.task }] });
      info.status = "done";
      return { runId, text: parts.join(""), stopReason: res.stopReason };
    } catch (err) {
      info.status = "failed";
      throw err;
    } finally {
      opts.signal.removeEventListener("abort", onAbort);
      dispose();
      this.runs.delete(runId);
    }
  }
}
