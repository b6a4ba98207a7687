// The panel's one store: everything the webview shows, fed only by the host's messages (and the few
// local actions below). Components read it through `usePanelView`; nothing else holds panel state.
// Pure: no DOM, no Preact, so it is unit-tested as is.
import { reduceTranscript, type TranscriptState } from "../common/transcript";
import { Emitter, type Event } from "../../base/event";
import {
  assertNever,
  type Attachment,
  type ChangesView,
  type HostToWebview,
  type RestoreDoneView,
  type RestorePlanView,
} from "../common/webviewProtocol";
import { announcementOf } from "../common/announcements";
import { FULL_WINDOW, prependPage, type TranscriptWindow } from "../common/transcriptWindow";

export interface Announcement {
  readonly text: string;
  /** Changes with every announcement, so the same words said twice are said again. */
  readonly seq: number;
}

export interface PanelView {
  /** The transcript model; undefined until the host's snapshot arrives. */
  readonly state: TranscriptState | undefined;
  /** Which of the host's entries `state.entries` holds: the latest, and older pages as the user scrolls up. */
  readonly window: TranscriptWindow;
  readonly attachments: readonly Attachment[];
  readonly changes: ChangesView | undefined;
  readonly restorePlan: RestorePlanView | undefined;
  readonly restoreDone: RestoreDoneView | undefined;
  readonly announcement: Announcement | undefined;
}

/** Where the host asked focus to go. */
export type FocusTarget = "composer";

const INITIAL: PanelView = {
  state: undefined,
  window: FULL_WINDOW,
  attachments: [],
  changes: undefined,
  restorePlan: undefined,
  restoreDone: undefined,
  announcement: undefined,
};

export class PanelStore {
  #view: PanelView = INITIAL;
  #announced = 0;
  readonly #onDidChange = new Emitter<PanelView>();
  readonly #onDidRequestFocus = new Emitter<FocusTarget>();
  /** The host asked for focus (after an attachment was picked, say). Fired after the view changed. */
  readonly onDidRequestFocus: Event<FocusTarget> = this.#onDidRequestFocus.event;

  /** The current view; a new object whenever anything in it changed, the same one otherwise. */
  readonly getSnapshot = (): PanelView => this.#view;

  /** Calls `listener` after each change; returns the unsubscribe function. */
  readonly subscribe = (listener: () => void): (() => void) => {
    const sub = this.#onDidChange.event(listener);
    return () => sub.dispose();
  };

  /** Applies a batch of host messages (one frame's worth) and notifies once. */
  receive(messages: readonly HostToWebview[]): void {
    let view = this.#view;
    let focus: FocusTarget | undefined;
    for (const msg of messages) {
      if (msg.type === "composer/focus") focus = "composer";
      else view = this.#apply(view, msg);
    }
    this.#set(view);
    if (focus) this.#onDidRequestFocus.fire(focus);
  }

  /** The user removed an attachment chip (the host is told by the composer). */
  detach(attachmentId: string): void {
    this.#set({ ...this.#view, attachments: this.#view.attachments.filter((a) => a.id !== attachmentId) });
  }

  /** A prompt went out with the current attachments. */
  sent(): void {
    if (this.#view.attachments.length > 0) this.#set({ ...this.#view, attachments: [] });
  }

  closeRestoreDone(): void {
    if (this.#view.restoreDone) this.#set({ ...this.#view, restoreDone: undefined });
  }

  #set(view: PanelView): void {
    if (view === this.#view) return;
    this.#view = view;
    this.#onDidChange.fire(view);
  }

  #apply(view: PanelView, msg: Exclude<HostToWebview, { type: "composer/focus" }>): PanelView {
    switch (msg.type) {
      case "snapshot":
        // The state as it is, not news: only what the events it replaces would have said is announced.
        return {
          ...view,
          state: msg.state,
          window: msg.window ?? FULL_WINDOW,
          ...(msg.announce ? { announcement: { text: msg.announce, seq: ++this.#announced } } : {}),
        };
      case "transcript/page": {
        const merged = view.state && prependPage(view.state, view.window, msg.page);
        return merged ? { ...view, ...merged } : view;
      }
      case "events": {
        let state = view.state;
        if (!state) return view;
        for (const ev of msg.events) state = reduceTranscript(state, ev);
        const said = announcementOf(msg.events);
        return { ...view, state, ...(said ? { announcement: { text: said, seq: ++this.#announced } } : {}) };
      }
      case "composer/attach":
        return { ...view, attachments: [...view.attachments, ...msg.attachments] };
      case "changes":
        return { ...view, changes: msg.changes };
      case "restore/plan":
        return { ...view, restorePlan: msg.plan };
      case "restore/done":
        return { ...view, restoreDone: msg.done, ...(msg.changes ? { changes: msg.changes } : {}) };
      default:
        return assertNever(msg);
    }
  }
}
