// Whether a model can see images. MANIFOLD_MODEL_VISION=1|0 decides for every configured model;
// otherwise a rough per-provider table of model-name patterns (a model it does not know is treated
// as blind: its images become text placeholders, and the transcript says so). The demo model is blind.
import { ModelConfigError, type ProviderId } from "./types";

/** OpenAI-compatible model names (the part after any `org/`) known to take image input. */
const OPENAI_COMPATIBLE_VISION: readonly RegExp[] = [
  /^gpt-4o/,
  /^gpt-4\.1/,
  /^gpt-4-turbo/,
  /^gpt-4-vision/,
  /^gpt-5/,
  /^o1(?!-mini)/,
  /^o3(?!-mini)/,
  /^o4/,
  /^chatgpt-4o/,
  /^gemini/,
  /^claude-(?:3|sonnet|opus|haiku)/,
  /vision/,
  /^llava/,
  /^bakllava/,
  /^gemma3/,
  /^qwen2(?:\.5)?-?vl/,
  /^qwen-vl/,
  /^pixtral/,
  /^minicpm-v/,
  /^moondream/,
  /^mistral-small3\.[12]/,
  /^llama-?4/,
];

export function visionFor(provider: ProviderId, model: string): boolean {
  const name = (model.split("/").pop() ?? model).toLowerCase();
  switch (provider) {
    case "anthropic":
      return !/^claude-(?:instant|2)/.test(name); // every Claude 3+ model sees images
    case "openai-compatible":
      return OPENAI_COMPATIBLE_VISION.some((re) => re.test(name));
    case "demo":
      return false;
  }
}

/** MANIFOLD_MODEL_VISION: undefined when unset; throws on anything but 0/1/true/false. */
export function visionOverride(raw: string | undefined): boolean | undefined {
  const v = raw?.trim().toLowerCase();
  if (!v) return undefined;
  if (v === "1" || v === "true") return true;
  if (v === "0" || v === "false") return false;
  throw new ModelConfigError(`MANIFOLD_MODEL_VISION must be 1 or 0, got "${raw}".`);
}

/** Decoded size of base64 data, without decoding it. */
export function base64Bytes(data: string): number {
  const pad = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - pad);
}

/** What a model that cannot see an image is told instead: its name, type and size, and why it is not shown. */
export function imageAsText(
  mimeType: string,
  data: string,
  name?: string,
  why = "this model cannot see images",
): { type: "text"; text: string } {
  const kib = Math.max(1, Math.round(base64Bytes(data) / 1024));
  return { type: "text", text: `[image${name ? ` ${name}` : ""}: ${mimeType}, ${kib} KiB — not shown: ${why}]` };
}
