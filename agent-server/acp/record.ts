// A live session as the bridge sees it: the exact agent that owns it (which also knows the tool
// calls it announced, `Agent.isOpenToolCall`), its prompt slots, its pending idle config switches and pending permission requests.
import type { StopReason } from "@agentclientprotocol/sdk";
import type { Agent } from "../runtime/agent";
import type { DelegateTarget } from "../runtime/capabilities";

export type SlotResult = { stopReason: StopReason } | { error: string };

export class PromptSlot {
  turnId: string | null = null;
  /** Cancelled by the client: no longer blocks a new prompt, still settled by its own turn. */
  cancelled = false;
  settled = false;
  readonly promise: Promise<SlotResult>;
  private resolveFn!: (r: SlotResult) => void;

  constructor(
    readonly messageId: string,
    readonly title: string | null,
  ) {
    this.promise = new Promise((resolve) => {
      this.resolveFn = resolve;
    });
  }

  /** Exactly once (I-28, I-78); later calls are ignored. */
  settle(r: SlotResult): boolean {
    if (this.settled) return false;
    this.settled = true;
    this.resolveFn(r);
    return true;
  }
}

export class SessionRecord {
  /** The admitted prompt that blocks another one (I-26). */
  active: PromptSlot | null = null;
  /** Every unsettled prompt of this session, by its queued message id. */
  readonly slots = new Map<string, PromptSlot>();
  /** Idle switches held until the next user turn (I-49). */
  readonly pendingConfig = new Map<string, string>();
  /** Pending permission requests (aborted by cancel and teardown, I-44/45). */
  readonly pendingPermissions = new Set<AbortController>();
  /** Pending user questions (aborted by cancel and teardown, I-45/46). */
  readonly pendingQuestions = new Set<AbortController>();
  /** The last update write issued for this session (writes are ordered by the transport). */
  lastSend: Promise<void> = Promise.resolve();
  /** The other agents this connection's client offers the session for delegation (`remoteDelegate.ts`). */
  delegateAgents: readonly DelegateTarget[] = [];
  hasTitle: boolean;

  constructor(readonly agent: Agent) {
    this.hasTitle = agent.session.entries.some((e) => e.type === "session/title");
  }

  get sessionId(): string {
    return this.agent.sessionId;
  }

  slotForTurn(turnId: string): PromptSlot | undefined {
    for (const s of this.slots.values()) if (s.turnId === turnId) return s;
    return undefined;
  }

  settle(slot: PromptSlot, r: SlotResult): void {
    slot.settle(r);
    this.slots.delete(slot.messageId);
    if (this.active === slot) this.active = null;
  }

  settleAll(r: SlotResult): void {
    for (const s of [...this.slots.values()]) this.settle(s, r);
  }
}
