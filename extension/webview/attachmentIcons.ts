// One codicon per attachment kind, so a chip says what it carries at a glance.
import type { Attachment } from "../common/webviewProtocol";

export function attachmentIcon(kind: Attachment["kind"]): string {
  switch (kind) {
    case "file":
      return "file";
    case "selection":
      return "selection";
    case "symbol":
      return "symbol-method";
    case "problems":
      return "warning";
    case "terminal":
      return "terminal";
    default:
      return "file";
  }
}
