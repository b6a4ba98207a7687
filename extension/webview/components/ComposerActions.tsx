// The composer's buttons under its textarea: add context (@), attach the selection, attach images; then
// Send while idle, or Queue, Steer (when the agent can take a message during a turn) and Cancel while a
// turn runs.
import { TEST_IDS } from "../testIds";
import { Icon } from "../icons";
import { post } from "../vscodeApi";

export const NO_IMAGES = "This agent does not take images.";

export interface ComposerActionsProps {
  running: boolean;
  canSteer: boolean;
  canImage: boolean;
  disabled: boolean;
  onSend(): void;
  onQueue(): void;
  onSteer(): void;
  /** The image button was pressed while the agent takes no images: say why nothing happens. */
  onNoImages(): void;
}

/** The buttons that add to the message: context, the editor selection, images. */
function AttachButtons(p: { canImage: boolean; onNoImages(): void }) {
  return (
    <>
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
        onClick={() => (p.canImage ? post({ type: "composer/pickImages" }) : p.onNoImages())}
      >
        <Icon name="file-media" />
      </button>
    </>
  );
}

/** While a turn runs: Queue, then Steer when the agent can take a message during a turn (or a note that it cannot). */
function TurnButtons(p: ComposerActionsProps) {
  if (!p.running) return null;
  return (
    <>
      <button
        class="secondary"
        data-testid={TEST_IDS.queueAdd}
        disabled={p.disabled}
        title="Queue: sent when this turn ends (Enter)"
        onClick={() => p.onQueue()}
      >
        <Icon name="list-ordered" /> Queue
      </button>
      {p.canSteer ? (
        <button
          class="secondary"
          data-testid={TEST_IDS.steer}
          disabled={p.disabled}
          title="Steer: send into the running turn now (Ctrl+Enter / Cmd+Enter)"
          onClick={() => p.onSteer()}
        >
          <Icon name="debug-step-into" /> Steer
        </button>
      ) : (
        <span class="muted" title="This agent cannot take a message during a turn: messages are queued and sent when the turn ends.">
          queue only
        </span>
      )}
    </>
  );
}

export function ComposerActions(p: ComposerActionsProps) {
  return (
    <div class="composer-actions">
      <AttachButtons canImage={p.canImage} onNoImages={p.onNoImages} />
      <span class="spacer" />
      <TurnButtons {...p} />
      {p.running ? (
        <button class="secondary" data-testid={TEST_IDS.cancel} title="Cancel the turn (Esc)" onClick={() => post({ type: "turn/cancel" })}>
          <Icon name="debug-stop" /> Cancel
        </button>
      ) : (
        <button class="primary" data-testid={TEST_IDS.send} disabled={p.disabled} title="Send (Enter)" onClick={() => p.onSend()}>
          <Icon name="send" /> Send
        </button>
      )}
    </div>
  );
}
