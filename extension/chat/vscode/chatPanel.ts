// One chat panel (WebviewPanel) for one workspace folder: the host side of the webview protocol.
import * as vscode from "vscode";
import type { FolderSession } from "../../sessions/folderSession";
import { errorText } from "../../common/text";
import type { Attachment, HostToWebview } from "../../common/webviewProtocol";
import { parseWebviewMessage, type SessionAction, type WebviewToHost } from "../../common/webviewMessages";
import { renderShell } from "../html";
import { PanelFeed } from "../panelFeed";
import { attachmentLabel, buildPrompt, composePrompt, type ResolvedAttachment } from "../promptBuilder";
import { checkImage, checkImageFile, type ImageCheck } from "../imageAttachments";
import { pickImageFiles } from "./imagePicker";
import type { DiffContentProvider } from "./diffContent";
import type { BaselineDocs } from "../../checkpoints/vscode/baselineDocs";
import type { FolderCheckpoints } from "../../checkpoints/folderCheckpoints";
import { CheckpointReview, isReviewMessage, type ReviewMessage } from "../../checkpoints/review";
import { watchFolderFiles } from "../../checkpoints/vscode/folderWatch";
import { Emitter, type Event } from "../../../base/event";
import { DisposableStore, MutableDisposable } from "../../../base/lifecycle";
import { pickMention, selectionMention, type MentionContext } from "./mentionPicker";
import type { TerminalOutputs } from "./terminalOutputs";
import type { Mention } from "../mentions";

export const CHAT_VIEW_TYPE = "manifold.chat";

/** The messages the panel answers itself, by type (the checkpoint review answers its own). */
type PanelMessages = { [M in Exclude<WebviewToHost, ReviewMessage> as M["type"]]: M };
type PanelHandlers = { [K in keyof PanelMessages]: (msg: PanelMessages[K]) => void | Promise<void> };

/** Calls the handler of the message's own type (generic over the type, so no cast is needed). */
function dispatch<K extends keyof PanelMessages>(handlers: PanelHandlers, type: K, msg: PanelMessages[K]): void | Promise<void> {
  return handlers[type](msg);
}

export interface ChatPanelDeps {
  extensionUri: vscode.Uri;
  diffs: DiffContentProvider;
  /** Runs a session action (new, switch, …) for this panel's folder. */
  runAction(action: SessionAction, session: FolderSession): void;
  baselineDocs: BaselineDocs;
  /** The folder's checkpoints, or why there are none. */
  checkpoints(session: FolderSession): { ck: FolderCheckpoints } | { unavailable: string };
  /** The panel needs a live session (starts the agent if allowed). */
  ensureAttached(session: FolderSession): Promise<void>;
  /** Runs one of the agent's sign-in methods for this folder. */
  signIn(session: FolderSession, methodId: string): Promise<void>;
  log(message: string): void;
  /** The window's terminals' recent output, for the `@` mention "Terminal output". */
  terminals: TerminalOutputs;
}

export function panelTitle(folderName: string): string {
  return `Manifold: ${folderName}`;
}

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions & vscode.WebviewPanelOptions {
  return {
    enableScripts: true,
    enableCommandUris: false,
    enableFindWidget: true,
    retainContextWhenHidden: false,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, "dist", "webview")],
  };
}

