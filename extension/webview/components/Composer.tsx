// The composer: multi-line input (Enter sends, Shift+Enter newline, Esc cancels the turn),
// @-mentions (a quick pick on the host), the editor selection, slash commands. While a turn runs it
// stays usable: Enter queues the message, Ctrl/Cmd+Enter steers it into the turn (when the agent can).
// Images (paste, drop, the picker) are attachments, only when the agent takes them; while a turn runs
// they stay here with the other attachments, since queued and steered messages are text only.
import { useEffect, useState } from "preact/hooks";
import type { AvailableCommand } from "@agentclientprotocol/sdk";
import type { Attachment } from "../../common/webviewProtocol";
import { TEST_IDS } from "../testIds";
import { Icon } from "../icons";
import type { Event } from "../../../base/event";
import { composerInput } from "../focus";
import type { FocusTarget } from "../panelStore";
import { savedDraft, saveDraft } from "../panelState";
import { post } from "../vscodeApi";
import { imageFiles, sendImages } from "../imageInput";
import { composerKey } from "../composerKeys";
import { AttachmentChips } from "./AttachmentChips";
import { ComposerActions, NO_IMAGES } from "./ComposerActions";

import { SlashMenu, useSlashMenu } from "./SlashMenu";
import type { SlashAction } from "../slashMenu";

export interface ComposerProps {
  running: boolean;
  /** The agent takes messages into a running turn (`_session/steering`). */
  canSteer: boolean;
  /** The agent takes image blocks (`promptCapabilities.image`). */
  canImage: boolean;
  disabled: boolean;
  commands: AvailableCommand[];
  attachments: readonly Attachment[];
  onDetach(id: string): void;
  onSent(): void;
  /** The host asks for focus here (e.g. after attaching files). */
  focusRequests: Event<FocusTarget>;
}

const ref = composerInput;

/** The textarea's placeholder: what Enter does now. */
function placeholder(p: ComposerProps): string {
  if (p.disabled) return "The agent is not available.";
  if (p.running) {
    return p.canSteer
      ? "Enter queues the message for after this turn; Ctrl+Enter steers it into the turn now"
      : "Enter queues the message for after this turn (this agent cannot take messages during a turn)";
  }
  return `Ask the agent… (Enter to send, Shift+Enter for a new line, @ to add context${p.canImage ? ", paste images" : ""}, / for commands)`;
}

/** The host's focus requests for the composer move focus to its textarea. */
function useFocusRequests(focusRequests: Event<FocusTarget>) {
  useEffect(() => {
    const sub = focusRequests((target) => target === "composer" && ref.current?.focus());
    return () => sub.dispose();
  }, [focusRequests]);
}

/** Pasted, dropped or picked images, and why the last ones were not attached (cleared by the next attempt or a send). */
function useImages(p: ComposerProps) {
  const [imageNotice, setImageNotice] = useState<string | undefined>(undefined);
  /** A paste or drop that carries image files: attach them, or say why not (never silently nothing). */
  const takeImages = (ev: ClipboardEvent | DragEvent, dt: DataTransfer | null) => {
    const files = imageFiles(dt);
    if (files.length === 0) return;
    ev.preventDefault();
    if (p.disabled) return;
    if (!p.canImage) return setImageNotice(NO_IMAGES);
    setImageNotice(undefined);
    void sendImages(files).then((problems) => setImageNotice(problems.length > 0 ? problems.join(" ") : undefined));
  };
  return { imageNotice, setImageNotice, takeImages };
}

/** The draft, the slash menu that reads it, and what sends it: a prompt, a queued or a steered message. */
function useComposer(p: ComposerProps) {
  // The draft outlives the page: a hidden panel's page is rebuilt when it is shown again.
  const [text, setText] = useState(savedDraft);
  const images = useImages(p);
  useFocusRequests(p.focusRequests);
  useEffect(() => saveDraft(text), [text]);
  const slash = useSlashMenu(text, p.commands);
  const setDraft = (t: string) => {
    setText(t);
    slash.onDraft();
  };

  const send = (body: string = text) => {
    if (p.disabled) return;
    if (p.running) return queueOrSteer("queue/add", body);
    if (body.trim() === "" && p.attachments.length === 0) return;
    post({ type: "prompt/send", text: body, attachmentIds: p.attachments.map((a) => a.id) });
    setDraft("");
    images.setImageNotice(undefined);
    p.onSent();
    // Clicking Send put focus on the button, which becomes Cancel: the next message is typed here.
    ref.current?.focus();
  };

  // Queued and steered messages are text only: attachments stay in the composer for a prompt of their own.
  const queueOrSteer = (type: "queue/add" | "prompt/steer", body: string = text) => {
    if (p.disabled || body.trim() === "") return;
    post({ type: type === "prompt/steer" && p.canSteer && p.running ? "prompt/steer" : "queue/add", text: body.trim() });
    setDraft("");
    ref.current?.focus();
  };

  // A picked command: filled in for its input, or run (sent) when it takes none.
  const onSlash = (a: SlashAction) => {
    if (a.kind === "fill") setDraft(a.text);
    else if (a.kind === "run") send(a.text);
    ref.current?.focus();
  };

  // What the key does is decided in ../composerKeys.ts; here it is carried out.
  const onKeyDown = (ev: KeyboardEvent) => {
    const r = composerKey(ev, { running: p.running, draft: text, commands: p.commands, menu: slash.state });
    slash.setState(r.menu);
    const a = r.action;
    if (a.kind === "none") return;
    ev.preventDefault();
    if (a.kind === "slash") onSlash(a.action);
    else if (a.kind === "steer") queueOrSteer("prompt/steer");
    else if (a.kind === "send") send();
    else if (a.kind === "cancel") post({ type: "turn/cancel" });
    else post({ type: "composer/mention" });
  };

  return { text, setDraft, slash, send, queueOrSteer, onSlash, onKeyDown, ...images };
}

export function Composer(p: ComposerProps) {
  const c = useComposer(p);
  return (
    <div
      class="composer"
      data-testid={TEST_IDS.composer}
      onDragOver={(ev) => {
        if (ev.dataTransfer?.types.includes("Files")) ev.preventDefault();
      }}
      onDrop={(ev) => c.takeImages(ev, ev.dataTransfer)}
    >
      <SlashMenu model={c.slash} onPick={c.onSlash} />
      <AttachmentChips attachments={p.attachments} onDetach={p.onDetach} />
      {c.imageNotice ? (
        <div class="image-notice" role="alert" data-testid={TEST_IDS.imageNotice}>
          <Icon name="warning" /> {c.imageNotice}
        </div>
      ) : null}
      <textarea
        ref={ref}
        data-testid={TEST_IDS.composerInput}
        aria-label="Message"
        rows={3}
        placeholder={placeholder(p)}
        {...c.slash.comboboxProps}
        value={c.text}
        onInput={(ev) => c.setDraft((ev.currentTarget as HTMLTextAreaElement).value)}
        onKeyDown={c.onKeyDown}
        onPaste={(ev) => c.takeImages(ev, ev.clipboardData)}
      />
      <ComposerActions
        running={p.running}
        canSteer={p.canSteer}
        canImage={p.canImage}
        disabled={p.disabled}
        onSend={() => c.send()}
        onQueue={() => c.queueOrSteer("queue/add")}
        onSteer={() => c.queueOrSteer("prompt/steer")}
        onNoImages={() => c.setImageNotice(NO_IMAGES)}
      />
    </div>
  );
}
