// The folder's queued messages, under the transcript: sent in order, one per turn, when a
// turn ends normally. Each can be edited, moved up or down, removed, or steered into the running turn.
// The list is the host's (`TranscriptState.queue`); every button asks the host by item id.
import { useState } from "preact/hooks";
import type { QueuedMessage } from "../../common/promptQueue";
import { TEST_IDS } from "../testIds";
import { Icon } from "../icons";
import { post } from "../vscodeApi";

export interface QueueListProps {
  items: readonly QueuedMessage[];
  running: boolean;
  /** The agent takes messages into a running turn. */
  canSteer: boolean;
}

export function QueueList({ items, running, canSteer }: QueueListProps) {
  if (items.length === 0) return null;
  return (
    <section class="queue" data-testid={TEST_IDS.queue} aria-label="Queued messages">
      <div class="queue-head">
        <span class="muted">
          {items.length === 1 ? "1 message waits" : `${items.length} messages wait`} —{" "}
          {running ? "sent one per turn when this turn ends" : "sent after the next turn that ends normally"}
        </span>
        {!running ? (
          <button class="secondary" data-testid={TEST_IDS.queueSendNext} onClick={() => post({ type: "queue/sendNext" })}>
            <Icon name="send" /> Send next
          </button>
        ) : null}
      </div>
      <ol class="queue-items">
        {items.map((m, i) => (
          <QueueItem key={m.id} m={m} first={i === 0} last={i === items.length - 1} running={running} canSteer={canSteer} />
        ))}
      </ol>
    </section>
  );
}

function QueueItem(p: { m: QueuedMessage; first: boolean; last: boolean; running: boolean; canSteer: boolean }) {
  const { m } = p;
  const [editing, setEditing] = useState<string | undefined>(undefined);
  const short = m.text.length > 40 ? `${m.text.slice(0, 40)}…` : m.text;
  const save = () => {
    const text = editing?.trim() ?? "";
    if (text !== "" && text !== m.text) post({ type: "queue/edit", id: m.id, text });
    setEditing(undefined);
  };
  return (
    <li class="queue-item" data-testid={TEST_IDS.queueItem} data-queue-id={m.id}>
      {editing === undefined ? (
        <div class="user-text">{m.text}</div>
      ) : (
        <textarea
          data-testid={TEST_IDS.queueEditInput}
          aria-label="Edit the queued message"
          rows={2}
          value={editing}
          onInput={(ev) => setEditing((ev.currentTarget as HTMLTextAreaElement).value)}
          onKeyDown={(ev) => {
            if (ev.isComposing) return;
            if (ev.key === "Enter" && !ev.shiftKey) {
              ev.preventDefault();
              save();
            } else if (ev.key === "Escape") {
              ev.preventDefault();
              ev.stopPropagation();
              setEditing(undefined);
            }
          }}
          onBlur={save}
        />
      )}
      <QueueActions
        m={m}
        short={short}
        first={p.first}
        last={p.last}
        running={p.running}
        canSteer={p.canSteer}
        onEdit={() => setEditing(m.text)}
      />
    </li>
  );
}

/** An item's buttons, each named for the message it acts on (`short`): steer now, edit, move up or down, remove. */
function QueueActions(p: {
  m: QueuedMessage;
  short: string;
  first: boolean;
  last: boolean;
  running: boolean;
  canSteer: boolean;
  onEdit(): void;
}) {
  const { m, short } = p;
  return (
    <div class="queue-actions">
      {p.running && p.canSteer ? (
        <button
          class="icon"
          data-testid={TEST_IDS.queueSteer}
          title="Steer: send into the running turn now"
          aria-label={`Steer now: ${short}`}
          onClick={() => post({ type: "queue/steer", id: m.id })}
        >
          <Icon name="debug-step-into" />
        </button>
      ) : null}
      <button class="icon" data-testid={TEST_IDS.queueEdit} title="Edit" aria-label={`Edit: ${short}`} onClick={() => p.onEdit()}>
        <Icon name="edit" />
      </button>
      <button
        class="icon"
        data-testid={TEST_IDS.queueUp}
        title="Move up"
        aria-label={`Move up: ${short}`}
        disabled={p.first}
        onClick={() => post({ type: "queue/move", id: m.id, by: -1 })}
      >
        <Icon name="arrow-up" />
      </button>
      <button
        class="icon"
        data-testid={TEST_IDS.queueDown}
        title="Move down"
        aria-label={`Move down: ${short}`}
        disabled={p.last}
        onClick={() => post({ type: "queue/move", id: m.id, by: 1 })}
      >
        <Icon name="arrow-down" />
      </button>
      <button
        class="icon"
        data-testid={TEST_IDS.queueRemove}
        title="Remove from the queue"
        aria-label={`Remove: ${short}`}
        onClick={() => post({ type: "queue/remove", id: m.id })}
      >
        <Icon name="close" />
      </button>
    </div>
  );
}
