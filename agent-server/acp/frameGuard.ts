// The stdin guard in front of the SDK's ndJsonStream (I-108). Every line is judged by the
// FrameScanner before the SDK parses it: a line that is too deep, too large, not an object, not
// UTF-8 or has an unusable id never reaches the SDK (whose "invalid request" reply echoes the whole
// frame, and whose line limit closes the connection). A refused request gets a small error carrying
// its exact id when that id is a string or number in valid UTF-8, else id null (so does a line too
// broken to say what it was); a refused response to one of our own
// requests settles that request with an error (never a grant); a refused notification is dropped.
// Parsed messages then pass the envelope checks the SDK's lenient schemas skip (`_meta: 5`).
import * as acp from "@agentclientprotocol/sdk";
import type { BatchedOutput } from "./batchedOutput";
import { messageProblem } from "./envelope";
import { DEFAULT_FRAME_LIMITS, FrameScanner, problemMessage, type FrameLimits, type ScannedLine } from "./frameScanner";

const NEWLINE = new Uint8Array([0x0a]);

function errorCode(problem: Exclude<ScannedLine, { ok: true }>["problem"]): number {
  return problem === "not-utf8" || problem === "not-json" ? -32700 : -32600;
}

/** Logs the first refusals and then every 1000th, so a flood of bad frames cannot flood stderr. */
function refusalLogger(log: (message: string) => void): (line: Exclude<ScannedLine, { ok: true }>) => void {
  let count = 0;
  return (line) => {
    count++;
    if (count <= 20 || count % 1000 === 0)
      log(`[acp] refused a ${line.kind} frame of ${line.bytes} bytes (${line.problem}; ${count} refused so far)`);
  };
}

export function guardedNdJsonStream(
  output: Pick<BatchedOutput, "writable" | "writeLine">,
  input: ReadableStream<Uint8Array>,
  limits: FrameLimits = DEFAULT_FRAME_LIMITS,
  log: (message: string) => void = (m) => console.warn(m),
): acp.Stream {
  const scanner = new FrameScanner(limits);
  const logRefusal = refusalLogger(log);
  // Our own replies join the output's batches as whole lines, never inside one of the SDK's: the SDK
  // writes straight into the output, with no stream of ours in between (one layer less per message).
  const reply = (message: acp.AnyMessage): void => output.writeLine(Buffer.from(JSON.stringify(message) + "\n"));

  const refuse = (line: Exclude<ScannedLine, { ok: true }>, controller: TransformStreamDefaultController<Uint8Array>): void => {
    logRefusal(line);
    const error = { code: errorCode(line.problem), message: problemMessage(line.problem, limits) };
    switch (line.kind) {
      case "notification":
        return; // nobody waits for an answer
      case "response":
        // Settle our own pending request as failed, through the SDK's normal response path.
        if (line.id !== null) {
          controller.enqueue(Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: line.id, error }) + "\n"));
        }
        return;
      default:
        reply({ jsonrpc: "2.0", id: line.id, error });
    }
  };

  const judge = (line: ScannedLine, controller: TransformStreamDefaultController<Uint8Array>): void => {
    if (!line.ok) return refuse(line, controller);
    controller.enqueue(line.bytes);
    controller.enqueue(NEWLINE);
  };

  const guard = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      for (const line of scanner.push(chunk)) judge(line, controller);
    },
    flush(controller) {
      const last = scanner.end();
      if (last) judge(last, controller);
    },
  });

  // The SDK only ever sees lines within our limit, so its own limit (which closes the connection) never trips.
  const inner = acp.ndJsonStream(output.writable, input.pipeThrough(guard), { maxMessageBytes: limits.maxLineBytes + 1 });
  // Parsed messages: what the SDK's lenient schemas would silently repair is refused instead.
  const readable = inner.readable.pipeThrough(
    new TransformStream<acp.AnyMessage, acp.AnyMessage>({
      transform(message, controller) {
        const problem = messageProblem(message);
        if (problem === null) return controller.enqueue(message);
        if ("id" in message) reply({ jsonrpc: "2.0", id: message.id, error: { code: -32602, message: `Invalid params: ${problem}` } });
        else log(`[acp] dropped a notification with invalid params (${problem})`);
      },
    }),
  );
  return { readable, writable: inner.writable };
}
