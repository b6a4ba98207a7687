// Codicon names for tool kinds and statuses.
import type { ToolKind } from "@agentclientprotocol/sdk";
import type { ToolDisplayStatus } from "../common/transcript";

export function kindIcon(kind: ToolKind): string {
  switch (kind) {
    case "read":
      return "file";
    case "edit":
      return "edit";
    case "delete":
      return "trash";
    case "move":
      return "arrow-right";
    case "search":
      return "search";
    case "execute":
      return "terminal";
    case "think":
      return "lightbulb";
    case "fetch":
      return "globe";
    case "switch_mode":
      return "arrow-swap";
    default:
      return "tools";
  }
}

export function statusIcon(status: ToolDisplayStatus): string {
  switch (status) {
    case "pending":
      return "circle-outline";
    case "in_progress":
      return "loading codicon-modifier-spin";
    case "completed":
      return "check";
    case "failed":
      return "error";
    case "cancelled":
      return "circle-slash";
    default:
      return "circle-outline";
  }
}

export function Icon({ name, title }: { name: string; title?: string }) {
  return <i class={`codicon codicon-${name}`} aria-hidden={title ? undefined : "true"} title={title} />;
}
