// The lean path of OpenAI-compatible streaming. Almost every event of a streamed answer is a plain
// text or reasoning delta; the AI SDK would push each through its parser, a zod check and several
// stream stages. This filter sits between the response body and the SDK: it takes the plain deltas
// out (one JSON.parse each) and passes every other byte through unchanged — the first chunk, tool
// calls, finish, usage, errors, comments, anything malformed or unusual — so the SDK still parses
// those exactly as before and keeps tool calls, finish reasons, usage and errors.
//
// Order is kept for what matters: a delta is handed over when its bytes are read, before the SDK can
// see any later byte, so the finish (and any error) always comes after every delta before it.

export interface Delta {
  type: "text-delta" | "reasoning-delta";
  text: string;
}

/** The delta a chunk carries when it is nothing but one plain delta; null when the SDK must see it. */
export function plainDelta(data: string): Delta | null {
  if (data.charCodeAt(0) !== 0x7b /* { */) return null;
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const chunk = value as { error?: unknown; usage?: unknown; choices?: unknown };
  if (chunk.error !== undefined || (chunk.usage !== undefined && chunk.usage !== null)) return null;
  if (!Array.isArray(chunk.choices) || chunk.choices.length !== 1) return null;
  const choice: unknown = chunk.choices[0];
  if (typeof choice !== "object" || choice === null) return null;
  const { delta, finish_reason: finish } = choice as { delta?: unknown; finish_reason?: unknown };
  if ((finish !== undefined && finish !== null) || typeof delta !== "object" || delta === null) return null;
  let out: Delta | null = null;
  const fields = delta as Record<string, unknown>;
  for (const key in fields) {
    const v = fields[key];
    if (v === null || v === undefined) continue;
    if (out !== null || typeof v !== "string") return null; // two fields, or not a string: the SDK's call
    if (key === "content") out = { type: "text-delta", text: v };
    else if (key === "reasoning_content" || key === "reasoning") out = { type: "reasoning-delta", text: v };
    else return null;
  }
  return out;
}

/** A single-line `data:` event's value (one leading space removed, as SSE does), else null. */
function singleData(block: string): string | null {
  if (!block.startsWith("data:") || block.includes("\n")) return null;
  return block.charCodeAt(5) === 0x20 ? block.slice(6) : block.slice(5);
}

/**
 * Bytes in, bytes out minus the plain deltas, which go to `onDelta` (empty ones are dropped).
 * `onBytes` hears every chunk read (the inactivity timer's heartbeat). The first event always
 * passes (the SDK takes the response's metadata from it). A body using CR line endings is passed
 * through whole from there on: rare, and the SDK's own parser handles it.
 */
export function deltaFilter(onDelta: (d: Delta) => void, onBytes: () => void): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let buffer = "";
  let seenFirst = false;
  let passAll = false;
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(bytes, controller) {
      onBytes();
      const text = decoder.decode(bytes, { stream: true });
      if (passAll || text.includes("\r")) {
        passAll = true;
        const out = buffer + text;
        buffer = "";
        if (out) controller.enqueue(encoder.encode(out));
        return;
      }
      buffer += text;
      const kept: string[] = [];
      let start = 0;
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n", start)) {
        const block = buffer.slice(start, end);
        const data = seenFirst ? singleData(block) : null;
        if (block.startsWith("data:")) seenFirst = true;
        const delta = data === null ? null : plainDelta(data);
        if (delta) {
          if (delta.text) onDelta(delta);
        } else kept.push(buffer.slice(start, end + 2));
        start = end + 2;
      }
      buffer = buffer.slice(start);
      if (kept.length > 0) controller.enqueue(encoder.encode(kept.join("")));
    },
    flush(controller) {
      const rest = buffer + decoder.decode();
      if (rest) controller.enqueue(encoder.encode(rest)); // an unfinished event: the SDK decides
    },
  });
}
