// A user message with its checkpoint actions: restore the folder to before it, or edit and resend it.
import { useState } from "preact/hooks";
import type { UserEntry } from "../../common/transcript";
import { TEST_IDS } from "../testIds";
import { Icon } from "../icons";
import { post } from "../vscodeApi";
import { imageSrc } from "../../common/images";

/** The message being edited: Restore and resend (restores the files to before it, then sends it), or Cancel (Esc). */
function EditMessage({
  editing,
  setEditing,
  promptIndex,
  running,
}: {
  editing: string;
  setEditing(text: string | undefined): void;
  promptIndex: number;
  running: boolean;
}) {
  return (
    <div class="edit-message">
      <textarea
        data-testid={TEST_IDS.editInput}
        value={editing}
        rows={3}
        aria-label="Edited message"
        onInput={(ev) => setEditing((ev.currentTarget as HTMLTextAreaElement).value)}
        onKeyDown={(ev) => {
          if (ev.key === "Escape") setEditing(undefined);
        }}
      />
      <div class="row">
        <button
          class="primary"
          data-testid={TEST_IDS.editSend}
          disabled={running || editing.trim() === ""}
          title="Restore the files to before this message, then send the edited message"
          onClick={() => {
            post({ type: "prompt/edit", promptIndex, text: editing.trim() });
            setEditing(undefined);
          }}
        >
          Restore and resend
        </button>
        <button class="secondary" onClick={() => setEditing(undefined)}>
          Cancel
        </button>
      </div>
    </div>
  );
}

/** The message's images (as thumbnails) and the names of what was attached to it. */
function MessageAttachments({ e }: { e: UserEntry }) {
  return (
    <>
      {e.images && e.images.length > 0 ? (
        <div class="message-images">
          {e.images.map((img, i) => {
            const src = imageSrc(img);
            return src ? <img key={i} class="thumbnail" data-testid={TEST_IDS.messageImage} src={src} alt={`Image ${i + 1}`} /> : null;
          })}
        </div>
      ) : null}
      {e.attachments.length > 0 ? (
        <div class="chips">
          {e.attachments.map((a, i) => (
            <span key={i} class="chip">
              <Icon name="file" /> {a}
            </span>
          ))}
        </div>
      ) : null}
    </>
  );
}

export function UserMessage({ e, promptIndex, running }: { e: UserEntry; promptIndex: number; running: boolean }) {
  const [editing, setEditing] = useState<string | undefined>(undefined);
  return (
    <div class="msg user" data-testid={TEST_IDS.userMessage} data-prompt-index={promptIndex} data-steered={e.steered ? "true" : undefined}>
      {e.steered ? (
        <span class="steered-label" data-testid={TEST_IDS.steeredLabel} title="Sent into the running turn">
          steered
        </span>
      ) : null}
      {editing === undefined ? (
        <div class="user-text">{e.text}</div>
      ) : (
        <EditMessage editing={editing} setEditing={setEditing} promptIndex={promptIndex} running={running} />
      )}
      <MessageAttachments e={e} />
      {editing === undefined && !running && !e.steered ? (
        <div class="msg-actions">
          <button
            class="icon"
            data-testid={TEST_IDS.editMessage}
            title="Edit this message and resend it from here"
            aria-label="Edit this message and resend it"
            onClick={() => setEditing(e.text)}
          >
            <Icon name="edit" />
          </button>
          <button
            class="icon"
            data-testid={TEST_IDS.restoreCheckpoint}
            title="Restore the folder's files to how they were before this message"
            aria-label="Restore the files to before this message"
            onClick={() => post({ type: "restore/ask", promptIndex })}
          >
            <Icon name="discard" />
          </button>
        </div>
      ) : null}
    </div>
  );
}
