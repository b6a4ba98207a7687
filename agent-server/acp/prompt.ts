// Prompt admission checks (I-31, I-109): empty, whitespace-only, unsupported, oversized or too deep content is
// refused before anything is queued. Pure.
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { base64Bytes } from "../runtime/history";
import { depthExceeds } from "./envelope";

export const MAX_PROMPT_TEXT_BYTES = 1024 * 1024;
export const MAX_PROMPT_BINARY_BYTES = 20 * 1024 * 1024;
/** Image types every vision provider we speak to accepts. */
export const IMAGE_TYPES: readonly string[] = ["image/png", "image/jpeg", "image/gif", "image/webp"];
/** Per image, decoded (providers refuse larger ones: Anthropic's limit is 5 MB). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** Why an image cannot be sent, or null when it can. */
export function imageProblem(mimeType: string, data: string): string | null {
  if (!IMAGE_TYPES.includes(mimeType.toLowerCase()))
    return `unsupported image type ${JSON.stringify(mimeType)}: send PNG, JPEG, GIF or WebP`;
  if (!data) return "an image block has no data";
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data)) return "an image's data is not base64";
  const bytes = base64Bytes(data);
  if (bytes > MAX_IMAGE_BYTES) return `an image is too large (${bytes} bytes; the limit is ${MAX_IMAGE_BYTES} bytes, 5 MiB, per image)`;
  return null;
}
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
    if (depthExceeds(b, MAX_BLOCK_DEPTH))
      return { ok: false, message: `a prompt content block is nested deeper than ${MAX_BLOCK_DEPTH} levels` };
    switch (b.type) {
      case "text":
        textBytes += Buffer.byteLength(b.text);
        if (b.text.trim() !== "") {
          meaningful = true;
          title ??= b.text.trim().split("\n")[0]!.slice(0, 80);
        }
        break;
      case "image": {
        const problem = imageProblem(b.mimeType, b.data);
        if (problem) return { ok: false, message: problem };
        binaryBytes += b.data.length;
        meaningful = true;
        break;
      }
      case "resource_link":
        meaningful = true;
        title ??= b.name || b.uri;
        break;
      case "resource":
        if ("text" in b.resource) textBytes += Buffer.byteLength(b.resource.text);
        else {
          // An embedded image reaches the model as an image: the same checks.
          const mime = b.resource.mimeType ?? "";
          const problem = mime.startsWith("image/") ? imageProblem(mime, b.resource.blob) : null;
          if (problem) return { ok: false, message: problem };
          binaryBytes += b.resource.blob.length;
        }
        meaningful = true;
        break;
      case "audio":
        return { ok: false, message: "audio prompts are not supported by this agent" };
      default:
        return { ok: false, message: "unsupported prompt content" };
    }
  }
  if (!meaningful) return { ok: false, message: "the prompt has no content (empty or whitespace only)" };
  if (textBytes > MAX_PROMPT_TEXT_BYTES)
    return { ok: false, message: `the prompt text is too large (${textBytes} bytes; the limit is ${MAX_PROMPT_TEXT_BYTES})` };
  if (binaryBytes > MAX_PROMPT_BINARY_BYTES)
    return { ok: false, message: `the attachments are too large (the limit is ${MAX_PROMPT_BINARY_BYTES} bytes)` };
  return { ok: true, title };
}
