// The turn half of a folder session: a prompt (the checkpoint before it, the turn's end and what the
// queue does next), a steer into the running turn, edit-and-resend (a fork where the agent can make
// one) and cancel. FolderSession owns the binding and the transcript and decides which session runs;
// this module is what one turn does with them, kept apart so each reads on its own.
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { AcpClient, SteerOutcome } from "../agent/acpClient";
import type { TranscriptEvent, TranscriptState } from "../common/transcript";
import type { ImageData } from "../common/images";
import { errorText } from "../common/text";

/** What a session needs of its folder's checkpoints (extension/checkpoints/folderCheckpoints.ts). */
export interface SessionCheckpointHooks {
  warm(): Promise<void>;
  beforePrompt(sessionId: string, promptIndex: number, label: string): Promise<unknown>;
  afterTurn(sessionId: string): Promise<void>;
  fork(fromSession: string, toSession: string, keepPrompts: number): Promise<void>;
  deleteSession(sessionId: string): Promise<void>;
}

/** What a turn reads of the folder session (FolderSession's own public members). */
export interface TurnHost {
  readonly folder: string;
  readonly state: TranscriptState;
  /** How many user prompts the transcript holds (steers are not prompts). */
  readonly transcript: { readonly prompts: number };
  readonly client: AcpClient | undefined;
  readonly sessionId: string | undefined;
  /** The folder's queue: what is sent next when a turn ends. */
  readonly queue: { turnEnded(normally: boolean): void };
  emit(...events: [TranscriptEvent, ...TranscriptEvent[]]): void;
}

/** What a turn needs of the folder's dependencies (part of `FolderSessionDeps`). */
export interface TurnDeps {
  /** The folder's checkpoints (absent: none are taken, e.g. git is missing). */
  checkpoints?: SessionCheckpointHooks;
  log?(message: string): void;
}

/** What a turn asks of the folder session's private side. */
export interface TurnHooks {
  /** A turn ended or the session changed: the changes list may be stale. */
  checkpointsChanged(): void;
  /** Every pending request of the bound session answered `cancelled` (I-90). */
  cancelPending(): void;
  /** Leaves the bound session (dismisses its requests, cancels a running turn, closes it). */
  leave(client: AcpClient): Promise<void>;
  /** Binds the agent's fork before prompt `keepPrompts`. */
  openFork(client: AcpClient, forked: string, keepPrompts: number): Promise<void>;
  /** Aborted when the bound session is left: its prompt is then given up (`$/cancel_request`). */
  abandoned(): AbortSignal | undefined;
}

export class FolderTurns {
  constructor(
    private readonly host: TurnHost,
    private readonly deps: TurnDeps,
    private readonly hooks: TurnHooks,
  ) {}

  /** Sends a prompt; resolves when the turn ends. */
  async prompt(blocks: ContentBlock[], display: { text: string; attachments: string[]; images?: ImageData[] }): Promise<void> {
    const client = this.host.client;
    const sessionId = this.host.sessionId;
    if (!client || !sessionId) throw new Error("no session is attached to this folder");
    if (this.host.state.running) throw new Error("a turn is already running in this session");
    // Steers are not prompts: checkpoints and forks count prompts only.
    const promptIndex = this.host.transcript.prompts;
    const images = display.images && display.images.length > 0 ? { images: display.images } : {};
    this.host.emit({ type: "user/prompt", text: display.text, attachments: display.attachments, ...images }, { type: "turn/started" });
    // The folder's state before the prompt reaches the agent; a failure is said, and the prompt still goes.
    const ck = this.deps.checkpoints;
    if (ck) {
      try {
        await ck.beforePrompt(sessionId, promptIndex, display.text);
      } catch (err) {
        this.host.emit({ type: "notice", severity: "warning", text: `No checkpoint was taken before this prompt: ${errorText(err)}` });
      }
    }
    try {
      const stopReason = await client.prompt(sessionId, blocks, this.hooks.abandoned());
      await client.router.drain(sessionId);
      if (ck) await ck.afterTurn(sessionId).catch((err: unknown) => this.deps.log?.(`checkpoint after the turn: ${errorText(err)}`));
      this.hooks.checkpointsChanged();
      if (this.host.sessionId !== sessionId) return;
      this.host.emit({ type: "turn/ended", stopReason });
      this.host.queue.turnEnded(stopReason === "end_turn");
    } catch (err) {
      // The connection closed under the turn (the agent died): `agentDied` shows it as interrupted (I-95).
      // The SDK resolves `closed` before it rejects pending requests, so one macrotask decides.
      const connectionGone = await Promise.race([
        client.closed.then(() => true),
        new Promise<boolean>((r) => setImmediate(() => r(false))),
      ]);
      if (connectionGone || this.host.sessionId !== sessionId || !this.host.state.running) return;
      this.host.emit({ type: "turn/ended", stopReason: "error", message: `The turn failed: ${errorText(err)}` });
      this.host.queue.turnEnded(false);
    }
  }

  /** `_session/steering` for this folder's own session id only (I-104); the agent shows where it landed. */
  steer(text: string): Promise<SteerOutcome> {
    const client = this.host.client;
    const sessionId = this.host.sessionId;
    if (!client || !sessionId) return Promise.reject(new Error("no session is attached to this folder"));
    return client.steer(sessionId, [{ type: "text", text }]);
  }

  /** Edit and resend (what it means: `FolderSession.editAndResend`): fork before the prompt where the agent can. */
  async editAndResend(keepPrompts: number, blocks: ContentBlock[], display: { text: string; attachments: string[] }): Promise<void> {
    const client = this.host.client;
    const sessionId = this.host.sessionId;
    if (!client || !sessionId) throw new Error("no session is attached to this folder");
    if (this.host.state.running) throw new Error("a turn is running; cancel it before editing an earlier message");
    if (client.features.forkAtPrompt) {
      const forked = await client.forkAtPrompt(sessionId, this.host.folder, keepPrompts);
      await this.deps.checkpoints
        ?.fork(sessionId, forked, keepPrompts)
        .catch((err: unknown) => this.deps.log?.(`checkpoints of the fork: ${errorText(err)}`));
      await this.hooks.leave(client);
      await this.hooks.openFork(client, forked, keepPrompts);
    } else {
      this.host.emit({
        type: "notice",
        severity: "warning",
        text: `${client.agentName} cannot fork a conversation before a message, so it still remembers the turns after the one you edited. The files were restored; the edited message is sent as a new message.`,
      });
    }
    await this.prompt(blocks, display);
  }

  /** `session/cancel`, then every pending permission of this session is answered `cancelled` (I-90). */
  async cancel(): Promise<void> {
    const client = this.host.client;
    const sessionId = this.host.sessionId;
    if (!client || !sessionId) return;
    const sent = client.cancel(sessionId);
    this.hooks.cancelPending();
    this.host.emit({ type: "tools/cancelUnfinished" });
    await sent;
  }
}
