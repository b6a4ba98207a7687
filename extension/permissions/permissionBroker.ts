// Pending `session/request_permission` requests of ONE session.
// The broker never answers for the user: only `answer` (a user's click), `dismiss` (the user closed
// the card or the panel: reject, never allow) and `cancelAll` (the turn was cancelled: `cancelled`)
// settle a request (I-90, I-93). The broker alone knows which requests are pending: a transcript's
// permission card names its request id and keeps only how it was settled, and each change of the
// broker reaches the transcripts as one `permissions/pending` event with the whole list.
import type { PermissionOption, RequestPermissionRequest, RequestPermissionResponse } from "@agentclientprotocol/sdk";
import { PendingRequests } from "../common/pendingRequests";

export interface PendingPermission {
  requestId: string;
  sessionId: string;
  toolCallId: string;
  title: string;
  options: PermissionOption[];
}

/** Each change comes with the ids of the requests now pending: this broker owns that fact. */
export interface PermissionListener {
  requested(p: PendingPermission, pending: string[]): void;
  resolved(
    requestId: string,
    outcome: { state: "selected"; optionId: string; optionName: string } | { state: "cancelled" },
    pending: string[],
  ): void;
}

const CANCELLED: RequestPermissionResponse = { outcome: { outcome: "cancelled" } };

/** Where a rejection's note rides on the response: `_meta` is ACP's extension point, so an agent that does not read it is unaffected. */
export const PERMISSION_NOTE_META = "manifold.dev/note";

/** The answer a dismissal gives: the agent's `reject_once` option if it offered one, else `cancelled`. */
export function dismissalResponse(options: readonly PermissionOption[]): RequestPermissionResponse {
  const reject = options.find((o) => o.kind === "reject_once");
  return reject ? { outcome: { outcome: "selected", optionId: reject.optionId } } : CANCELLED;
}

export class PermissionBroker {
  readonly #pending = new PendingRequests<PendingPermission, RequestPermissionResponse>("perm");

  constructor(
    readonly sessionId: string,
    private readonly listener: PermissionListener,
  ) {}

  get size(): number {
    return this.#pending.size;
  }

  list(): PendingPermission[] {
    return this.#pending.list();
  }

  /** Called for each incoming request; resolves when the user (or a cancel) settles it. */
  request(params: RequestPermissionRequest, signal?: AbortSignal): Promise<RequestPermissionResponse> {
    if (params.sessionId !== this.sessionId) {
      // Defence in depth: the router already routes by id.
      return Promise.resolve(CANCELLED);
    }
    return this.#pending.add(
      (requestId) => ({
        requestId,
        sessionId: this.sessionId,
        toolCallId: params.toolCall.toolCallId,
        title: params.toolCall.title ?? "Permission requested",
        options: params.options,
      }),
      signal,
      (requestId) => this.#settle(requestId, CANCELLED),
      (pending) => this.listener.requested(pending, this.#pending.ids()),
    );
  }

  /**
   * The user picked an option. Unknown option ids are ignored (the card stays). A note (already trimmed
   * and bounded by the webview protocol) goes with a reject option only: an allow never carries one, and
   * an empty note is a plain reject.
   */
  answer(requestId: string, optionId: string, note?: string): boolean {
    const p = this.#pending.get(requestId);
    const option = p?.options.find((o) => o.optionId === optionId);
    if (!option) return false;
    const rejects = option.kind === "reject_once" || option.kind === "reject_always";
    const _meta = note && rejects ? { [PERMISSION_NOTE_META]: note } : undefined;
    return this.#settle(requestId, { outcome: { outcome: "selected", optionId }, ...(_meta ? { _meta } : {}) });
  }

  /** The user dismissed the card (or closed the panel): reject, never allow. */
  dismiss(requestId: string): boolean {
    const p = this.#pending.get(requestId);
    if (!p) return false;
    return this.#settle(requestId, dismissalResponse(p.options));
  }

  /** Dismisses every pending request (panel closed). */
  dismissAll(): void {
    for (const id of this.#pending.ids()) this.dismiss(id);
  }

  /** The turn was cancelled: every pending request is answered `cancelled` (I-90). */
  cancelAll(): void {
    for (const id of this.#pending.ids()) this.#settle(id, CANCELLED);
  }

  #settle(requestId: string, response: RequestPermissionResponse): boolean {
    const p = this.#pending.settle(requestId, response);
    if (!p) return false;
    const outcome = response.outcome;
    if (outcome.outcome === "selected") {
      const name = p.options.find((o) => o.optionId === outcome.optionId)?.name ?? outcome.optionId;
      this.listener.resolved(requestId, { state: "selected", optionId: outcome.optionId, optionName: name }, this.#pending.ids());
    } else {
      this.listener.resolved(requestId, { state: "cancelled" }, this.#pending.ids());
    }
    return true;
  }
}
