// Images into the composer: what the webview pasted or dropped, or the picker read, checked
// (type, size, the agent's `promptCapabilities.image`) before the host keeps it as an attachment.
import * as path from "node:path";
import { base64Bytes, imageProblem, imageSrc, imageTypeOf } from "../common/images";
import type { ImageAttachment } from "./promptBuilder";

export const NO_IMAGES = "This agent does not take images: the image was not attached.";

export type ImageCheck = { ok: true; attachment: ImageAttachment; thumbnail: string } | { ok: false; message: string };

/** An image the webview sent (base64 from the user's clipboard or a drop). */
export function checkImage(name: string, mimeType: string, data: string, agentTakesImages: boolean): ImageCheck {
  if (!agentTakesImages) return { ok: false, message: NO_IMAGES };
  const label = path.basename(name) || "image";
  const problem = imageProblem(label, mimeType, base64Bytes(data));
  if (problem) return { ok: false, message: problem };
  const img = { mimeType: mimeType.toLowerCase(), data };
  const thumbnail = imageSrc(img);
  if (!thumbnail) return { ok: false, message: `${label} could not be read as an image.` };
  return { ok: true, attachment: { kind: "image", name: label, ...img }, thumbnail };
}

/** A file the picker chose: its type from its name, its size before its bytes are encoded. */
export function checkImageFile(filePath: string, bytes: Uint8Array, agentTakesImages: boolean): ImageCheck {
  const name = path.basename(filePath);
  const mimeType = imageTypeOf(name) ?? "";
  if (agentTakesImages) {
    const problem = imageProblem(name, mimeType, bytes.byteLength);
    if (problem) return { ok: false, message: problem };
  }
  return checkImage(name, mimeType, Buffer.from(bytes).toString("base64"), agentTakesImages);
}
