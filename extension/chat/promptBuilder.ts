// Turns the composer's text and attachments into ACP prompt content.
import { pathToFileURL } from "node:url";
import * as path from "node:path";
import type { ContentBlock } from "@agentclientprotocol/sdk";

export type ResolvedAttachment =
  { kind: "file"; path: string; text?: string } | { kind: "selection"; path: string; startLine: number; endLine: number; text: string };

export function attachmentLabel(a: ResolvedAttachment): string {
  const name = path.basename(a.path);
  return a.kind === "file" ? name : `${name}:${a.startLine}-${a.endLine}`;
}

/**
 * Files become embedded resources when the agent accepts embedded context and we have their text,
 * else resource links (the baseline every agent supports). A selection without embedded context is
 * quoted into the text.
 */
export function buildPrompt(text: string, attachments: ResolvedAttachment[], embeddedContext: boolean): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  let body = text;
  for (const a of attachments) {
    const uri = pathToFileURL(a.path).href;
    if (a.kind === "selection") {
      const ref = `${uri}#L${a.startLine}-L${a.endLine}`;
      if (embeddedContext) {
        blocks.push({ type: "resource", resource: { uri: ref, text: a.text, mimeType: "text/plain" } });
      } else {
        body += `\n\nSelection from ${a.path} (lines ${a.startLine}-${a.endLine}):\n\`\`\`\n${a.text}\n\`\`\``;
      }
    } else if (embeddedContext && a.text !== undefined) {
      blocks.push({ type: "resource", resource: { uri, text: a.text, mimeType: "text/plain" } });
    } else {
      blocks.push({ type: "resource_link", uri, name: path.basename(a.path) });
    }
  }
  return [{ type: "text", text: body }, ...blocks];
}
