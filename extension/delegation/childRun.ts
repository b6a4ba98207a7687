// One delegated task run in a child ACP agent process, as part of its parent session: the child is
// started by the caller (resolved and fenced to the parent's folder), spoken to through the same
// AcpClient as the window's agent, and served as the parent session (childNesting.ts): its updates
// nest under the parent's delegate card, its permission requests and questions are asked in the
// parent's panel, its `fs/*` and `terminal/*` requests go through the parent's folder guard. The
// child's own session id stays on this connection (I-14). The parent's cancel (or close, delete, the
// agent's exit: all abort `signal`) and the end of the task stop the child's whole process tree (I-121).
import type * as acp from "@agentclientprotocol/sdk";
import { AcpClient, type ClientOffer } from "../agent/acpClient";
import type { SessionServices } from "../agent/clientHandlers";
import { asParent, nestPermission, nestUpdate, type NestTarget } from "./childNesting";
import type { DelegateParams, DelegateTarget } from "../agent/delegateProtocol";
import { errorMessage } from "../../base/errors";

/** The started child: its ACP stream, and a stop that resolves when its whole tree is gone. */
export interface ChildProcessHandle {
  readonly stream: acp.Stream;
  readonly exited: Promise<unknown>;
  stop(): Promise<void>;
}

/** What a delegated child is served as: its parent session's panel and services. */
export interface ChildParent {
  /** Shows a (nested) update in the parent's panel. */
  applyUpdate(update: acp.SessionUpdate): void | Promise<void>;
  readonly services: SessionServices;
}

/** The window's delegation: which agents sessions are offered, and one run for a session of `folder`. */
export interface Delegation {
  offered(): DelegateTarget[];
  run(params: DelegateParams, folder: string, parent: ChildParent, signal: AbortSignal): Promise<ChildResult>;
}

export interface ChildRunOptions {
  target: NestTarget;
  /** The parent session's folder: the child's cwd. */
  folder: string;
  task: string;
  parent: ChildParent;
  start(): Promise<ChildProcessHandle>;
  /** What `initialize` offers the child (its `manifold.agents` entry may turn `fs`/`terminal` off). */
  offer?: ClientOffer;
  signal: AbortSignal;
  onRouteError?(err: unknown): void;
}

/** The answer for `_manifold/delegate`. */
export interface ChildResult {
  stopReason: string;
  text: string;
  error?: string;
}

/** The child's requests, served as the parent session's. */
function parentServices(t: NestTarget, p: SessionServices): SessionServices {
  return {
    requestPermission: (r, signal) => p.requestPermission(nestPermission(t, r), signal),
    elicit: (r, signal) => p.elicit({ ...r, sessionId: t.sessionId }, signal),
    readTextFile: (r) => p.readTextFile(asParent(t, r)),
    writeTextFile: (r) => p.writeTextFile(asParent(t, r)),
    createTerminal: (r) => p.createTerminal(asParent(t, r)),
    terminalOutput: (r) => p.terminalOutput(asParent(t, r)),
    waitForTerminalExit: (r, signal) => p.waitForTerminalExit(asParent(t, r), signal),
    killTerminal: (r) => p.killTerminal(asParent(t, r)),
    releaseTerminal: (r) => p.releaseTerminal(asParent(t, r)),
  };
}

/** Rejects when the child exits before `work` settles (a crash must not leave the delegation waiting). */
function unlessExited<T>(work: Promise<T>, exited: Promise<unknown>): Promise<T> {
  return Promise.race([work, exited.then(() => Promise.reject(new Error("the agent exited")))]);
}

export async function runChild(o: ChildRunOptions): Promise<ChildResult> {
  if (o.signal.aborted) return { stopReason: "cancelled", text: "" };
  const proc = await o.start();
  const client = new AcpClient(proc.stream, (_id, err) => o.onRouteError?.(err), o.offer);
  const parts: string[] = [];
  const stop = (): void => void proc.stop();
  o.signal.addEventListener("abort", stop, { once: true });
  let registration: { dispose(): void } | undefined;
  try {
    await unlessExited(client.initialize(), proc.exited);
    const services = parentServices(o.target, o.parent.services);
    const applyUpdate = (u: acp.SessionUpdate): void | Promise<void> => {
      if (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text") parts.push(u.content.text);
      const nested = nestUpdate(o.target, u);
      return nested ? o.parent.applyUpdate(nested) : undefined;
    };
    const res = await unlessExited(
      client.newSession(o.folder, (r) => {
        registration = client.router.register(r.sessionId, { applyUpdate, services });
      }),
      proc.exited,
    );
    const stopReason = await unlessExited(client.prompt(res.sessionId, [{ type: "text", text: o.task }]), proc.exited);
    return { stopReason, text: parts.join("") };
  } catch (err) {
    if (o.signal.aborted) return { stopReason: "cancelled", text: parts.join("") };
    return { stopReason: "error", text: parts.join(""), error: errorMessage(err) };
  } finally {
    o.signal.removeEventListener("abort", stop);
    registration?.dispose();
    client.close();
    await proc.stop();
  }
}
