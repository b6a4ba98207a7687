// A fake OpenAI Responses API (`POST …/responses`, stream) for codex-acp: real `node:http` on
// 127.0.0.1, no network. The script answers with text (streamed as `response.output_text.delta`
// events, then the message item and `response.completed`), a function call (a `function_call` item,
// its arguments as one delta) or "hang" (headers, then nothing until the agent aborts the request).
// Every request is recorded; anything else is a 404.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ResponsesRequest {
  body: unknown;
  /** The text of the last user message of `input`. */
  lastUserText: string;
  /** True when the last item of `input` is a tool's output (the step after a function call). */
  afterToolResult: boolean;
}

export type ResponsesReply = { text: string[] } | { toolCall: { name: string; args: Record<string, unknown> } } | "hang";

export interface FakeResponses {
  readonly origin: string;
  readonly requests: ResponsesRequest[];
  /** Resolves once a "hang" reply has started. Call before the request is sent. */
  nextHang(): Promise<void>;
  close(): Promise<void>;
}

function lastUserText(body: unknown): string {
  const input = (body as { input?: { role?: string; content?: { type?: string; text?: unknown }[] }[] } | null)?.input ?? [];
  for (const item of [...input].reverse()) {
    if (item.role !== "user") continue;
    const text = (item.content ?? []).flatMap((c) => (typeof c.text === "string" ? [c.text] : [])).join("");
    if (text) return text;
  }
  return "";
}

function afterToolResult(body: unknown): boolean {
  const input = (body as { input?: { type?: string }[] } | null)?.input ?? [];
  return input.at(-1)?.type === "function_call_output";
}

function event(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

function textEvents(chunks: string[], seq: number): string {
  const id = `msg_${seq}`;
  const whole = chunks.join("");
  return [
    event("response.created", { response: { id: `resp_${seq}` } }),
    event("response.output_item.added", { output_index: 0, item: { type: "message", id, role: "assistant", content: [] } }),
    ...chunks.map((delta) => event("response.output_text.delta", { item_id: id, output_index: 0, content_index: 0, delta })),
    event("response.output_item.done", {
      output_index: 0,
      item: { type: "message", id, role: "assistant", content: [{ type: "output_text", text: whole, annotations: [] }] },
    }),
    event("response.completed", { response: { id: `resp_${seq}`, usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 } } }),
  ].join("");
}

function callEvents(call: { name: string; args: Record<string, unknown> }, seq: number): string {
  const item = { type: "function_call", id: `fc_${seq}`, call_id: `call_${seq}`, name: call.name };
  const args = JSON.stringify(call.args);
  return [
    event("response.created", { response: { id: `resp_${seq}` } }),
    event("response.output_item.added", { output_index: 0, item: { ...item, arguments: "", status: "in_progress" } }),
    event("response.function_call_arguments.delta", { item_id: item.id, output_index: 0, delta: args }),
    event("response.output_item.done", { output_index: 0, item: { ...item, arguments: args, status: "completed" } }),
    event("response.completed", { response: { id: `resp_${seq}`, usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 } } }),
  ].join("");
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
  } catch {
    return null;
  }
}

export async function startFakeResponses(script: (req: ResponsesRequest) => ResponsesReply): Promise<FakeResponses> {
  const requests: ResponsesRequest[] = [];
  const hangWaiters: (() => void)[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const body = await readJson(req);
      if (!(req.url ?? "").endsWith("/responses")) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: `fake Responses API: nothing at ${req.method} ${req.url}` } }));
        return;
      }
      const recorded = { body, lastUserText: lastUserText(body), afterToolResult: afterToolResult(body) };
      requests.push(recorded);
      const reply = script(recorded);
      res.writeHead(200, { "content-type": "text/event-stream" });
      if (reply === "hang") {
        res.flushHeaders();
        hangWaiters.splice(0).forEach((w) => w());
        return;
      }
      res.end("toolCall" in reply ? callEvents(reply.toolCall, requests.length) : textEvents(reply.text, requests.length));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    nextHang: () => new Promise<void>((resolve) => hangWaiters.push(resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
