// Drives a real third-party ACP agent with Manifold's own client code: the extension's `AcpClient`
// over the child's stdio and, for the session, the same `BoundSession` a folder panel uses
// (permission broker, `SessionFileService` on the folder's confinement, terminals), with the plain-Node
// editor (`noEditor`). Only the user is scripted: `answerPermissions` picks an option by its kind.
import * as acp from "@agentclientprotocol/sdk";
import { Readable, Writable } from "node:stream";
import { AcpClient } from "../../../extension/agent/acpClient";
import { noEditor, type EditorFiles } from "../../../extension/client/fileService";
import { PathConfinement } from "../../../extension/client/folderConfinement";
import type { PendingPermission } from "../../../extension/permissions/permissionBroker";
import { BoundSession } from "../../../extension/sessions/boundSession";
import type { TranscriptEvent } from "../../../extension/common/transcript";
import { createNoSandbox } from "../../../sandbox/none";
import { spawnTree } from "../../../sandbox/processTree";
import type { WrappedCommand } from "../../../sandbox/types";

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
  /** `read <path>` / `write <path>` for each fs/* request that reached Manifold's file service. */
  readonly fsCalls: string[];
  stderr(): string;
  /** `session/new` for `folder`, bound like a panel binds it. */
  newSession(folder: string): Promise<acp.NewSessionResponse>;
  /** `session/load` of `sessionId` for `folder`, bound first (the replay arrives as updates). */
  loadSession(folder: string, sessionId: string): Promise<acp.LoadSessionResponse>;
  /** What the user answers to every permission request from now on. */
  answerPermissions(choice: PermissionChoice): void;
  /** Concatenated agent text of the session so far. */
  text(): string;
  /** What the session showed: its text and each tool call update's status and text, for failure messages. */
  transcript(): string;
  /** Everything the session received (its updates and the binding's events), as JSON text. */
  seen(): string;
  close(): Promise<void>;
}

const ALLOW = new Set(["allow_once", "allow_always"]);
const REJECT = new Set(["reject_once", "reject_always"]);

/**
 * The agent's own command, or one a sandbox already wrapped (`CommandSandbox.fenceAgent`: bwrap and
 * the descriptors it binds by, which `spawnTree` hands over as fd 3, 4, … and closes).
 */
export async function startRealAgent(cmd: AgentCommand | WrappedCommand): Promise<RealAgent> {
  let stderr = "";
  const spawnable: WrappedCommand =
    "file" in cmd
      ? cmd
      : {
          file: cmd.command,
          args: cmd.args,
          env: Object.fromEntries(Object.entries(cmd.env).filter((e): e is [string, string] => e[1] !== undefined)),
          cwd: cmd.cwd,
        };
  // Its own process group, ended as a tree (the same mechanism as the extension's terminals).
  const proc = spawnTree(spawnable, (d) => (stderr = (stderr + d).slice(-20_000)), {
    stdin: true,
    rawStdout: true,
  });
  const child = proc.child;
  const exited = proc.exited.then(() => undefined);
  const stream = acp.ndJsonStream(
    Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>,
  );
  const client = new AcpClient(stream);
  let init: acp.InitializeResponse;
  try {
    init = await Promise.race([
      client.initialize(),
      exited.then(() => {
        throw new Error(`the agent exited before answering initialize; stderr:\n${stderr}`);
      }),
    ]);
  } catch (err) {
    await proc.kill();
    throw err;
  }
  const permissions: PendingPermission[] = [];
  const events: TranscriptEvent[] = [];
  const updates: acp.SessionUpdate[] = [];
  const fsCalls: string[] = [];
  // The plain-Node editor, watched: the service asks it first on every confined read and write.
  const editor: EditorFiles = {
    openDocumentText: (p) => (fsCalls.push(`read ${p}`), noEditor.openDocumentText(p)),
    writeOpenDocument: (p, c) => (fsCalls.push(`write ${p}`), noEditor.writeOpenDocument(p, c)),
  };
  let choice: PermissionChoice | undefined;
  let binding: BoundSession | undefined;
  const answer = (p: PendingPermission) => {
    if (!choice || !binding) return;
    const kinds = choice === "allow" ? ALLOW : REJECT;
    const option = p.options.find((o) => kinds.has(o.kind) && o.kind.endsWith("_once")) ?? p.options.find((o) => kinds.has(o.kind));
    if (option) binding.answerPermission(p.requestId, option.optionId);
    else binding.dismissPermission(p.requestId);
  };
  const sandbox = createNoSandbox({}, "none");
  const bind = (folder: string, sessionId: string) => {
    binding = new BoundSession(client, sessionId, new PathConfinement(folder), {
      editor,
      terminalSandbox: async () => sandbox,
      emit: (...e) => events.push(...e),
      update: (u) => updates.push(u),
      onPermissionRequested: (p) => {
        permissions.push(p);
        answer(p);
      },
      onQuestionRequested: () => undefined,
    });
  };
  return {
    client,
    init,
    permissions,
    events,
    updates,
    fsCalls,
    stderr: () => stderr,
    async newSession(folder) {
      return client.newSession(folder, (r) => bind(folder, r.sessionId));
    },
    async loadSession(folder, sessionId) {
      bind(folder, sessionId);
      return client.loadSession(sessionId, folder);
    },
    answerPermissions(c) {
      choice = c;
    },
    text: () =>
      updates.flatMap((u) => (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? [u.content.text] : [])).join(""),
    transcript: () =>
      updates
        .flatMap((u) => {
          if (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text") return [u.content.text];
          if (u.sessionUpdate !== "tool_call" && u.sessionUpdate !== "tool_call_update") return [];
          const text = (u.content ?? [])
            .flatMap((c) => (c.type === "content" && c.content.type === "text" ? [c.content.text] : []))
            .join(" ");
          return [`\n[${u.sessionUpdate} ${u.title ?? ""} ${u.status ?? ""}] ${text}\n`];
        })
        .join(""),
    seen: () => JSON.stringify([updates, events]),
    async close() {
      await binding?.shutdown();
      client.close();
      await proc.kill();
    },
  };
}

/** What an agent advertises, one line for the table in the report (and a test's diagnostics). */
export function advertised(init: acp.InitializeResponse, session: acp.NewSessionResponse): Record<string, string> {
  const caps = init.agentCapabilities;
  const sc = caps?.sessionCapabilities ?? {};
  const on = (v: unknown) => (v === undefined || v === null || v === false ? "no" : "yes");
  const prompt = caps?.promptCapabilities;
  return {
    agent: `${init.agentInfo?.name ?? "?"} ${init.agentInfo?.version ?? ""}`.trim(),
    load: on(caps?.loadSession),
    list: on(sc.list),
    resume: on(sc.resume),
    close: on(sc.close),
    configOptions: (session.configOptions ?? []).map((o) => o.id).join(" ") || "none",
    modes: (session.modes?.availableModes ?? []).map((m) => m.id).join(" ") || "none",
    prompt: ["image", "audio", "embeddedContext"].filter((k) => prompt?.[k as keyof typeof prompt] === true).join(" ") || "text only",
    mcp: ["stdio", ...(caps?.mcpCapabilities?.http ? ["http"] : []), ...(caps?.mcpCapabilities?.sse ? ["sse"] : [])].join(" "),
    auth: (init.authMethods ?? []).map((m) => m.id).join(" ") || "none",
  };
}
