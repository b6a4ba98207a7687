// A folder session's queue and steering: messages typed while a turn runs wait here and
// go one per turn, in order, when a turn ends normally; a steer goes into the running turn. The queue
// is the folder's (it outlives a session switch and a window reload); every change is said as one
// `queue/changed` transcript event, the panel's one feed. The queue operations themselves are pure
// (extension/common/promptQueue.ts).
//
// A cancelled, refused or failed turn leaves the queue until "Send next" or the next turn that ends
// normally, and a queue restored after a reload is never sent by itself. A steer goes to this
// folder's own session through `_session/steering`, only with an agent that advertises it:
// `injected`, and the agent shows where it landed (the client never echoes it); `promptRequired`, and
// it becomes the next prompt, even after a cancelled turn; an error, and it goes back first in the
// queue with a notice.
import type { SteerOutcome } from "../agent/acpClient";
import { edit, enqueue, move, parseQueue, pushFront, remove, take, type PromptQueue } from "../common/promptQueue";
import type { TranscriptEvent } from "../common/transcript";
import { errorText } from "../common/text";

/** Where a folder's queue is kept between window reloads (`workspaceState`, next to its binding). */
export interface QueueStore {
  get(folder: string): unknown;
  set(folder: string, queue: PromptQueue): Promise<void> | void;
}

export interface FolderQueueHost {
  readonly folder: string;
  readonly store: QueueStore | undefined;
  /** A turn is running in the folder's session. */
  running(): boolean;
  /** The folder's agent takes messages into a running turn. */
  canSteer(): boolean;
  emit(ev: TranscriptEvent): void;
  /** Sends `text` as a prompt of its own; resolves when its turn ends. */
  send(text: string): Promise<void>;
  /** Sends `text` into the running turn of the folder's own session (I-104). */
  steer(text: string): Promise<SteerOutcome>;
  log?(message: string): void;
}

export class FolderQueue {
  #q: PromptQueue;
  /** A steer came back `promptRequired` during a turn: the next turn end sends it, however that turn ended. */
  #sendAtTurnEnd = false;

  constructor(private readonly host: FolderQueueHost) {
    this.#q = parseQueue(host.store?.get(host.folder));
  }

  get queue(): PromptQueue {
    return this.#q;
  }

  add(text: string): void {
    this.#set(enqueue(this.#q, text));
  }
  edit(id: string, text: string): void {
    this.#set(edit(this.#q, id, text));
  }
  remove(id: string): void {
    this.#set(remove(this.#q, id));
  }
  move(id: string, by: -1 | 1): void {
    this.#set(move(this.#q, id, by));
  }

  /** Sends the first queued message now, when no turn runs ("Send next"). */
  async sendNext(): Promise<void> {
    if (this.host.running()) return;
    const [m, rest] = take(this.#q);
    if (!m) return;
    this.#set(rest);
    await this.#send(m.text);
  }

  /**
   * A turn of this folder ended. After a normal end (`end_turn`) the next queued message goes; a
   * cancelled, refused or failed turn leaves the queue for the user ("Send next", or the next turn that
   * ends normally) — unless a steer the agent could not take is waiting to be the next prompt.
   */
  turnEnded(normally: boolean): void {
    if (!normally && !this.#sendAtTurnEnd) return;
    this.#sendAtTurnEnd = false;
    void this.sendNext().catch((err: unknown) => this.host.log?.(`sending the next queued message: ${errorText(err)}`));
  }

  /**
   * Sends a message into the running turn: typed text, or queued item `id`. Without a running turn it
   * is simply sent as a prompt; without steering support it is queued. `promptRequired` makes it the next
   * prompt; a failure puts it back first in the queue with a notice. Never dropped (I-104).
   */
  async steer(what: { text: string } | { id: string }): Promise<void> {
    let text: string;
    if ("id" in what) {
      const [m, rest] = take(this.#q, what.id);
      if (!m) return;
      if (!this.host.canSteer() && this.host.running()) return;
      this.#set(rest);
      text = m.text;
    } else {
      text = what.text;
      if (!this.host.canSteer() && this.host.running()) return this.add(text);
    }
    if (!this.host.running()) return this.#send(text);
    let outcome: SteerOutcome;
    try {
      outcome = await this.host.steer(text);
    } catch (err) {
      this.#set(pushFront(this.#q, text));
      this.host.emit({
        type: "notice",
        severity: "warning",
        text: `The message could not be sent into the running turn (${errorText(err)}); it is first in the queue.`,
      });
      return;
    }
    if (outcome === "injected") return;
    if (!this.host.running()) return this.#send(text);
    // The agent's turn is over but its answer has not reached us yet: this message goes next.
    this.#set(pushFront(this.#q, text));
    this.#sendAtTurnEnd = true;
  }

  async #send(text: string): Promise<void> {
    try {
      await this.host.send(text);
    } catch (err) {
      // Not sent at all (no session, a turn already running): it waits first in the queue.
      this.#set(pushFront(this.#q, text));
      this.host.emit({
        type: "notice",
        severity: "warning",
        text: `The queued message was not sent (${errorText(err)}); it is first in the queue.`,
      });
    }
  }

  #set(q: PromptQueue): void {
    if (q === this.#q) return;
    this.#q = q;
    this.host.emit({ type: "queue/changed", items: [...q.items] });
    void Promise.resolve(this.host.store?.set(this.host.folder, q)).catch((err: unknown) =>
      this.host.log?.(`saving the queue of ${this.host.folder}: ${errorText(err)}`),
    );
  }
}
