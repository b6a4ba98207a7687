// The composer's attachments: a chip per mention (an icon per kind), images as thumbnails. Each has a remove button
// that the keyboard reaches, named for what it removes.
import type { Attachment } from "../../common/webviewProtocol";
import { TEST_IDS } from "../testIds";
import { Icon } from "../icons";
import { attachmentIcon } from "../attachmentIcons";

export function AttachmentChips({ attachments, onDetach }: { attachments: readonly Attachment[]; onDetach(id: string): void }) {
  if (attachments.length === 0) return null;
  return (
    <div class="chips">
      {attachments.map((a) =>
        a.kind === "image" ? (
          <span key={a.id} class="chip image-chip" data-testid={TEST_IDS.attachment} data-kind="image" title={a.label}>
            {a.thumbnail ? <img class="thumbnail" data-testid={TEST_IDS.imageThumbnail} src={a.thumbnail} alt={a.label} /> : null}
            <button class="icon" title="Remove" aria-label={`Remove image ${a.label}`} onClick={() => onDetach(a.id)}>
              <Icon name="close" />
            </button>
          </span>
        ) : (
          <span key={a.id} class="chip" data-testid={TEST_IDS.attachment}>
            <Icon name={attachmentIcon(a.kind)} /> {a.label}
            <button class="icon" title="Remove" aria-label={`Remove ${a.label}`} onClick={() => onDetach(a.id)}>
              <Icon name="close" />
            </button>
          </span>
        ),
      )}
    </div>
  );
}
