// The agent's ACP stream over stdio, with the stdin guard (I-108). Every line is judged by the
// FrameScanner before it is parsed: a line that is too deep, too large, not an object, not
// UTF-8 or has an unusable id never reaches the SDK (whose "invalid request" reply echoes the whole
// frame, and whose line limit closes the connection). A refused request gets a small error carrying
// its exact id when that id is a string or number in valid UTF-8, else id null (so does a line too
// broken to say what it was); a refused response to one of our own
// requests settles that request with an error (never a grant); a refused notification is dropped.
// Parsed messages then pass the envelope checks the SDK's lenient schemas skip (`_meta: 5`).
// It stands in for the SDK's ndJsonStream (same framing, same replies to unparseable lines) in one
// stage: stdin's chunks are scanned, judged and parsed where they arrive, and messages out are
// serialised straight into the batched output, with no web-stream pipeline in between.
import * as acp from "@agentclientprotocol/sdk";
import type { BatchedOutput } from "./batchedOutput";
import { messageProblem } from "./envelope";
import { DEFAULT_FRAME_LIMITS, FrameScanner, problemMessage, type FrameLimits, type ScannedLine } from "./frameScanner";

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

/** What a judged line turns into: a message for the SDK, or a reply of ours. */
interface LineSink {
  deliver(message: acp.AnyMessage): void;
  reply(message: acp.AnyMessage): void;
  log(message: string): void;
}

/** As the SDK's ndJsonStream parses a line: blank lines skipped, what is not a JSON object answered. */
function parseLine(bytes: Buffer, to: LineSink): void {
  const text = bytes.toString("utf8").trim();
  if (!text) return;
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return to.reply(protocolError(acp.RequestError.parseError()));
  }
  if (Array.isArray(message))
    return to.reply(protocolError(acp.RequestError.invalidRequest(undefined, "JSON-RPC batches are not supported")));
  if (typeof message !== "object" || message === null) return to.reply(protocolError(acp.RequestError.invalidRequest()));
  // Parsed messages: what the SDK's lenient schemas would silently repair is refused instead.
  const msg = message as acp.AnyMessage;
  const problem = messageProblem(msg);
  if (problem === null) return to.deliver(msg);
  if ("id" in msg) to.reply({ jsonrpc: "2.0", id: msg.id, error: { code: -32602, message: `Invalid params: ${problem}` } });
  else to.log(`[acp] dropped a notification with invalid params (${problem})`);
}

/** A stream of what `onChunk` delivers from a Node readable; the readable waits while the reader is behind. */
function readableFrom(
  input: NodeJS.ReadableStream,
  onChunk: (chunk: Buffer, controller: ReadableStreamDefaultController<acp.AnyMessage>) => void,
  onEnd: (controller: ReadableStreamDefaultController<acp.AnyMessage>) => void,
): ReadableStream<acp.AnyMessage> {
  let ended = false;
  let controller!: ReadableStreamDefaultController<acp.AnyMessage>;
  const onData = (chunk: Buffer | string): void => {
    if (ended) return;
    onChunk(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk, controller);
    // The SDK reads one message at a time: stdin waits while what it holds is unread.
    if ((controller.desiredSize ?? 1) <= 0) input.pause();
  };
  return new ReadableStream<acp.AnyMessage>(
    {
      start(c) {
        controller = c;
        input.on("data", onData);
        input.once("end", () => {
          if (ended) return;
          ended = true;
          onEnd(controller);
          controller.close();
        });
        input.once("error", (err: unknown) => {
          if (ended) return;
          ended = true;
          controller.error(err);
        });
      },
      pull() {
        if (input.isPaused()) input.resume();
      },
      cancel() {
        ended = true;
        input.off("data", onData);
        input.pause();
      },
    },
    { highWaterMark: 16 },
  );
}

export function guardedStream(
  output: Pick<BatchedOutput, "write" | "writeLine">,
  input: NodeJS.ReadableStream,
  limits: FrameLimits = DEFAULT_FRAME_LIMITS,
  log: (message: string) => void = (m) => console.warn(m),
): acp.Stream {
  const scanner = new FrameScanner(limits);
  const logRefusal = refusalLogger(log);
  // Our own replies join the output's batches as whole lines, in the order written.
  const reply = (message: acp.AnyMessage): void => output.writeLine(Buffer.from(JSON.stringify(message) + "\n"));

  const judge = (line: ScannedLine, controller: ReadableStreamDefaultController<acp.AnyMessage>): void => {
    if (line.ok) return parseLine(line.bytes, { deliver: (m) => controller.enqueue(m), reply, log });
    logRefusal(line);
    const error = { code: errorCode(line.problem), message: problemMessage(line.problem, limits) };
    switch (line.kind) {
      case "notification":
        return; // nobody waits for an answer
      case "response":
        // Settle our own pending request as failed, through the SDK's normal response path.
        if (line.id !== null) controller.enqueue({ jsonrpc: "2.0", id: line.id, error });
        return;
      default:
        reply({ jsonrpc: "2.0", id: line.id, error });
    }
  };

  const readable = readableFrom(
    input,
    (chunk, controller) => {
      for (const line of scanner.push(chunk)) judge(line, controller);
    },
    (controller) => {
      const last = scanner.end();
      if (last) judge(last, controller);
    },
  );
  const writable = new WritableStream<acp.AnyMessage>({
    write(message) {
      return output.write(Buffer.from(JSON.stringify(message) + "\n"));
    },
  });
  return { readable, writable };
}

function protocolError(error: acp.RequestError): acp.AnyMessage {
  return { jsonrpc: "2.0", id: null, error: error.toErrorResponse() };
}
