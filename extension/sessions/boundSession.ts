// A bound session: what one folder session serves to the agent while it is bound to one ACP session id: its pending
// permission requests and questions, its files and terminals, and its registration with the client's
// router. Created when the folder binds a session, disposed when it leaves it; disposing answers every
// pending request (a dismissal never grants, a question is cancelled).
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { AcpClient } from "../agent/acpClient";
import type { SessionServices } from "../agent/clientHandlers";
import type { AsyncShutdown, IDisposable } from "../../base/lifecycle";
import { SessionFileService, type EditorFiles } from "../client/fileService";
import type { PathConfinement } from "../client/folderConfinement";
import { TerminalService } from "../client/terminals";
import type { CommandSandbox } from "../../sandbox";
import { PermissionBroker, type PendingPermission } from "../permissions/permissionBroker";
import type { TranscriptEvent } from "../common/transcript";
import { QuestionBroker, transcriptListener, type PendingQuestion } from "../questions/questionBroker";
import { errorText } from "../common/text";
import type { DelegateParams } from "../agent/delegateProtocol";
import type { ChildParent, ChildResult } from "../delegation/childRun";

export interface BoundSessionHooks {
  readonly editor: EditorFiles;
  /** The window's command sandbox for `terminal/*` (detected once, I-106). */
  terminalSandbox(): Promise<CommandSandbox>;
  /** Into the folder's transcript (several events: one change). */
  emit(...events: [TranscriptEvent, ...TranscriptEvent[]]): void;
  /** An update from the agent for this session (the folder turns it into a transcript event). */
  update(update: SessionUpdate): void;
  onPermissionRequested(p: PendingPermission): void;
  onQuestionRequested(q: PendingQuestion): void;
  /** Runs a delegated task in another agent as part of this session (absent: delegation is refused). */
  delegate?(params: DelegateParams, parent: ChildParent, signal: AbortSignal): Promise<ChildResult>;
  /** Opens a URL question's page the user agreed to (the editor half: the system browser). */
  openExternal?(href: string): void;
}

export class BoundSession implements AsyncShutdown {
  /** Aborted when the folder leaves this session: the requests made for it are given up ($/cancel_request). */
  readonly #gone = new AbortController();
  readonly #permissions: PermissionBroker;
  readonly #questions: QuestionBroker;
  readonly #terminals: TerminalService;
  readonly #registration: IDisposable;
  /** Running delegations: aborted when this session is left (close, delete, the agent's exit), awaited by `shutdown`. */
  readonly #delegations = new Map<AbortController, Promise<unknown>>();

