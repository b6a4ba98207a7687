// Turns the composer's text and attachments into ACP prompt content.
import { pathToFileURL } from "node:url";
import * as path from "node:path";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { ImageData } from "../common/images";
import { mentionBlocks, mentionLabel, type MentionAttachment } from "./mentions";

export type ResolvedAttachment =
  | { kind: "file"; path: string; text?: string }
  | { kind: "selection"; path: string; startLine: number; endLine: number; text: string }
  | ImageAttachment
  | MentionAttachment;

/** A pasted, dropped or picked image: its bytes stay on the host until the prompt is sent. */
export interface ImageAttachment extends ImageData {
  kind: "image";
  name: string;
}

/** What the agent accepts in a prompt besides text and links (its `promptCapabilities`). */
export interface PromptCaps {
  embeddedContext: boolean;
  image: boolean;
}

export function attachmentLabel(a: ResolvedAttachment): string {
  if (a.kind === "image") return a.name;
  if (a.kind === "symbol" || a.kind === "problems" || a.kind === "terminal") return mentionLabel(a);
  const name = path.basename(a.path);
  return a.kind === "file" ? name : `${name}:${a.startLine}-${a.endLine}`;
}

/**
 * Images become ACP image blocks after the text, only when the agent takes them.
 * Files become embedded resources when the agent accepts embedded context and we have their text,
 * else resource links (the baseline every agent supports). A selection without embedded context is
 * quoted into the text.
 */
export function buildPrompt(text: string, attachments: ResolvedAttachment[], caps: PromptCaps): ContentBlock[] {
  const { embeddedContext } = caps;
  const blocks: ContentBlock[] = [];
  const images: ContentBlock[] = [];
  let body = text;
  for (const a of attachments) {
    if (a.kind === "image") {
      // ACP: an agent that does not advertise `promptCapabilities.image` must not be sent one.
      if (caps.image) images.push({ type: "image", mimeType: a.mimeType, data: a.data });
      continue;
    }
    if (a.kind === "symbol" || a.kind === "problems" || a.kind === "terminal") {
      const m = mentionBlocks(a, embeddedContext);
      blocks.push(...m.blocks);
      body += m.quote ?? "";
      continue;
    }
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
  // An image-only prompt has no text block: an empty one says nothing and some agents refuse it.
  const lead: ContentBlock[] = body.trim() === "" && images.length > 0 ? [] : [{ type: "text", text: body }];
  return [...lead, ...images, ...blocks];
}

/** What one `prompt/send` becomes: the ACP blocks, what the transcript shows, the images left out. */
export interface ComposedPrompt {
  blocks: ContentBlock[];
  display: { text: string; attachments: string[]; images?: ImageData[] };
  /** Images attached while the agent took them but not sent, since the agent serving now does not. */
  droppedImages: number;
}

export function composePrompt(text: string, attachments: ResolvedAttachment[], caps: PromptCaps): ComposedPrompt {
  const images = attachments.filter((a): a is ImageAttachment => a.kind === "image");
  const shown = caps.image ? images.map((i) => ({ mimeType: i.mimeType, data: i.data })) : [];
  return {
    blocks: buildPrompt(text, attachments, caps),
    display: {
      text,
      attachments: attachments.filter((a) => a.kind !== "image").map(attachmentLabel),
      ...(shown.length > 0 ? { images: shown } : {}),
    },
    droppedImages: caps.image ? 0 : images.length,
  };
}
