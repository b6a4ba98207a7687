// An MCP `tools/call` result → what the model reads (text, bounded by the runner) and what the
// user's card shows (ACP content blocks: text, images, resource links). Pure; the result comes
// from an untrusted server, so every block is checked and sizes are capped.
import type { ContentBlock, ToolCallContent } from "@agentclientprotocol/sdk";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { truncateHead } from "../tools/truncate";
import type { ToolResult } from "../tools/types";

const MAX_BLOCKS = 50;
/** An image larger than this (base64 characters) is named on the card, not carried. */
export const MAX_IMAGE_CHARS = 4 * 1024 * 1024;

const str = (v: unknown): v is string => typeof v === "string";

export function convertResult(server: string, tool: string, res: CallToolResult): ToolResult {
  const model: string[] = [];
  const card: ToolCallContent[] = [];
  const blocks = Array.isArray(res.content) ? res.content : [];
  const text = (t: string): void => {
    model.push(t);
    card.push({ type: "content", content: { type: "text", text: truncateHead(t) } });
  };
  for (const raw of blocks.slice(0, MAX_BLOCKS)) {
    const b = raw as Record<string, unknown>;
    switch (b.type) {
      case "text":
        if (str(b.text)) text(b.text);
        break;
      case "image":
        if (str(b.data) && str(b.mimeType) && /^image\/[\w.+-]+$/.test(b.mimeType) && b.data.length <= MAX_IMAGE_CHARS) {
          model.push(`[image ${b.mimeType}, ${Math.floor((b.data.length * 3) / 4)} bytes]`);
          card.push({ type: "content", content: { type: "image", data: b.data, mimeType: b.mimeType } });
        } else text(`[an image the card does not show: bad type or larger than ${MAX_IMAGE_CHARS} characters]`);
        break;
      case "resource_link":
        if (str(b.uri) && str(b.name)) {
          const link: ContentBlock = { type: "resource_link", uri: b.uri, name: b.name };
          if (str(b.mimeType)) link.mimeType = b.mimeType;
          if (str(b.title)) link.title = b.title;
          if (str(b.description)) link.description = b.description;
          if (typeof b.size === "number") link.size = b.size;
          model.push(`[resource ${b.name}: ${b.uri}]`);
          card.push({ type: "content", content: link });
        }
        break;
      case "resource": {
        const r = (b.resource ?? {}) as Record<string, unknown>;
        if (str(r.uri) && str(r.text)) text(`[resource ${r.uri}]\n${r.text}`);
        else if (str(r.uri)) text(`[binary resource ${r.uri}${str(r.mimeType) ? ` (${r.mimeType})` : ""}]`);
        break;
      }
      case "audio":
        text(`[audio${str(b.mimeType) ? ` ${b.mimeType}` : ""} not shown]`);
        break;
      default:
        break;
    }
  }
  if (blocks.length > MAX_BLOCKS) text(`[${blocks.length - MAX_BLOCKS} more content blocks were dropped]`);
  if (model.length === 0 && res.structuredContent !== undefined) text(JSON.stringify(res.structuredContent));
  const isError = res.isError === true;
  let output = model.join("\n");
  if (output.length === 0) output = "(no output)";
  output = `${isError ? `MCP tool ${tool} on ${server} reported an error:\n` : ""}${truncateHead(output)}`;
  return { output, isError, content: card };
}