export class ChatPanel implements vscode.Disposable {
  readonly #store = new DisposableStore();
  /** The session's events → this webview, from its `ready` on (a reloaded webview subscribes afresh). */
  readonly #feed = this.#store.add(new MutableDisposable());
  readonly #attachments = new Map<string, ResolvedAttachment>();
  #attachSeq = 0;
  /** What the webview is sent of the session: a snapshot of its latest entries, then events once per frame. */
  readonly #sent: PanelFeed;
  #disposed = false;
  readonly #onDidDispose = this.#store.add(new Emitter<void>());
  readonly onDidDispose: Event<void> = this.#onDidDispose.event;
  readonly #onDidChangeVisibility = this.#store.add(new Emitter<boolean>());
  /** The panel was shown or hidden (the value: whether it is visible now). */
  readonly onDidChangeVisibility: Event<boolean> = this.#onDidChangeVisibility.event;
  readonly review: CheckpointReview;

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly session: FolderSession,
    private readonly deps: ChatPanelDeps,
  ) {
    panel.title = panelTitle(session.folderName);
    panel.webview.options = webviewOptions(deps.extensionUri);
    panel.webview.html = this.#html();
    this.#sent = new PanelFeed({ source: session.transcript, post: (m) => this.#post(m) });
    this.review = new CheckpointReview({
      session,
      checkpoints: () => deps.checkpoints(session),
      docs: deps.baselineDocs,
      post: (m) => this.#post(m),
      promptBlocks: (text) => buildPrompt(text, [], session.state.promptCapabilities),
    });
    this.#store.add(
      watchFolderFiles(session.folder, () =>
        this.review.refreshSoon((err) => this.deps.log(`changes of ${this.session.folderName}: ${errorText(err)}`)),
      ),
    );
    this.#store.add(panel.webview.onDidReceiveMessage((raw: unknown) => this.#onMessage(raw)));
    this.#store.add(panel.onDidDispose(() => this.dispose()));
    this.#store.add(panel.onDidChangeViewState(() => this.#onDidChangeVisibility.fire(this.visible)));
  }

  get visible(): boolean {
    return !this.#disposed && this.panel.visible;
  }

  reveal(): void {
    this.panel.reveal(undefined, false);
  }

  #html(): string {
    const asUri = (...p: string[]) =>
      this.panel.webview.asWebviewUri(vscode.Uri.joinPath(this.deps.extensionUri, "dist", "webview", ...p)).toString();
    return renderShell({
      cspSource: this.panel.webview.cspSource,
      scriptUri: asUri("main.js"),
      styleUri: asUri("styles.css"),
      codiconUri: asUri("codicons", "codicon.css"),
      folder: this.session.folder,
      title: panelTitle(this.session.folderName),
    });
  }

  #post(msg: HostToWebview): void {
    if (!this.#disposed) void this.panel.webview.postMessage(msg);
  }

  #onMessage(raw: unknown): void {
    const msg = parseWebviewMessage(raw);
    if (!msg) {
      this.deps.log(`ignored a malformed message from the ${this.session.folderName} panel`);
      return;
    }
    void this.#handle(msg).catch((err: unknown) => {
      this.session.emit({ type: "notice", severity: "error", text: errorText(err) });
    });
  }

  /** Re-reads the changes list (after a turn, a restore, keep/undo). */
  async refreshChanges(): Promise<void> {
    await this.review.refresh().catch((err: unknown) => this.deps.log(`changes of ${this.session.folderName}: ${errorText(err)}`));
  }

  async #handle(msg: WebviewToHost): Promise<void> {
    if (isReviewMessage(msg)) {
      await this.review.handle(msg);
      return;
    }
    await dispatch(this.#handlers, msg.type, msg);
  }

  /** One handler per message type the panel itself answers (the review answers the rest). */
  readonly #handlers: PanelHandlers = {
    ready: () => {
      // Snapshot, then live events: both from the same synchronous point, so nothing is lost.
      this.#sent.start();
      this.#feed.value = this.session.onDidEmit((events) => this.#sent.push(events));
      void this.refreshChanges();
    },
    "transcript/page": (msg) => void this.#sent.page(msg.beforeId, msg.count),
    "prompt/send": (msg) => this.#send(msg.text, msg.attachmentIds),
    "turn/cancel": () => this.session.cancel(),
    "queue/add": (msg) => this.session.queue.add(msg.text.trim()),
    "queue/edit": (msg) => this.session.queue.edit(msg.id, msg.text.trim()),
    "queue/remove": (msg) => this.session.queue.remove(msg.id),
    "queue/move": (msg) => this.session.queue.move(msg.id, msg.by),
    "queue/steer": (msg) => this.session.queue.steer({ id: msg.id }),
    "queue/sendNext": async () => {
      if (!this.session.sessionId) await this.deps.ensureAttached(this.session);
      await this.session.queue.sendNext();
    },
    "prompt/steer": (msg) => this.session.queue.steer({ text: msg.text.trim() }),
    "permission/answer": (msg) => void this.session.answerPermission(msg.requestId, msg.optionId, msg.note),
    "permission/dismiss": (msg) => void this.session.dismissPermission(msg.requestId),
    "question/answer": (msg) => {
      if (!this.session.answerQuestion(msg.questionId, msg.values))
        this.deps.log(`question ${msg.questionId}: the answer was not accepted (settled or invalid)`);
    },
    "question/decline": (msg) => void this.session.declineQuestion(msg.questionId),
    "config/set": (msg) => this.session.setConfigOption(msg.configId, msg.value),
    "mode/set": (msg) => this.session.setMode(msg.modeId),
    "location/open": (msg) => this.#openLocation(msg.path, msg.line),
    "diff/open": (msg) => this.#openDiff(msg.toolCallId, msg.contentIndex),
    "composer/mention": async () => this.#attachMention(await pickMention(this.#mentionContext())),
    "composer/attachSelection": async () => this.#attachMention(await selectionMention(this.#mentionContext())),
    "composer/detach": (msg) => void this.#attachments.delete(msg.attachmentId),
    "session/action": (msg) => this.deps.runAction(msg.action, this.session),
    "composer/image": (msg) =>
      this.#attachImages([checkImage(msg.name, msg.mimeType, msg.data, this.session.state.promptCapabilities.image)]),
    "composer/pickImages": async () => {
      const files = await pickImageFiles(this.session.folder);
      this.#attachImages(files.map((f) => checkImageFile(f.path, f.bytes, this.session.state.promptCapabilities.image)));
    },
    "auth/signIn": (msg) => this.deps.signIn(this.session, msg.methodId),
  };

  /** `prompt/send`: the text and the composer's attachments as one prompt (attached first when needed). */
  async #send(rawText: string, attachmentIds: readonly string[]): Promise<void> {
    const s = this.session;
    const text = rawText.trim();
    const atts = attachmentIds.map((id) => this.#attachments.get(id)).filter((a): a is ResolvedAttachment => a !== undefined);
    if (!text && atts.length === 0) return;
    for (const id of attachmentIds) this.#attachments.delete(id);
    if (!s.sessionId) await this.deps.ensureAttached(s);
    // A session still opening (its history may already show) takes the prompt once the agent holds it.
    await s.whenAttached();
    if (!s.sessionId) throw new Error("No session is attached to this folder.");
    const p = composePrompt(text, atts, s.state.promptCapabilities);
    if (p.droppedImages > 0)
      s.emit({
        type: "notice",
        severity: "warning",
        text: `This agent does not take images: ${p.droppedImages} image(s) were not sent.`,
      });
    await s.prompt(p.blocks, p.display);
  }

  async #openLocation(p: string, line: number | undefined): Promise<void> {
    const r = await this.session.confinement.confine(p);
    if (!r.ok) {
      void vscode.window.showWarningMessage(`Manifold: not opening ${p}: ${r.reason}`);
      return;
    }
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(r.path));
    const pos = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
    await vscode.window.showTextDocument(doc, { selection: new vscode.Range(pos, pos), preview: true, viewColumn: vscode.ViewColumn.One });
  }

  async #openDiff(toolCallId: string, index: number): Promise<void> {
    const d = await this.session.diff(toolCallId, index);
    if (d) await this.deps.diffs.open(d.path, d.oldText, d.newText);
  }

  #addAttachment(a: ResolvedAttachment): Attachment {
    const id = `att-${++this.#attachSeq}`;
    this.#attachments.set(id, a);
    return { id, label: attachmentLabel(a), kind: a.kind };
  }

  /** Checked images become attachments with a thumbnail; each refused one is said in the transcript. */
  #attachImages(checks: ImageCheck[]): void {
    const atts: Attachment[] = [];
    for (const c of checks) {
      if (!c.ok) this.session.emit({ type: "notice", severity: "error", text: c.message });
      else atts.push({ ...this.#addAttachment(c.attachment), thumbnail: c.thumbnail });
    }
    if (atts.length > 0) this.#post({ type: "composer/attach", attachments: atts });
    this.#post({ type: "composer/focus" });
  }

  #mentionContext(): MentionContext {
    const c = this.session.confinement;
    return {
      folder: this.session.folder,
      folderName: this.session.folderName,
      confine: (p) => c.confine(p),
      terminals: this.deps.terminals,
    };
  }

  /** A picked mention becomes a chip; a refused one says why. Focus goes back to the composer either way. */
  #attachMention(m: Mention<ResolvedAttachment> | undefined): void {
    if (m?.ok) this.#post({ type: "composer/attach", attachments: [this.#addAttachment(m.attachment)] });
    else if (m) void vscode.window.showWarningMessage(`Manifold: ${m.reason}`);
    this.#post({ type: "composer/focus" });
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#sent.dispose();
    this.#onDidDispose.fire();
    this.#store.dispose();
    this.panel.dispose();
  }
}