  constructor(
    client: AcpClient,
    readonly sessionId: string,
    confinement: PathConfinement,
    hooks: BoundSessionHooks,
  ) {
    this.#permissions = new PermissionBroker(sessionId, {
      requested: (p, pending) => {
        hooks.emit(
          { type: "permission/requested", requestId: p.requestId, toolCallId: p.toolCallId, title: p.title, options: p.options },
          { type: "permissions/pending", requestIds: pending },
        );
        hooks.onPermissionRequested(p);
      },
      resolved: (requestId, outcome, pending) =>
        hooks.emit({ type: "permission/resolved", requestId, outcome }, { type: "permissions/pending", requestIds: pending }),
    });
    this.#questions = new QuestionBroker(
      sessionId,
      transcriptListener(hooks.emit, hooks.onQuestionRequested, (href) => hooks.openExternal?.(href)),
    );
    // A refusal is said where the user looks: an agent may swallow the error (and, running as the
    // user, write the file itself), so the panel is the only place the user learns of it.
    const files = new SessionFileService(confinement, hooks.editor, (access, path, reason) =>
      hooks.emit({ type: "notice", severity: "warning", text: `Manifold refused the agent's ${access} of ${path}: ${reason}` }),
    );
    const terminals = new TerminalService(confinement, {
      sessionId,
      sandbox: () => hooks.terminalSandbox(),
      onOutput: (terminalId, view) => hooks.emit({ type: "terminal/output", terminalId, view }),
    });
    this.#terminals = terminals;
    const services: SessionServices = {
      requestPermission: (params, signal) => this.#permissions.request(params, signal),
      elicit: (params, signal) => this.#questions.request(params, signal),
      readTextFile: (params) => files.readTextFile(params),
      writeTextFile: (params) => files.writeTextFile(params),
      createTerminal: (params) => terminals.create(params),
      terminalOutput: async (params) => terminals.output(params.terminalId),
      waitForTerminalExit: (params, signal) => terminals.waitForExit(params.terminalId, signal),
      killTerminal: async (params) => terminals.kill(params.terminalId),
      releaseTerminal: async (params) => terminals.release(params.terminalId),
      ...(hooks.delegate ? { delegate: (params, signal) => this.#delegate(hooks, params, services, signal) } : {}),
    };
    this.#registration = client.router.register(sessionId, {
      services,
      applyUpdate: (update: SessionUpdate) => hooks.update(update),
    });
  }

  #delegate(hooks: BoundSessionHooks, params: DelegateParams, services: SessionServices, signal: AbortSignal): Promise<ChildResult> {
    const controller = new AbortController();
    const onAbort = (): void => controller.abort();
    signal.addEventListener("abort", onAbort, { once: true });
    if (signal.aborted) controller.abort();
    const parent: ChildParent = { applyUpdate: (u) => hooks.update(u), services };
    const run = hooks.delegate!(params, parent, controller.signal).finally(() => {
      signal.removeEventListener("abort", onAbort);
      this.#delegations.delete(controller);
    });
    this.#delegations.set(controller, run);
    return run;
  }

  get pendingPermissions(): PendingPermission[] {
    return this.#permissions.list();
  }

  get pendingQuestions(): PendingQuestion[] {
    return this.#questions.list();
  }

  answerPermission(requestId: string, optionId: string, note?: string): boolean {
    return this.#permissions.answer(requestId, optionId, note);
  }

  dismissPermission(requestId: string): boolean {
    return this.#permissions.dismiss(requestId);
  }

  /** `values` comes from the webview and is validated by the broker. */
  answerQuestion(questionId: string, values: unknown): boolean {
    return this.#questions.answer(questionId, values).ok;
  }

  declineQuestion(questionId: string): boolean {
    return this.#questions.decline(questionId);
  }

  /** Rejects every pending permission request (closing a card or the panel never grants). */
  dismissPermissions(): void {
    this.#permissions.dismissAll();
  }

  /** The turn was cancelled: pending requests and questions are answered `cancelled`. */
  cancelPending(): void {
    this.#permissions.cancelAll();
    this.#questions.cancelAll();
  }

  /** Answers every pending request, leaves the router and starts ending the terminals (`shutdown` waits). */
  dispose(): void {
    this.#leave();
    this.#terminals.dispose();
  }

  /** Like `dispose`; resolves when every terminal's process tree is gone and its temp area removed. */
  async shutdown(): Promise<void> {
    const children = [...this.#delegations.values()];
    this.#leave();
    await Promise.all([this.#terminals.shutdown(), ...children.map((c) => c.catch(() => undefined))]);
  }

  /** Aborted once this session is left: pass it to requests made for it, so they are cancelled then. */
  get abandoned(): AbortSignal {
    return this.#gone.signal;
  }

  #leave(): void {
    for (const c of this.#delegations.keys()) c.abort(); // each child's whole tree ends (childRun.ts)
    this.#gone.abort();
    this.#permissions.dismissAll();
    this.#questions.cancelAll();
    this.#registration.dispose();
  }
}

/**
 * A folder's one bound session at a time, and the terminal trees of those it left, still being
 * killed (a folder's dispose waits for them). Binding a new session id leaves the old one first.
 */
export class BoundSessionSlot {
  #current?: BoundSession;
  readonly #teardowns = new Set<Promise<void>>();

  constructor(
    private readonly confinement: PathConfinement,
    private readonly hooks: BoundSessionHooks,
    private readonly log?: (message: string) => void,
  ) {}

  /** What is served for the bound session id (none while detached). */
  get current(): BoundSession | undefined {
    return this.#current;
  }

  get abandoned(): AbortSignal | undefined {
    return this.#current?.abandoned;
  }

  bind(client: AcpClient, sessionId: string): void {
    this.unbind();
    this.#current = new BoundSession(client, sessionId, this.confinement, this.hooks);
  }

  /** Leaves the bound session id: its pending requests are answered (a dismissal never grants). */
  unbind(): void {
    const gone = this.#current?.shutdown().catch((err: unknown) => this.log?.(`terminal teardown failed: ${errorText(err)}`));
    if (gone) {
      this.#teardowns.add(gone);
      void gone.finally(() => this.#teardowns.delete(gone));
    }
    this.#current = undefined;
  }

  /** Resolves when the terminals of every session left so far have ended their whole trees. */
  async tornDown(): Promise<void> {
    await Promise.all(this.#teardowns);
  }
}
