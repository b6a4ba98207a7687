// One chat panel (WebviewPanel) for one workspace folder: the host side of the webview protocol.
import * as vscode from "vscode";
import type { FolderSession } from "../../sessions/folderSession";
import { errorText } from "../../common/text";
import {
  assertNever,
  parseWebviewMessage,
  type Attachment,
  type HostToWebview,
  type SessionAction,
  type WebviewToHost,
} from "../../common/webviewProtocol";
import { renderShell } from "../html";
import { PanelFeed } from "../panelFeed";
import { attachmentLabel, buildPrompt, composePrompt, type ResolvedAttachment } from "../promptBuilder";
import { checkImage, checkImageFile, type ImageCheck } from "../imageAttachments";
import { pickImageFiles } from "./imagePicker";
import type { DiffContentProvider } from "./diffContent";
import type { BaselineDocs } from "../../checkpoints/vscode/baselineDocs";
import type { FolderCheckpoints } from "../../checkpoints/folderCheckpoints";
import { CheckpointReview, isReviewMessage } from "../../checkpoints/review";
import { Emitter, type Event } from "../../../base/event";
import { DisposableStore, MutableDisposable } from "../../../base/lifecycle";
import { pickMention, selectionMention, type MentionContext } from "./mentionPicker";
import type { TerminalOutputs } from "./terminalOutputs";
import type { Mention } from "../mentions";

export const CHAT_VIEW_TYPE = "manifold.chat";

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
  /** Runs one of the agent's sign-in methods for this folder (issue #18). */
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
    const s = this.session;
    if (isReviewMessage(msg)) {
      await this.review.handle(msg);
      return;
    }
    switch (msg.type) {
      case "ready":
        // Snapshot, then live events: both from the same synchronous point, so nothing is lost.
        this.#sent.start();
        this.#feed.value = s.onDidEmit((events) => this.#sent.push(events));
        void this.refreshChanges();
        return;
      case "transcript/page":
        void this.#sent.page(msg.beforeId, msg.count);
        return;
      case "prompt/send": {
        const text = msg.text.trim();
        const atts = msg.attachmentIds.map((id) => this.#attachments.get(id)).filter((a): a is ResolvedAttachment => a !== undefined);
        if (!text && atts.length === 0) return;
        for (const id of msg.attachmentIds) this.#attachments.delete(id);
        if (!s.sessionId) await this.deps.ensureAttached(s);
        if (!s.sessionId) throw new Error("No session is attached to this folder.");
        const p = composePrompt(text, atts, s.state.promptCapabilities);
        if (p.droppedImages > 0)
          s.emit({
            type: "notice",
            severity: "warning",
            text: `This agent does not take images: ${p.droppedImages} image(s) were not sent.`,
          });
        await s.prompt(p.blocks, p.display);
        return;
      }
      case "turn/cancel":
        await s.cancel();
        return;
      case "queue/add":
        s.queue.add(msg.text.trim());
        return;
      case "queue/edit":
        s.queue.edit(msg.id, msg.text.trim());
        return;
      case "queue/remove":
        s.queue.remove(msg.id);
        return;
      case "queue/move":
        s.queue.move(msg.id, msg.by);
        return;
      case "queue/steer":
        await s.queue.steer({ id: msg.id });
        return;
      case "queue/sendNext":
        if (!s.sessionId) await this.deps.ensureAttached(s);
        await s.queue.sendNext();
        return;
      case "prompt/steer":
        await s.queue.steer({ text: msg.text.trim() });
        return;
      case "permission/answer":
        s.answerPermission(msg.requestId, msg.optionId);
        return;
      case "permission/dismiss":
        s.dismissPermission(msg.requestId);
        return;
      case "question/answer":
        if (!s.answerQuestion(msg.questionId, msg.values))
          this.deps.log(`question ${msg.questionId}: the answer was not accepted (settled or invalid)`);
        return;
      case "question/decline":
        s.declineQuestion(msg.questionId);
        return;
      case "config/set":
        await s.setConfigOption(msg.configId, msg.value);
        return;
      case "mode/set":
        await s.setMode(msg.modeId);
        return;
      case "location/open":
        await this.#openLocation(msg.path, msg.line);
        return;
      case "diff/open":
        await this.#openDiff(msg.toolCallId, msg.contentIndex);
        return;
      case "composer/mention":
        this.#attachMention(await pickMention(this.#mentionContext()));
        return;
      case "composer/attachSelection":
        this.#attachMention(await selectionMention(this.#mentionContext()));
        return;
      case "composer/detach":
        this.#attachments.delete(msg.attachmentId);
        return;
      case "session/action":
        this.deps.runAction(msg.action, s);
        return;
      case "composer/image":
        this.#attachImages([checkImage(msg.name, msg.mimeType, msg.data, s.state.promptCapabilities.image)]);
        return;
      case "composer/pickImages": {
        const files = await pickImageFiles(s.folder);
        this.#attachImages(files.map((f) => checkImageFile(f.path, f.bytes, s.state.promptCapabilities.image)));
        return;
      }
      case "auth/signIn":
        await this.deps.signIn(s, msg.methodId);
        return;
      default:
        assertNever(msg);
    }
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
