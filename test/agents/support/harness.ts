// Drives a real third-party ACP agent with Manifold's own client code: the extension's `AcpClient`
// over the child's stdio and, for the session, the same `SessionBinding` a folder panel uses
// (permission broker, `SessionFileService` on the folder's confinement, terminals), with the plain-Node
// editor (`noEditor`). Only the user is scripted: `answerPermissions` picks an option by its kind.
import * as acp from "@agentclientprotocol/sdk";
import { spawn, type ChildProcess } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { AcpClient } from "../../../extension/agent/acpClient";
import { noEditor } from "../../../extension/client/fileService";
import { PathConfinement } from "../../../extension/client/folderConfinement";
import type { PendingPermission } from "../../../extension/permissions/permissionBroker";
import { SessionBinding } from "../../../extension/sessions/sessionBinding";
import type { TranscriptEvent } from "../../../extension/common/transcript";
import { createNoSandbox } from "../../../sandbox/none";

export type PermissionChoice = "allow" | "reject";

export interface AgentCommand {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export interface RealAgent {
  readonly client: AcpClient;
  readonly init: acp.InitializeResponse;
  readonly permissions: PendingPermission[];
  /** What the binding put into the folder's transcript (permission cards, terminals). */
  readonly events: TranscriptEvent[];
  /** The session's updates, in arrival order. */
  readonly updates: acp.SessionUpdate[];
  stderr(): string;
  /** `session/new` for `folder`, bound like a panel binds it. */
  newSession(folder: string): Promise<string>;
  /** What the user answers to every permission request from now on. */
  answerPermissions(choice: PermissionChoice): void;
  /** Concatenated agent text of the session so far. */
  text(): string;
  /** What the session showed: its text and each tool call update's status and text, for failure messages. */
  transcript(): string;
  /** Resolves with the first permission request that arrives from now on. */
  nextPermission(): Promise<PendingPermission>;
  close(): Promise<void>;
}

const ALLOW = new Set(["allow_once", "allow_always"]);
const REJECT = new Set(["reject_once", "reject_always"]);

export async function startRealAgent(cmd: AgentCommand): Promise<RealAgent> {
  const child: ChildProcess = spawn(cmd.command, cmd.args, { cwd: cmd.cwd, env: cmd.env, stdio: ["pipe", "pipe", "pipe"], detached: true });
  let stderr = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (d: string) => {
    stderr = (stderr + d).slice(-20_000);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stream = acp.ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>);
  const client = new AcpClient(stream);
  const init = await Promise.race([
    client.initialize(),
    exited.then(() => {
      throw new Error(`the agent exited before answering initialize; stderr:\n${stderr}`);
    }),
  ]);
  const permissions: PendingPermission[] = [];
  const events: TranscriptEvent[] = [];
  const updates: acp.SessionUpdate[] = [];
  const waiters: ((p: PendingPermission) => void)[] = [];
  let choice: PermissionChoice | undefined;
  let binding: SessionBinding | undefined;
  const answer = (p: PendingPermission) => {
    if (!choice || !binding) return;
    const kinds = choice === "allow" ? ALLOW : REJECT;
    const option = p.options.find((o) => kinds.has(o.kind) && o.kind.endsWith("_once")) ?? p.options.find((o) => kinds.has(o.kind));
    if (option) binding.answerPermission(p.requestId, option.optionId);
    else binding.dismissPermission(p.requestId);
  };
  const sandbox = createNoSandbox({}, "none");
  return {
    client,
    init,
    permissions,
    events,
    updates,
    stderr: () => stderr,
    async newSession(folder) {
      const res = await client.newSession(folder, (r) => {
        binding = new SessionBinding(client, r.sessionId, new PathConfinement(folder), {
          editor: noEditor,
          terminalSandbox: async () => sandbox,
          emit: (...e) => events.push(...e),
          update: (u) => updates.push(u),
          onPermissionRequested: (p) => {
            permissions.push(p);
            waiters.splice(0).forEach((w) => w(p));
            answer(p);
          },
          onQuestionRequested: () => undefined,
        });
      });
      return res.sessionId;
    },
    answerPermissions(c) {
      choice = c;
    },
    text: () => updates.flatMap((u) => (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? [u.content.text] : [])).join(""),
    transcript: () =>
      updates
        .flatMap((u) => {
          if (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text") return [u.content.text];
          if (u.sessionUpdate !== "tool_call" && u.sessionUpdate !== "tool_call_update") return [];
          const text = (u.content ?? []).flatMap((c) => (c.type === "content" && c.content.type === "text" ? [c.content.text] : [])).join(" ");
          return [`\n[${u.sessionUpdate} ${u.title ?? ""} ${u.status ?? ""}] ${text}\n`];
        })
        .join(""),
    nextPermission: () => new Promise((resolve) => waiters.push(resolve)),
    async close() {
      await binding?.dispose();
      client.close();
      // Its own process group: whatever the agent started goes with it.
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
        try {
          process.kill(-child.pid, "SIGTERM");
        } catch {
          // already gone
        }
      }
      await exited;
    },
  };
}
