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
import { AttachmentChips } from "./AttachmentChips";

import { SlashMenu, useSlashMenu } from "./SlashMenu";
import type { SlashAction } from "../slashMenu";

const NO_IMAGES = "This agent does not take images.";

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

export function Composer(p: ComposerProps) {
  // The draft outlives the page: a hidden panel's page is rebuilt when it is shown again.
  const [text, setText] = useState(savedDraft);
  // Why the last pasted, dropped or picked image was not attached (cleared by the next attempt or a send).
  const [imageNotice, setImageNotice] = useState<string | undefined>(undefined);
  const ref = composerInput;
  const { focusRequests } = p;
  useEffect(() => {
    const sub = focusRequests((target) => target === "composer" && ref.current?.focus());
    return () => sub.dispose();
  }, [focusRequests, ref]);
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
    setImageNotice(undefined);
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

  const onKeyDown = (ev: KeyboardEvent) => {
    if (ev.isComposing) return;
    // The open slash menu takes its keys first (arrows, Enter/Tab to pick, Escape to close it).
    if (!ev.shiftKey && !ev.ctrlKey && !ev.metaKey && !ev.altKey) {
      const a = slash.onKey(ev.key);
      if (a.kind !== "pass") {
        ev.preventDefault();
        onSlash(a);
        return;
      }
    }
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey) && p.running) {
      ev.preventDefault();
      queueOrSteer("prompt/steer");
    } else if (ev.key === "Enter" && !ev.shiftKey) {
      ev.preventDefault();
      send();
    } else if (ev.key === "Escape" && p.running) {
      ev.preventDefault();
      post({ type: "turn/cancel" });
    } else if (ev.key === "@" && (text === "" || /\s$/.test(text))) {
      // `@` at the start of a word opens the file picker (the file comes back as an attachment).
      ev.preventDefault();
      post({ type: "composer/mention" });
    }
  };

  return (
    <div
      class="composer"
      data-testid={TEST_IDS.composer}
      onDragOver={(ev) => {
        if (ev.dataTransfer?.types.includes("Files")) ev.preventDefault();
      }}
      onDrop={(ev) => takeImages(ev, ev.dataTransfer)}
    >
      <SlashMenu model={slash} onPick={onSlash} />
      <AttachmentChips attachments={p.attachments} onDetach={p.onDetach} />
      {imageNotice ? (
        <div class="image-notice" role="alert" data-testid={TEST_IDS.imageNotice}>
          <Icon name="warning" /> {imageNotice}
        </div>
      ) : null}
      <textarea
        ref={ref}
        data-testid={TEST_IDS.composerInput}
        aria-label="Message"
        rows={3}
        placeholder={
          p.disabled
            ? "The agent is not available."
            : p.running
              ? p.canSteer
                ? "Enter queues the message for after this turn; Ctrl+Enter steers it into the turn now"
                : "Enter queues the message for after this turn (this agent cannot take messages during a turn)"
              : `Ask the agent… (Enter to send, Shift+Enter for a new line, @ to add context${p.canImage ? ", paste images" : ""}, / for commands)`
        }
        {...slash.comboboxProps}
        value={text}
        onInput={(ev) => setDraft((ev.currentTarget as HTMLTextAreaElement).value)}
        onKeyDown={onKeyDown}
        onPaste={(ev) => takeImages(ev, ev.clipboardData)}
      />
      <div class="composer-actions">
        <button
          class="icon"
          data-testid={TEST_IDS.mention}
          title="Add context: files, selection, symbols, problems, terminal output (@)"
          aria-label="Add context"
          onClick={() => post({ type: "composer/mention" })}
        >
          <Icon name="mention" />
        </button>
        <button
          class="icon"
          data-testid={TEST_IDS.attachSelection}
          title="Attach the editor selection"
          aria-label="Attach the editor selection"
          onClick={() => post({ type: "composer/attachSelection" })}
        >
          <Icon name="selection" />
        </button>
        <button
          class="icon"
          data-testid={TEST_IDS.attachImage}
          title={p.canImage ? "Attach images (or paste or drop them here)" : NO_IMAGES}
          aria-label={p.canImage ? "Attach images" : `Attach images: ${NO_IMAGES}`}
          aria-disabled={!p.canImage}
          onClick={() => (p.canImage ? post({ type: "composer/pickImages" }) : setImageNotice(NO_IMAGES))}
        >
          <Icon name="file-media" />
        </button>
        <span class="spacer" />
        {p.running ? (
          <button
            class="secondary"
            data-testid={TEST_IDS.queueAdd}
            disabled={p.disabled}
            title="Queue: sent when this turn ends (Enter)"
            onClick={() => queueOrSteer("queue/add")}
          >
            <Icon name="list-ordered" /> Queue
          </button>
        ) : null}
        {p.running && p.canSteer ? (
          <button
            class="secondary"
            data-testid={TEST_IDS.steer}
            disabled={p.disabled}
            title="Steer: send into the running turn now (Ctrl+Enter / Cmd+Enter)"
            onClick={() => queueOrSteer("prompt/steer")}
          >
            <Icon name="debug-step-into" /> Steer
          </button>
        ) : p.running ? (
          <span class="muted" title="This agent cannot take a message during a turn: messages are queued and sent when the turn ends.">
            queue only
          </span>
        ) : null}
        {p.running ? (
          <button
            class="secondary"
            data-testid={TEST_IDS.cancel}
            title="Cancel the turn (Esc)"
            onClick={() => post({ type: "turn/cancel" })}
          >
            <Icon name="debug-stop" /> Cancel
          </button>
        ) : (
          <button class="primary" data-testid={TEST_IDS.send} disabled={p.disabled} title="Send (Enter)" onClick={() => send()}>
            <Icon name="send" /> Send
          </button>
        )}
      </div>
    </div>
  );
}
