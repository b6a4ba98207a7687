// Images a prompt may carry: the types and the size limit the built-in agent admits
// (agent-server/acp/prompt.ts). The agent-server cannot import extension code, nor this folder import
// anything outside it (the webview runs it), so the two lists are kept equal by a unit test
// (test/unit/extension/images.test.ts) instead of one shared file. Pure: host and webview check alike.

/** Image types every vision provider the built-in agent speaks to accepts. */
export const IMAGE_TYPES: readonly string[] = ["image/png", "image/jpeg", "image/gif", "image/webp"];
/** Per image, decoded bytes (Anthropic refuses more than 5 MB). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** File name extensions of `IMAGE_TYPES`, for the host's file picker. */
export const IMAGE_EXTENSIONS: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
};

/** An image as the transcript and the composer keep it: its type and base64 data. */
export interface ImageData {
  mimeType: string;
  data: string;
}

export function isImageType(mimeType: string): boolean {
  return IMAGE_TYPES.includes(mimeType.toLowerCase());
}

/** Decoded size of base64 data, without decoding it. */
export function base64Bytes(data: string): number {
  const pad = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - pad);
}

function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** Why this image cannot be sent (said to the user), or null when it can. */
export function imageProblem(name: string, mimeType: string, bytes: number): string | null {
  if (!isImageType(mimeType)) return `${name} is not a PNG, JPEG, GIF or WebP image${mimeType ? ` (${mimeType})` : ""}.`;
  if (bytes === 0) return `${name} is empty.`;
  if (bytes > MAX_IMAGE_BYTES) return `${name} is too large (${mib(bytes)}; the limit is 5 MiB per image).`;
  return null;
}

/** A `data:` URL for an image the panel shows; only the admitted types (never e.g. SVG). */
export function imageSrc(img: ImageData): string | undefined {
  if (!isImageType(img.mimeType) || !BASE64.test(img.data)) return undefined;
  return `data:${img.mimeType.toLowerCase()};base64,${img.data}`;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The MIME type for a file name by its extension, or undefined for anything not an admitted image. */
export function imageTypeOf(fileName: string): string | undefined {
  const ext = fileName.split(".").pop()?.toLowerCase() ?? "";
  return IMAGE_EXTENSIONS[ext];
}
