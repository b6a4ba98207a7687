// Prompt admission checks (I-31, I-109): empty, whitespace-only, unsupported, oversized or too deep content is
// refused before anything is queued. Pure.
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { depthExceeds } from "./envelope";

export const MAX_PROMPT_TEXT_BYTES = 1024 * 1024;
export const MAX_PROMPT_BINARY_BYTES = 20 * 1024 * 1024;
/** Deepest nesting inside one content block (its `_meta`): it is saved and replayed, so it must serialise (I-109). */
export const MAX_BLOCK_DEPTH = 32;

export type PromptCheck = { ok: true; title: string | null } | { ok: false; message: string };

export function checkPrompt(blocks: readonly ContentBlock[]): PromptCheck {
  if (blocks.length === 0) return { ok: false, message: "the prompt is empty" };
  let textBytes = 0;
  let binaryBytes = 0;
  let meaningful = false;
  let title: string | null = null;
  for (const b of blocks) {
    if (depthExceeds(b, MAX_BLOCK_DEPTH)) return { ok: false, message: `a prompt content block is nested deeper than ${MAX_BLOCK_DEPTH} levels` };
    switch (b.type) {
      case "text":
        textBytes += Buffer.byteLength(b.text);
        if (b.text.trim() !== "") {
          meaningful = true;
          title ??= b.text.trim().split("\n")[0]!.slice(0, 80);
        }
        break;
      case "image":
        if (!b.mimeType.startsWith("image/")) return { ok: false, message: `unsupported image type ${JSON.stringify(b.mimeType)}` };
        if (!b.data) return { ok: false, message: "an image block has no data" };
        binaryBytes += b.data.length;
        meaningful = true;
        break;
      case "resource_link":
        meaningful = true;
        title ??= b.name || b.uri;
        break;
      case "resource":
        if ("text" in b.resource) textBytes += Buffer.byteLength(b.resource.text);
        else binaryBytes += b.resource.blob.length;
        meaningful = true;
        break;
      case "audio":
        return { ok: false, message: "audio prompts are not supported by this agent" };
      default:
        return { ok: false, message: "unsupported prompt content" };
    }
  }
  if (!meaningful) return { ok: false, message: "the prompt has no content (empty or whitespace only)" };
  if (textBytes > MAX_PROMPT_TEXT_BYTES) return { ok: false, message: `the prompt text is too large (${textBytes} bytes; the limit is ${MAX_PROMPT_TEXT_BYTES})` };
  if (binaryBytes > MAX_PROMPT_BINARY_BYTES) return { ok: false, message: `the attachments are too large (the limit is ${MAX_PROMPT_BINARY_BYTES} bytes)` };
  return { ok: true, title };
}
